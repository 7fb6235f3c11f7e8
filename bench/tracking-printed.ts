/**
 * `npm run --silent bench:tracking:printed`: the tracker on printed tiles. Complete base + River +
 * Inns & Cathedrals games (the expansions the second-edition scans cover) are drawn from the scans
 * (tests/fixtures/realart: evaluation material) while the tracker's table profile names a drawn
 * style (c3), as at a real table. Two ways a table meets it: with the drawings only (its first
 * game: no picture of its tiles yet), and with one picture of every tile type from the final board
 * of another game (what the camera service keeps of a finished game). Seeds 9201–9203 were never
 * looked at while the tracker was tuned. Prints `name: value unit` lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCatalog } from '../engine/game/engine.js';
import { realFacesByTile } from '../models/eval/realart.js';
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';
import { replayRecording, type ReplayOptions } from '../models/track/replay.js';
import { LAID_TILE_NOTICE } from './tracking-game.js';

const GAMES = [9201, 9202];
const ENROLL_FROM = 9203;
const dir = mkdtempSync(join(tmpdir(), 'bench-printed-'));
const isTile = (c: { type: string } | null | undefined) => c?.type === 'placeTile' || c?.type === 'placePrizeTile';
try {
  const faces = await realFacesByTile(defaultCatalog().all().map((t) => t.id));
  const recordingOf = async (seed: number) => {
    const d = join(dir, String(seed));
    const g = await generateRecording({ seed, style: 'c3', faces, art: 'realart', expansions: ['base', 'river', 'inns-cathedrals'] });
    writeRecording(d, g.manifest, g.frames, g.record);
    return d;
  };
  const games = await Promise.all(GAMES.map(recordingOf));
  const pictures = (await replayRecording(await recordingOf(ENROLL_FROM))).tracker.boardPictures();
  const modes: [string, ReplayOptions][] = [
    ['drawn templates only', {}],
    [`one picture per tile type (${pictures.length} types, from another game)`, { pictures }],
  ];
  for (const [name, options] of modes) {
    let moves = 0, exact = 0, tiles = 0, tilesExact = 0, tilesWrong = 0, asked = 0, scores = 0, falseAlarms = 0;
    for (const d of games) {
      const r = await replayRecording(d, { ...options, onEvent: (e) => { if (e.kind === 'notice' && LAID_TILE_NOTICE.test(e.message)) falseAlarms++; } });
      moves += r.cameraMoves;
      exact += r.exact;
      for (const o of r.outcomes) {
        if (!isTile(o.truth)) continue;
        tiles++;
        if (o.result === 'exact') tilesExact++;
        if (o.result === 'wrong') tilesWrong++;
        if (o.result === 'unsure' || o.result === 'refused') asked++;
      }
      if (r.scores.every((s, i) => s === r.truthScores[i])) scores++;
    }
    const pct = (a: number, n: number) => ((100 * a) / Math.max(1, n)).toFixed(1);
    console.log(`printed art, ${name}: moves exact: ${pct(exact, moves)} % (${exact}/${moves})`);
    console.log(`printed art, ${name}: tiles committed wrong: ${pct(tilesWrong, tiles)} % (${tilesWrong}/${tiles})`);
    console.log(`printed art, ${name}: tiles left to the table: ${pct(asked, tiles)} % (${asked}/${tiles})`);
    console.log(`printed art, ${name}: final scores exact: ${scores}/${games.length} games`);
    console.log(`printed art, ${name}: laid tiles said to be lifted or turned (none is): ${falseAlarms}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
