/**
 * The main screen's camera frames on a socket of their own, on a thread of their own (frame-socket.ts
 * starts it). A 1080p JPEG 30 times a second was the largest allocation on the services' thread, and
 * collecting it the longest pause a table's command waited behind. Here each frame is received,
 * checked (its size, from its header), looked at (the grey copy the frame intake compares) and held;
 * the services get the grey copy, and the bytes only of the frames they keep — a few per still scene.
 *
 * A connection must first send `{"token": …}` (the main screen's token) and come from this machine,
 * from the main screen's page; then each binary message is one frame. A frame refused, or not looked
 * at because the services are behind, is answered on the socket with why, as on the main socket.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { MAX_FRAME_BYTES } from '../../contract/camera.js';
import { isLoopback, sameSecret } from '../../server/net.js';
import { frameSizeProblem, jpegSize, pngSize } from './frame-size.js';
import type { FrameLook, FrameSocketOptions, FromFrameSocket, ToFrameSocket } from './frame-socket-protocol.js';
import { greyCopy } from './grey-copy.js';
import { logMemory } from './memory-log.js';

const port = parentPort;
if (!port) throw new Error('frame-socket-worker: not started as a worker thread');
const o = workerData as FrameSocketOptions;
/** Frames decoded at once (libuv's pool has four threads; the tracker's worker needs its share). */
const DECODING = 3;
const CLOSE_UNKNOWN_TOKEN = 4001;
/** Frames held beyond those waiting to be looked at: the services' last few (motion, the start piece's pictures). */
const HELD_BEYOND_BACKLOG = 64;

const post = (m: FromFrameSocket, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/** Frames held for the services, by number, from the oldest they may still ask for. */
const held = new Map<number, Uint8Array>();
let next = 0;
let waiting = 0;
let decoding = 0;
const toDecode: (() => void)[] = [];
let chain: Promise<void> = Promise.resolve();
logMemory('frame socket worker', () => ({ 'frames held': [...held.values()].reduce((n, b) => n + b.byteLength, 0) }));

function look(bytes: Uint8Array): Promise<FrameLook> {
  return new Promise((resolve) => {
    const start = () => {
      decoding++;
      greyCopy(bytes, o.thumbWidth)
        .then(
          (thumb) => resolve({ ok: true, thumb }),
          (e: unknown) => resolve({ ok: false, why: (e as Error).message ?? String(e) }),
        )
        .finally(() => {
          decoding--;
          toDecode.shift()?.();
        });
    };
    if (decoding < DECODING) start();
    else toDecode.push(start);
  });
}

/** The screen is told why a frame was refused, as the main socket tells it. */
function tell(ws: WebSocket | null, seq: number, why: string): void {
  if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: null, ok: false, error: `binary message (a camera frame) refused: frame ${seq} on the frame socket: ${why}` }));
}

function frame(ws: WebSocket, data: RawData): void {
  const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const seq = next++;
  const refuse = (why: string, skipped: boolean) => {
    post({ kind: 'refused', seq, why, skipped });
    tell(ws, seq, why);
  };
  const problem = frameSizeProblem(bytes);
  if (problem) return refuse(problem, false);
  if (waiting >= o.maxBacklog) return refuse(`${o.maxBacklog} frames were waiting to be looked at (the services are behind the camera)`, true);
  held.set(seq, bytes);
  // Bounded whatever the services do: they release as they look, and never need one this old.
  if (held.size > o.maxBacklog + HELD_BEYOND_BACKLOG) held.delete(held.keys().next().value!);
  waiting++;
  const size = (jpegSize(bytes) ?? pngSize(bytes))!;
  const looked = look(bytes);
  // Told in the order the frames came, whichever decode ends first.
  chain = chain.then(async () => {
    const l = await looked;
    waiting--;
    post({ kind: 'frame', seq, size, look: l }, l.ok ? [l.thumb.data.buffer as ArrayBuffer] : []);
  });
}

port.on('message', (m: ToFrameSocket) => {
  if (m.op === 'release') {
    for (const seq of held.keys()) if (seq < m.below) held.delete(seq);
    return;
  }
  if (m.op === 'refuse') return tell(current, m.seq, m.why);
  // Copies: a frame kept is asked for once, and may be asked for again (the start piece's pictures).
  post({ kind: 'bytes', id: m.id, frames: m.seqs.map((s) => held.get(s) ?? null) });
});

const http = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES + 1 });
wss.on('error', () => undefined);
let current: WebSocket | null = null;
http.on('upgrade', (req, socket, head) => {
  socket.on('error', () => socket.destroy());
  const origin = req.headers.origin;
  if (!isLoopback(req.socket.remoteAddress) || (origin !== undefined && !o.origins.includes(origin))) {
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nonly the main screen sends camera frames\n');
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    let known = false;
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      if (known && isBinary) return frame(ws, data);
      if (known) return;
      let token = '';
      try {
        const m = JSON.parse(data.toString()) as { token?: unknown };
        if (typeof m.token === 'string') token = m.token;
      } catch {
        // (not JSON: no token)
      }
      if (isBinary || !sameSecret(token, o.token)) {
        ws.close(CLOSE_UNKNOWN_TOKEN, 'send the main screen’s token first');
        return;
      }
      known = true;
      // One camera: a screen that connects again (reloaded) replaces the one before.
      if (current && current !== ws) current.close(1000, 'another connection took the camera');
      current = ws;
      ws.send(JSON.stringify({ id: null, ok: true, value: 'frames' }));
    });
  });
});
http.listen(0, '127.0.0.1', () => post({ kind: 'listening', port: (http.address() as AddressInfo).port }));
