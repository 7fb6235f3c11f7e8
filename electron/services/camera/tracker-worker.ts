/**
 * The tracker's worker thread (worker_threads): requests from the camera service in, one reply per
 * request out, answered one at a time in order (tracker-protocol.ts). Started by tracker-client.ts:
 * built, as out/main/tracker-worker.js (electron.vite.config.ts); from the sources (tests, benches,
 * `tsx`), through tracker-worker-tsx.mjs, which teaches the worker TypeScript first.
 */
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadsPriority } from './background-priority.js';
import { TrackerHost } from './tracker-host.js';
import { logMemory } from './memory-log.js';
import { loadedCv } from '../../../calibration/cv.js';
import type { ReplyMessage, RequestMessage } from './tracker-protocol.js';

const port = parentPort;
if (!port) throw new Error('tracker-worker: not started as a worker thread');
// Before the tracker starts its threads (they inherit it): reading yields to the services' thread.
lowerThisThreadsPriority();
const host = new TrackerHost();
logMemory('tracker worker', (): Record<string, number> => {
  const cv = loadedCv();
  return cv?.HEAP8 ? { 'OpenCV wasm': cv.HEAP8.buffer.byteLength as number } : {};
});
let chain: Promise<void> = Promise.resolve();

port.on('message', (m: RequestMessage) => {
  // One at a time: a request never lands in the middle of another's await.
  chain = chain.then(async () => {
    let reply: ReplyMessage;
    try {
      const value = await host.handle(m);
      reply = { id: m.id, ok: true, value, state: host.state() };
    } catch (e) {
      reply = { id: m.id, ok: false, error: (e as Error).message ?? String(e), state: null };
    }
    port.postMessage(reply);
  });
});
