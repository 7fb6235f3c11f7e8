/**
 * Where the committed models are found (models/model-files.ts): beside the module from the sources,
 * up the tree from a bundle in out/main/chunks, unpacked beside a packaged app's asar archive.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelFile } from '../../models/model-files.js';
import { DEFAULT_OUTLINE_MODEL } from '../../models/photo/outline-net.js';
import { DEFAULT_MODEL } from '../../models/runner.js';

function tree(files: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'model-files-'));
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), 'x');
  }
  return root;
}

describe('model files', () => {
  it('from the sources: the committed models beside their modules', () => {
    expect(existsSync(DEFAULT_MODEL)).toBe(true);
    expect(existsSync(DEFAULT_OUTLINE_MODEL)).toBe(true);
    expect(DEFAULT_MODEL.endsWith(join('models', 'tiles-v1.onnx'))).toBe(true);
  });

  it('from a bundle in out/main/chunks: the checkout\'s models/ folder up the tree', () => {
    const root = tree(['models/tiles-v1.onnx', 'out/main/chunks/runner.js']);
    expect(modelFile('tiles-v1.onnx', join(root, 'out/main/chunks/runner.js'))).toBe(join(root, 'models/tiles-v1.onnx'));
  });

  it('from a packaged app: the copy unpacked beside the asar archive, which onnxruntime can read', () => {
    const root = tree(['resources/app.asar/models/outline-v1.onnx', 'resources/app.asar.unpacked/models/outline-v1.onnx', 'resources/app.asar/out/main/chunks/read.js']);
    expect(modelFile('outline-v1.onnx', join(root, 'resources/app.asar/out/main/chunks/read.js'))).toBe(join(root, 'resources/app.asar.unpacked/models/outline-v1.onnx'));
  });

  it('nowhere: the path beside the module, for the loader to name in its error', () => {
    const root = tree(['out/main/chunks/runner.js']);
    expect(modelFile('missing-model.onnx', join(root, 'out/main/chunks/runner.js'))).toBe(join(root, 'out/main/chunks/missing-model.onnx'));
  });
});
