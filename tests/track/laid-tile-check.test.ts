import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecording } from '../../models/scene/generate.js';
import { writeRecording } from '../../models/scene/recording.js';
import { replayRecording } from '../../models/track/replay.js';
import type { Command } from '../../engine/game/commands.js';

const dir = mkdtempSync(join(tmpdir(), 'laid-tile-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the laid-tile check in a game where no tile is lifted or turned', () => {
  // Tuning game 7101 (style c3, its first 40 turns): a tower floor goes onto TOWER_CccCp at (-6, 0)
  // before the table enters it. The floor hides part of the tile and its drawing fits the cell
  // worse than the picture of the empty cell did: with the drawing as the only measure of the tile,
  // the tracker said "the tile TOWER_CccCp at (-6, 0) seems lifted" at frame 125.
  it('says nothing of lifted or turned tiles, a tower floor not yet entered included', async () => {
    const g = await generateRecording({ seed: 7101, style: 'c3', maxTurns: 40 });
    writeRecording(dir, g.manifest, g.frames, g.record);
    const truth = g.manifest.commands as unknown as Command[];
    const floor = truth.find((c) => c.type === 'placeTowerFloor' && c.at[0] === -6 && c.at[1] === 0);
    expect(floor, 'the game floors the tower at (-6, 0)').toBeDefined();
    const notes: string[] = [];
    const r = await replayRecording(dir, { onEvent: (e) => { if (e.kind === 'notice' && /seems (lifted|turned)/.test(e.message)) notes.push(`frame ${e.frame}: ${e.message}`); } });
    expect(notes).toEqual([]);
    expect(r.scores).toEqual(r.truthScores);
  }, 120_000);
});
