/**
 * The frame intake's looks (frame-look.ts), on a thread of their own: a 1080p JPEG decoded at an
 * eighth of its size to a 160 px grey copy. sharp decodes on libuv's pool either way, but starting
 * each decode costs the calling thread about half a millisecond — at 30 frames a second, a slice of
 * every second the services' thread would otherwise not be answering the table.
 */
import { parentPort } from 'node:worker_threads';
import type { LookReply, LookRequest } from './frame-look.js';
import { greyCopy } from './grey-copy.js';

const port = parentPort;
if (!port) throw new Error('frame-look-worker: not started as a worker thread');

port.on('message', (m: LookRequest) => {
  greyCopy(m.bytes, m.width).then(
    (t) => port.postMessage({ id: m.id, ok: true, ...t } satisfies LookReply, [t.data.buffer as ArrayBuffer]),
    (e: unknown) => port.postMessage({ id: m.id, ok: false, why: (e as Error).message ?? String(e) } satisfies LookReply),
  );
});
