/**
 * Issue 28's fuzz suite: random HTTP request lines and headers, random WebSocket messages (JSON of
 * the wrong shapes, invalid UTF-8, binary up to the size limit, random operations and arguments) and
 * random records for import, against browser mode in a child process. After every case the server
 * must still answer a normal client; the test fails if the process exits or logs a stray error
 * (an unhandled rejection or uncaught exception reaching the last resort). Bounded: well under a minute.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../electron/contract/api.js';
import { connect, type TestClient } from './helpers/ws-client.js';
import { rawHttp } from './helpers/raw-http.js';
import { ORACLE } from './helpers/records.js';

const TARGET = join(import.meta.dirname, 'helpers/fuzz-target.ts');
const SEED = 28;

let child: ChildProcess;
let url = '';
let token = '';
let port = 0;
let stderr = '';
let exited: string | null = null;

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', TARGET], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (d) => (stderr += d));
  child.on('exit', (code, signal) => (exited = `exited ${code ?? signal}`));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^ready (\S+) (\S+) (\S+)$/m.exec(out);
      if (m) {
        [url, token] = [m[1]!, m[2]!];
        port = Number(new URL(url).port);
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`the fuzz target did not start: ${stderr}`)));
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
});

/** The process is alive, nothing stray was logged, and a normal client is answered over HTTP and the socket. */
async function stillServing(): Promise<void> {
  expect(exited).toBeNull();
  expect(stderr).not.toMatch(/STRAY/);
  expect((await fetch(url)).status).toBe(200);
  const c = await connect(url);
  expect((await c.call('hello', token)).ok).toBe(true);
  expect((await c.call('snapshot')).ok).toBe(true);
  c.close();
}

const escapes = fc.oneof(
  fc.constantFrom('%', '%E0%A4%A', '%c0%af', '%00', '%zz', '%%', '%2e%2e%2f', '..', '//', '\\', '?', '#', '[', 'http://[', '*'),
  fc.string({ unit: 'binary-ascii', maxLength: 4 }).map(encodeURIComponent),
  fc.string({ maxLength: 6 }),
);
const target = fc.oneof(
  fc.array(escapes, { maxLength: 8 }).map((parts) => `/${parts.join('')}`),
  fc.constantFrom('http://[', '*', 'http://x/%', '/%', 'ftp://a', ''),
);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'OPTIONS', 'DELETE', 'BREW', 'G\u00e9T');
const header = fc.tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }), fc.oneof(fc.string({ maxLength: 40 }), fc.integer({ min: 0, max: 40_000 }).map((n) => 'x'.repeat(n))));

describe('fuzzing browser mode', () => {
  it('random HTTP request lines, paths and headers', async () => {
    await fc.assert(
      fc.asyncProperty(method, target, fc.array(header, { maxLength: 3 }), fc.boolean(), async (m, t, hs, upgrade) => {
        const lines = [`${m} ${t} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...hs.map(([k, v]) => `${k}: ${v}`), ...(upgrade ? ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: x'] : ['Connection: close'])];
        const answer = await rawHttp(port, Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), 2000);
        // An answer is a status line or a closed connection; never a server gone.
        if (answer) expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(exited).toBeNull();
      }),
      { numRuns: 150, seed: SEED },
    );
    await stillServing();
  }, 60_000);

  it('random WebSocket messages: wrong shapes, invalid UTF-8, binary up to the limit, random operations', async () => {
    const anyArgs = fc.array(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 50 })), { maxLength: 5 });
    const message = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => ({ text: JSON.stringify(v) })),
      fc.record({ id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), op: fc.constantFrom(...OPERATION_NAMES, 'hello', 'pair', '__proto__', 'constructor'), args: anyArgs }).map((v) => ({ text: JSON.stringify(v) })),
      fc.uint8Array({ maxLength: 64 }).map((b) => ({ invalidText: Buffer.concat([Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(b)]) })),
      fc.integer({ min: 0, max: 12 * 1024 * 1024 + 16 }).map((n) => ({ binary: n })),
    );
    let bigBinaries = 0;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(message, { minLength: 1, maxLength: 6 }), async (asMain, messages) => {
        const c: TestClient = await connect(url);
        if (asMain) await c.call('hello', token);
        for (const m of messages) {
          if (c.ws.readyState !== WebSocket.OPEN) break;
          if ('text' in m) c.raw(m.text);
          else if ('invalidText' in m) c.ws.send(m.invalidText, { binary: false });
          else {
            // Large binaries are few (memory and time), the boundaries always among them.
            const n = m.binary > 65_536 && bigBinaries++ > 2 ? m.binary % 65_536 : m.binary;
            c.ws.send(Buffer.alloc(n, 0xff), { binary: true });
          }
        }
        c.close();
        await c.closed;
        expect(exited).toBeNull();
      }),
      { numRuns: 80, seed: SEED, examples: [[true, [{ binary: 12 * 1024 * 1024 }]], [true, [{ binary: 12 * 1024 * 1024 + 1 }]], [false, [{ binary: 0 }]]] },
    );
    await stillServing();
  }, 90_000);

  it('random records for import', async () => {
    const base = JSON.parse(readFileSync(join(ORACLE, 'g001-base-2p.json'), 'utf8')) as Record<string, unknown> & { turns: unknown[] };
    const players = fc.array(fc.record({ name: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('Ada')), color: fc.oneof(fc.constantFrom('red', 'blue', 'cyan', 'red;position:fixed'), fc.string({ maxLength: 12 })) }), { maxLength: 8 });
    const record = fc.oneof(
      fc.record({ players, cut: fc.nat({ max: base.turns.length }) }).map(({ players, cut }) => JSON.stringify({ ...base, players, turns: base.turns.slice(0, cut) })),
      fc.record({ key: fc.constantFrom('format', 'expansions', 'rules', 'tileSet', 'start', 'options', 'turns', 'expect'), value: fc.jsonValue({ maxDepth: 3 }) }).map(({ key, value }) => JSON.stringify({ ...base, [key]: value })),
      fc.string({ maxLength: 200 }),
    );
    const c = await connect(url);
    await c.call('hello', token);
    await fc.assert(
      fc.asyncProperty(record, async (text) => {
        const r = await c.call('importRecord', text);
        if (!r.ok) expect(typeof r.error).toBe('string');
        expect(exited).toBeNull();
      }),
      { numRuns: 60, seed: SEED },
    );
    c.close();
    await stillServing();
  }, 60_000);
});
