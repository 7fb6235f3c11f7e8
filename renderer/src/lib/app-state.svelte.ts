/** The screens' shared state: the latest snapshot, the backend, the last message to show. */
import type { Snapshot } from '../../../electron/contract/snapshot.js';
import type { Reply } from '../../../electron/contract/api.js';
import type { Crop } from '../../../electron/contract/tiles.js';
import type { Backend, Role } from '../backend/types.js';

/**
 * The tile editor, when open: which tile (null: the table picks), and the camera crop it is described
 * on (null when opened from the Games screen). The camera view opens it for a tile the catalog lacks.
 */
export interface EditorRequest {
  readonly tileId: string | null;
  readonly crop: Crop | null;
  readonly source: 'camera' | 'settings';
}

export const app = $state<{
  backend: Backend | null;
  role: Role | null;
  snapshot: Snapshot | null;
  message: { text: string; error: boolean } | null;
  highlight: (readonly [number, number])[];
  editor: EditorRequest | null;
}>({
  backend: null,
  role: null,
  snapshot: null,
  message: null,
  highlight: [],
  editor: null,
});

/** Opens the tile editor over the current screen. */
export function openTileEditor(request: EditorRequest): void {
  app.editor = request;
}

/** Runs an operation; a refusal is shown to the table in words, never thrown. */
export async function run<T>(p: Promise<Reply<T>>, done?: string): Promise<T | null> {
  const r = await p;
  if (!r.ok) {
    app.message = { text: r.error, error: true };
    return null;
  }
  app.message = done ? { text: done, error: false } : null;
  return r.value;
}

export function api() {
  if (!app.backend) throw new Error('no backend yet');
  return app.backend.api;
}
