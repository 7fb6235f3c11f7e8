/** The screens' shared state: the latest snapshot, the backend, the last message to show. */
import type { PlaceView, Snapshot } from '../../../electron/contract/snapshot.js';
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
  /** Places the shown message speaks of ("the lit road"): the board lights them while it is shown. */
  lit: readonly PlaceView[];
  /** The developer view: the engine's ids, positions and commands shown beside the words. */
  developer: boolean;
  editor: EditorRequest | null;
  /** May a second screen enter moves (the main screen's setting)? The main screen always may. */
  screenMoves: boolean;
}>({
  backend: null,
  role: null,
  snapshot: null,
  message: null,
  highlight: [],
  lit: [],
  developer: false,
  editor: null,
  screenMoves: false,
});

/** May this screen enter moves: the main screen, or a second screen the main screen allows (the server checks too). */
export function mayEnter(): boolean {
  return app.role === 'main' || (app.role !== null && app.screenMoves);
}

/** A second screen asks again whether it may enter moves (the setting may change at any time). */
export async function refreshScreenMoves(): Promise<void> {
  if (app.role === 'main' || !app.backend) return;
  const r = await app.backend.api.pairing();
  if (r.ok) app.screenMoves = r.value.screenMoves;
}

/** Opens the tile editor over the current screen. */
export function openTileEditor(request: EditorRequest): void {
  app.editor = request;
}

/** Runs an operation; a refusal is shown to the table in words, never thrown. */
export async function run<T>(p: Promise<Reply<T>>, done?: string): Promise<T | null> {
  const r = await p;
  if (!r.ok) {
    app.message = { text: r.error, error: true };
    app.lit = r.places ?? [];
    return null;
  }
  app.message = done ? { text: done, error: false } : null;
  app.lit = [];
  return r.value;
}

export function api() {
  if (!app.backend) throw new Error('no backend yet');
  return app.backend.api;
}
