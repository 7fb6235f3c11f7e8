// The table's screens of bench/evening.ts, in a thread of their own: the main screen (its token) and
// a paired second screen, each a WebSocket to browser mode as a page holds one. A screen is another
// process or another device: parsing the services' replies and their pushed snapshots is not the
// services' thread's work, and a push is shown and dropped, not kept. The second screen asks for a
// snapshot every 50 ms; both send what the bench's table decides (`{ id, op, args, as }`), and every
// round trip is timed here, where the screen waits for it, and reported with when it started and ended.
// Plain JavaScript (no loader in the worker).
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, token, code } = workerData;

async function connect() {
  const ws = new WebSocket(url.replace(/^http/, 'ws'));
  const pending = new Map();
  let id = 0;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    // A reply; anything else is a push, which a screen draws and forgets.
    if (typeof m.id === 'number' && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const call = (op, args) =>
    new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      ws.send(JSON.stringify({ id: n, op, args }));
    });
  return { ws, call };
}

const now = () => performance.timeOrigin + performance.now();
const main = await connect();
const hello = await main.call('hello', [token]);
if (!hello.ok) throw new Error(`hello refused: ${hello.error}`);
const screen = await connect();
const paired = await screen.call('pair', [code]);
if (!paired.ok) throw new Error(`pairing refused: ${paired.error}`);

let evening = true;
parentPort.on('message', async (m) => {
  if (m.stop) {
    evening = false;
    return;
  }
  const t0 = now();
  const r = await (m.as === 'main' ? main : screen).call(m.op, m.args);
  parentPort.postMessage({ id: m.id, reply: { ok: r.ok, error: r.error }, t0, t1: now() });
});
parentPort.postMessage({ ready: true });
while (evening) {
  const t0 = now();
  await screen.call('snapshot', []);
  parentPort.postMessage({ ping: true, t0, t1: now() });
  await new Promise((r) => setTimeout(r, 50));
}
main.ws.close();
screen.ws.close();
parentPort.postMessage({ done: true });
