/** A lock shared by threads and processes on one machine (the test workers building the renderer once). */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** A lock across threads and processes: a directory made (atomically) by its holder; one left by a holder that died goes after `staleMs`. */
export async function lock(dir: string, staleMs = 300_000): Promise<() => void> {
  mkdirSync(dirname(dir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    try {
      if (Date.now() - statSync(dir).mtimeMs > staleMs) rmSync(dir, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
