import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { RecordingSource, type FrameSource } from '../../models/scene/recording.js';
import { replayRecording } from '../../models/track/replay.js';

const DIR = 'tests/fixtures/recordings/demo-tower-jc';
/** The visit laying BASE_E at (5, 0) ends at recording frame 104; TOWER_C, its look-alike in this print, was answered at frame 89. */
const UNTIL = 106;

/**
 * The recording's frames at 1080p, as bench:evening sends them (the 4:3 picture scaled to the
 * height, its edges carried out): at this size the model reads the cells (30–64 px a tile).
 */
async function at1080p(): Promise<FrameSource> {
  const opened = RecordingSource.open(DIR);
  if (!opened.ok) throw new Error(opened.error);
  const { source } = opened.value;
  const frames: { index: number; bytes: Uint8Array }[] = [];
  for (let f = await source.next(); f && f.index <= UNTIL; f = await source.next()) {
    const raw = await sharp(f.bytes).resize(1440, 1080).extend({ left: 240, right: 240, extendWith: 'copy' }).raw().toBuffer({ resolveWithObject: true });
    frames.push({ index: f.index, bytes: new Uint8Array(await sharp(raw.data, { raw: raw.info }).jpeg({ quality: 85 }).toBuffer()) });
  }
  source.close();
  let i = 0;
  return { width: 1920, height: 1080, fps: source.fps, next: async () => (i < frames.length ? frames[i++]! : null), close: () => {} };
}

describe('a tile type the table enrolled from its answers', () => {
  it('does not outvote the reading of a look-alike the table has not shown the camera', async () => {
    // As the app's table does: the tiles it picks from the camera's top 3 are enrolled as exemplars.
    const r = await replayRecording(DIR, { source: await at1080p(), drawsTold: false, learnAnswers: 2 });
    expect(r.learned.map((l) => l.tileId)).toContain('TOWER_C');
    const towerC = r.learned.find((l) => l.tileId === 'TOWER_C')!;
    const baseE = r.outcomes.find((o) => o.truth?.type === 'placeTile' && o.truth.tile === 'BASE_E' && o.truth.at[0] === 5 && o.truth.at[1] === 0);
    expect(baseE).toBeDefined();
    // Enrolled before BASE_E was read; the model with TOWER_C's exemplars read BASE_E as TOWER_C at
    // 1.000 and vetoed the templates' clear reading, leaving the tile to the table at 0 %.
    expect(towerC.frame).toBeLessThan(baseE!.frame!);
    expect(baseE!.result).toBe('exact');
  }, 120_000);
});
