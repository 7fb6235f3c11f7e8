/**
 * Closing the tracker's worker while it reads with the model. onnxruntime-node runs an inference on a
 * native thread; a worker thread ended under it aborts the whole process when the inference completes
 * ("terminate called after throwing an instance of 'Napi::Error'": the app's main process, or here the
 * test runner). A client closed with requests unanswered lets its worker answer them first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecord } from '../../engine/record/schema.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import { TrackerClient } from '../../electron/services/camera/tracker-client.js';

// A first-edition printed game at 1280×960: the model reads every new tile (and its figures).
const DIR = join(import.meta.dirname, '../fixtures/recordings/printed-c1-s7402');
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { source: { style: string; markers: never } };
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];

describe('closing the tracker while the model reads', () => {
  it('lets the worker finish its reads before it is ended: the process lives on, the reads are refused to the closed client', async () => {
    for (let round = 0; round < 2; round++) {
      const { client } = await TrackerClient.start(round, { setup: setupFromRecord(parsed.record), style: manifest.source.style, markers: manifest.source.markers, commitAt: 0.9, crops: [], pictures: [] });
      // At the first frame the model reads back to back for a second (as on a board of new tiles): the client closes meanwhile.
      await client.faults({ modelBusyAtFrame: 0, modelBusyMs: 1000 });
      const reads = frames.slice(0, 3).map((f, i) => client.feed(f.slice(), i).then(() => 'read', (e: Error) => e.message));
      await new Promise((r) => setTimeout(r, 300));
      expect(client.busy, 'reads unanswered when the client closes').toBe(3);
      const t0 = Date.now();
      await client.close();
      // It waited for the worker to answer (the model's second, then the three frames), not ended it at once.
      expect(Date.now() - t0).toBeGreaterThan(500);
      expect(await Promise.all(reads)).toEqual(Array(3).fill("the tracker's worker was closed"));
    }
    // An inference left running in an ended worker aborts the process once it completes: still here a while later.
    await new Promise((r) => setTimeout(r, 2000));
  }, 180_000);
});
