/**
 * `npm run --silent bench:tracking:printed`: the tracker on printed tiles. Complete base + River +
 * Inns & Cathedrals games (the expansions the second-edition scans cover) are drawn from the scans
 * (tests/fixtures/realart: evaluation material) while the tracker's table profile names a drawn
 * style (c3), as at a real table. Two ways a table meets it: with the drawings only (its first
 * game: no picture of its tiles yet), and with one picture of every tile type from the final board
 * of another game (what the camera service keeps of a finished game). Seeds 9201–9203 were never
 * looked at while the tracker was tuned. A third row draws a first game from the first-edition
 * scans (models/train/print/c1-jcz: art the model was trained on, the C1 tile counts: no gardens).
 * Prints `name: value unit` lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCatalog } from '../engine/game/engine.js';
import type { Edition } from '../engine/catalog/types.js';
import { realFacesByTile } from '../models/eval/realart.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';
import { replayRecording, type ReplayOptions } from '../models/track/replay.js';
import { LAID_TILE_NOTICE } from './tracking-game.js';

const GAMES = [9201, 9202];
const ENROLL_FROM = 9203;
const dir = mkdtempSync(join(tmpdir(), 'bench-printed-'));
const isTile = (c: { type: string } | null | undefined) => c?.type === 'placeTile' || c?.type === 'placePrizeTile';
try {
  const ids = defaultCatalog().all().map((t) => t.id);
  const faces = await realFacesByTile(ids);
  const firstEdition = await printFacesByTile(ids);
  const recordingOf = async (seed: number, print: { faces: typeof faces; art: string; edition?: Edition } = { faces, art: 'realart' }) => {
    const d = join(dir, `${print.art}-${seed}`);
    const g = await generateRecording({ seed, style: 'c3', faces: print.faces, art: print.art, expansions: ['base', 'river', 'inns-cathedrals'], ...(print.edition ? { edition: print.edition } : {}) });
    writeRecording(d, g.manifest, g.frames, g.record);
    return d;
  };
  const games = await Promise.all(GAMES.map((seed) => recordingOf(seed)));
  const c1Games = await Promise.all(GAMES.map((seed) => recordingOf(seed, { faces: firstEdition, art: 'c1-jcz', edition: 'C1' })));
  const pictures = (await replayRecording(await recordingOf(ENROLL_FROM))).tracker.boardPictures();
  const modes: [string, ReplayOptions, string[]][] = [
    ['printed art, first game', {}, games],
    [`printed art, one picture per type`, { pictures }, games],
    ['first-edition print, first game', {}, c1Games],
  ];
  console.log(`pictures from another game's final board: ${pictures.length} tile types`);
  for (const [name, options, games] of modes) {
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
    console.log(`${name}: moves exact: ${pct(exact, moves)} % (${exact}/${moves})`);
    console.log(`${name}: tiles committed wrong: ${pct(tilesWrong, tiles)} % (${tilesWrong}/${tiles})`);
    console.log(`${name}: tiles left to the table: ${pct(asked, tiles)} % (${asked}/${tiles})`);
    console.log(`${name}: final scores exact: ${scores}/${games.length} games`);
    console.log(`${name}: laid tiles said to be lifted or turned (none is): ${falseAlarms}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
