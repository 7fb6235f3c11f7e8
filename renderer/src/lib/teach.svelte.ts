/**
 * Teach mode's view on this screen (docs/teach.md): asked for while the teach panel is shown, every
 * POLL_MS; the services answer null when nothing changed since the version the screen holds.
 */
import type { TeachView } from '../../../electron/contract/teach.js';
import { app } from './app-state.svelte.js';

const POLL_MS = 400;

export const teach = $state<{ view: TeachView | null }>({ view: null });

/** Follows the teach view until the returned function is called. */
export function followTeach(): () => void {
  let stopped = false;
  const tick = async () => {
    if (stopped || !app.backend) return;
    const r = await app.backend.api.teach(teach.view?.version ?? null);
    if (r.ok && r.value) teach.view = r.value;
  };
  void tick();
  const timer = setInterval(() => void tick(), POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
