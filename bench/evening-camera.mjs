// The camera screen of bench/evening.ts, in its own thread: 1080p JPEG frames to browser mode's
// frame socket (the address in the hello's reply) as binary messages, as a screen's own camera sends them. Plain JavaScript (no loader in
// the worker). It keeps at most `ahead` frames beyond those the services have looked at (the bench
// compresses time; a real camera sends 30 a second) and, but while the table holds a question open,
// while more than `scenesAhead` still scenes wait for the tracker; at most `fps` frames a second when
// that is set (a camera's own pace: time not compressed); it reports where it is in the recording.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, token, cache, schedule, ahead, scenesAhead, fps } = workerData;
// The frames, made by bench/evening.ts: [{ bytes, moved, still }], JPEGs in base64.
const frames = JSON.parse(readFileSync(cache, 'utf8')).map((f) => ({ bytes: Buffer.from(f.bytes, 'base64'), moved: f.moved ? Buffer.from(f.moved, 'base64') : null, still: f.still }));
let looked = 0;
let scenes = 0;
let holding = false;
let wake = null;
const behind = () => sent - looked >= ahead || (!holding && scenes > scenesAhead);
parentPort.on('message', (m) => {
  looked = m.looked;
  scenes = m.scenes;
  holding = m.holding;
  if (wake && !behind()) {
    const w = wake;
    wake = null;
    w();
  }
});
let sent = 0;
const ws = new WebSocket(url.replace(/^http/, 'ws'));
await new Promise((resolve, reject) => {
  ws.once('open', resolve);
  ws.once('error', reject);
});
ws.send(JSON.stringify({ id: 1, op: 'hello', args: [token] }));
const hello = JSON.parse(String(await new Promise((r) => ws.once('message', r))));
// As the Camera screen does: the frames go to the frame socket the hello names (else on this socket).
let out = ws;
if (hello.value?.frames) {
  out = new WebSocket(hello.value.frames);
  await new Promise((resolve, reject) => {
    out.once('open', resolve);
    out.once('error', reject);
  });
  out.send(JSON.stringify({ token }));
  const r = JSON.parse(String(await new Promise((res) => out.once('message', res))));
  if (!r.ok) throw new Error(`the frame socket refused the camera: ${JSON.stringify(r)}`);
}
// schedule: per recording frame, how many camera frames show it.
const startedAt = performance.now();
for (let i = 0; i < frames.length; i++) {
  const f = frames[i];
  for (let k = 0; k < schedule[i]; k++) {
    if (behind()) await new Promise((r) => (wake = r));
    // At a camera's own pace when one is set: frame n no earlier than n / fps seconds in.
    if (fps > 0) {
      const due = startedAt + (sent * 1000) / fps - performance.now();
      if (due > 1) await new Promise((r) => setTimeout(r, due));
    }
    // A hand moves: two pictures of it alternate, so no two frames in a row are alike.
    const bytes = f.still || k % 2 === 0 ? f.bytes : f.moved;
    await new Promise((r) => out.send(bytes, { binary: true }, r));
    sent++;
    if (sent % 30 === 0) parentPort.postMessage({ sent, recording: i });
  }
}
parentPort.postMessage({ sent, recording: frames.length, done: true });
if (out !== ws) out.close();
ws.close();
