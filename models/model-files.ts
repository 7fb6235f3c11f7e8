/**
 * Where a committed model file is. Run from the sources (tsx, the tests) it lies beside this module,
 * in models/. The built app's bundles (out/main/chunks/…) keep `import.meta.url` as the bundle's, so
 * a path beside the module names a file that is not there; the models are then found in a
 * `models/` folder up the tree from the bundle: the checkout's (`npm start`), or the packaged app's,
 * where electron-builder puts them unpacked beside the asar archive (onnxruntime reads the file
 * natively and cannot read inside the archive).
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export function modelFile(name: string, from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    for (const candidate of [join(dir, name), join(dir, 'models', name)]) {
      const unpacked = candidate.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);
      if (existsSync(unpacked)) return unpacked;
      if (existsSync(candidate)) return candidate;
    }
    // Not found anywhere up the tree: the path beside the module, which the loader's error names.
    if (dirname(dir) === dir) return join(dirname(from), name);
  }
}
