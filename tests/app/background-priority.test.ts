// The tracker's worker lowers its own thread's priority (electron/services/camera/background-priority.ts):
// on Linux that thread alone, not the services' thread beside it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../electron/services/camera/background-priority.ts', import.meta.url));
/** A thread's nice value from /proc (the fields after the command name's closing parenthesis). */
const niceOf = (tid: number | 'self') => Number(readFileSync(`/proc/${tid === 'self' ? 'thread-self' : `self/task/${tid}`}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

describe.runIf(process.platform === 'linux')('background priority', () => {
  it('a worker lowers its own thread to nice 10 and leaves the thread that started it as it was', async () => {
    const before = niceOf('self');
    const code = `
      const { parentPort } = require('node:worker_threads');
      // Listening keeps the thread alive until terminate(): its /proc entry is read after it answers.
      parentPort.on('message', () => {});
      import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(MODULE)}); })
        .then((m) => parentPort.postMessage(m.lowerThisThreadsPriority()), (e) => parentPort.postMessage('failed: ' + e.message));`;
    const w = new Worker(code, { eval: true });
    const said = await new Promise<string>((resolve) => w.once('message', resolve));
    const tid = Number(/^thread (\d+) at nice 10$/.exec(said)?.[1]);
    expect(said).toMatch(/^thread \d+ at nice 10$/);
    expect(niceOf(tid)).toBe(10);
    expect(niceOf('self')).toBe(before);
    await w.terminate();
  });
});
