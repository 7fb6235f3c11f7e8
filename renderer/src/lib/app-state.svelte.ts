/** The screens' shared state: the latest snapshot, the backend, the last message to show. */
import type { Snapshot } from '../../../electron/contract/snapshot.js';
import type { Reply } from '../../../electron/contract/api.js';
import type { Backend, Role } from '../backend/types.js';

export const app = $state<{ backend: Backend | null; role: Role | null; snapshot: Snapshot | null; message: { text: string; error: boolean } | null; highlight: (readonly [number, number])[] }>({
  backend: null,
  role: null,
  snapshot: null,
  message: null,
  highlight: [],
});

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
