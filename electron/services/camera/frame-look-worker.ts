/**
 * The frame intake's looks (frame-look.ts), on a thread of their own: a 1080p JPEG decoded at an
 * eighth of its size to a 160 px grey copy. sharp decodes on libuv's pool either way, but starting
 * each decode costs the calling thread about half a millisecond — at 30 frames a second, a slice of
 * every second the services' thread would otherwise not be answering the table.
 */
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import type { LookReply, LookRequest } from './frame-look.js';

const port = parentPort;
if (!port) throw new Error('frame-look-worker: not started as a worker thread');

port.on('message', (m: LookRequest) => {
  sharp(m.bytes, { failOn: 'truncated' })
    .resize(m.width)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(
      ({ data, info }) => {
        // A copy of exactly the grey bytes, its buffer moved to the services (not the pool's slab).
        const grey = new Uint8Array(data);
        port.postMessage({ id: m.id, ok: true, width: info.width, height: info.height, data: grey } satisfies LookReply, [grey.buffer]);
      },
      (e: unknown) => port.postMessage({ id: m.id, ok: false, why: (e as Error).message ?? String(e) } satisfies LookReply),
    );
});
