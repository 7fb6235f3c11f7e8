/**
 * A frame's grey copy for the frame intake's still test, made on a worker thread of its own
 * (frame-look-worker.ts) so that the services' thread only hands over the JPEG and compares the
 * answer. One worker for the process, started by the first look and not keeping the process up
 * while nothing is asked of it. A worker that fails or stops refuses the looks it had (the intake
 * says those frames were not looked at); the next look starts another.
 */
import { Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry.js';

/** A grey copy of a frame: one byte a pixel, row by row. */
export interface Thumb {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

export interface LookRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
  /** The grey copy's width (its height follows the frame's shape). */
  readonly width: number;
}

export type LookReply = ({ readonly id: number; readonly ok: true } & Thumb) | { readonly id: number; readonly ok: false; readonly why: string };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { readonly resolve: (t: Thumb) => void; readonly reject: (e: Error) => void }>();

function started(): Worker {
  const w = new Worker(workerEntry('frame-look-worker', import.meta.url));
  const down = (why: string) => {
    if (worker !== w) return;
    worker = null;
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
  };
  w.on('message', (r: LookReply) => {
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (pending.size === 0) w.unref();
    if (r.ok) p.resolve({ width: r.width, height: r.height, data: r.data });
    else p.reject(new Error(r.why));
  });
  w.on('error', (e) => down(`the frame look worker failed: ${e.message}`));
  w.on('exit', (code) => down(`the frame look worker stopped (exit code ${code})`));
  return w;
}

/** The frame (a JPEG) decoded to a `width` px grey copy on the look worker; refused, never thrown. */
export function lookAt(bytes: Uint8Array, width: number): Promise<Thumb> {
  let w: Worker;
  try {
    w = worker ??= started();
  } catch (e) {
    // No worker to be had (its entry missing from a broken build): this look is refused with why.
    return Promise.reject(new Error(`the frame look worker could not start: ${(e as Error).message}`));
  }
  if (pending.size === 0) w.ref();
  const id = nextId++;
  return new Promise<Thumb>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // A copy moved to the worker (the services keep the frame): one memcpy, where sending the
    // frame itself would serialise it byte by byte into the message.
    const copy = Uint8Array.prototype.slice.call(bytes);
    w.postMessage({ id, bytes: copy, width } satisfies LookRequest, [copy.buffer]);
  });
}

/** Stops the look worker (the looks it had are refused); the next look starts another. */
export async function stopLookWorker(): Promise<void> {
  const w = worker;
  if (w) await w.terminate();
}
