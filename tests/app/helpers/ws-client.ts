/** A small WebSocket client for tests and the benchmark: numbered requests, replies matched by id. */
import WebSocket from 'ws';

export interface TestClient {
  readonly ws: WebSocket;
  call(op: string, ...args: unknown[]): Promise<{ ok: boolean; value?: unknown; error?: string }>;
  raw(data: string | Buffer): void;
  /** The next message of any kind. */
  next(): Promise<Record<string, unknown>>;
  /** The next message that is not a push (a main screen is pushed the state whenever it changes). */
  nextReply(): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function connect(url: string, headers: Record<string, string> = {}): Promise<TestClient> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  const pending = new Map<number, (m: { ok: boolean; value?: unknown; error?: string }) => void>();
  let id = 0;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Record<string, unknown>;
    if (typeof m.id === 'number' && pending.has(m.id)) {
      pending.get(m.id)!(m as { ok: boolean });
      pending.delete(m.id);
      return;
    }
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () => new Promise<Record<string, unknown>>((r) => (queue.length ? r(queue.shift()!) : waiters.push(r)));
  return {
    ws,
    call: (op, ...args) =>
      new Promise((resolve) => {
        const n = ++id;
        pending.set(n, resolve);
        ws.send(JSON.stringify({ id: n, op, args }));
      }),
    raw: (d) => ws.send(d),
    next,
    nextReply: async () => {
      for (;;) {
        const m = await next();
        if (!('push' in m)) return m;
      }
    },
    closed,
    close: () => ws.close(),
  };
}
