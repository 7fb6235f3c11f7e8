import { mkdirSync, mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lock } from '../../scripts/dir-lock.js';

describe('a lock across the test workers (the renderer built once)', () => {
  it('a second holder waits until the first releases it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lock-')), 'sub/x.lock');
    const order: string[] = [];
    const release1 = await lock(dir);
    const second = lock(dir).then((release) => {
      order.push('second in');
      release();
    });
    await new Promise((r) => setTimeout(r, 500));
    order.push('first out');
    release1();
    await second;
    expect(order).toEqual(['first out', 'second in']);
  });

  it('a lock left by a holder that died goes once it is stale', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lock-')), 'x.lock');
    mkdirSync(dir);
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(dir, old, old);
    const release = await lock(dir, 5_000);
    release();
  });
});
