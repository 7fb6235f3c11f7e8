/**
 * `npm run --silent bench:tracking:printed`: the tracker on printed tiles. Complete base + River +
 * Inns & Cathedrals games (the expansions the second-edition scans cover) are drawn from the scans
 * (tests/fixtures/realart: evaluation material) while the tracker's table profile names a drawn
 * style (c3), as at a real table. Two ways a table meets it: with the drawings only (its first
 * game: no picture of its tiles yet), and with one picture of every tile type from the final board
 * of another game (what the camera service keeps of a finished game: the templates and the model's
 * exemplars of the next). Seeds 9201–9203 were never
 * looked at while the tracker was tuned. A third row draws a first game from the first-edition
 * scans (models/train/print/c1-jcz: art the model was trained on, the C1 tile counts: no gardens).
 * A fourth row gives the tracker pictures taught before the first game: the types laid out once
 * in teach frames and read as a teach session (`taughtPictures`, docs/teach.md); a fifth does the
 * same on the first-edition scans (training material: the row to tune the teach's pictures on).
 * The first games are played again at 1280×960 (a webcam's 720p–1080p gives the tiles 45–60 px),
 * where the tracker asks the model (from 30 px per cell). The four first games are played once more
 * as the app plays them (`answers learnt`): each tile the table picks from the camera's three is
 * enrolled as the model's exemplar (table-art.ts `LEARN_PER_TILE`). `--only TEXT` runs the rows
 * whose name holds TEXT. Prints `name: value unit` lines, among them each row's `new tile` latency
 * and that of the frame after it (medians over its games).
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
import { replayRecording, wrongFigureCommit, type ReplayOptions } from '../models/track/replay.js';
import { LAID_TILE_NOTICE } from './tracking-game.js';
import { Game } from '../engine/game/game.js';
import { ROTATIONS } from '../engine/geometry/segments.js';
import { movesShowingEdges } from '../models/track/edges-alone.js';
import { LEARN_PER_TILE } from '../electron/services/camera/table-art.js';
import { median } from './stats.js';

import { TileRecognizer } from '../models/runner.js';
import { readTeachFrame } from '../models/teach/read.js';
import { makeTeachScene } from '../models/teach/scene.js';
import { TeachSession } from '../models/teach/session.js';
import { matchCorners } from '../models/photo/synthetic.js';
import { centreOf } from '../models/photo/outline.js';
import { photoCandidates, SHOWN_PX } from '../models/photo/read.js';
import { boxCounts } from '../models/teach/counts.js';
import { rng } from '../engine/sim/rng.js';
import { sameUpToSymmetry } from '../models/classes.js';
import type { TilePicture } from '../models/track/templates.js';
import type { Rgba } from '../models/synth/image.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
/** `--teach-seed N`: the taught rows' teach laid out from another seed (how much a row owes to one layout). */
const teachSeedArg = arg('--teach-seed');
const teachSeed = teachSeedArg === undefined ? null : Number(teachSeedArg);

/**
 * The base, River and Inns & Cathedrals box laid out once, every copy the edition prints, in the
 * box's (seeded) order, 14 to a frame (docs/teach.md), read as the app reads a teach: one session
 * for the whole teach, with the box's counts of the edition's expansions (teach-service.ts). After
 * each frame the table accepts all sure cards unseen (one read wrong is taught wrong: its picture
 * becomes another type's, or the right type's at a wrong turn), answers every other card with the
 * true tile (what its corrections come to), and discards a card whose outline is more than 2 mm
 * off; a type left without a taught card is laid again, one copy, in a later frame (a retake), up
 * to two more rounds. A type's first taught card's picture is its picture for the tracker, as a
 * board picture is; every taught copy is enrolled as the model's exemplar, as the app does.
 */
async function taughtPictures(faces: Map<string, Rgba>, edition: Edition, seed0: number): Promise<{ pictures: TilePicture[]; exemplars: TilePicture[]; frames: number; corrected: number; wrong: number }> {
  const recognizer = await TileRecognizer.load();
  const expansions = ['base', 'river', 'inns-cathedrals'] as const;
  const candidates = photoCandidates(edition, [...expansions]);
  const types = candidates.map((t) => t.id).filter((id) => faces.has(id));
  const catalog = defaultCatalog();
  const counts = boxCounts(candidates, edition);
  const session = new TeachSession(counts);
  const pictures = new Map<string, TilePicture>();
  const judged = new Set<number>();
  let frames = 0, corrected = 0, wrong = 0;
  const cardErr = new Map<number, number>();
  const r = rng(seed0);
  const box = types.flatMap((id) => Array<string>(counts.get(id) ?? 1).fill(id)).sort(() => r() - 0.5);
  for (let round = 0; round < 3; round++) {
    const left = round === 0 ? box : types.filter((id) => !pictures.has(id));
    for (let f = 0; f * 14 < left.length; f++) {
      const ids = left.slice(f * 14, (f + 1) * 14);
      const scene = await makeTeachScene({ seed: seed0 + round * 100 + f, tableSeed: seed0, tiles: ids.map((id) => ({ face: faces.get(id)!, label: id })), touching: 0.3 });
      frames++;
      const read = await readTeachFrame(recognizer, scene.bytes, { edition, expansions: [...expansions], sides: session.sides });
      if (!read.ok) continue;
      const { added, moved } = session.addFrame(read.value);
      const fresh = new Set([...added, ...moved]);
      // The tile under a card: the one whose centre is nearest the card's, within half a side.
      const tileUnder = (corners: typeof scene.tiles[number]['corners']) => {
        const c = centreOf(corners);
        let best: { t: typeof scene.tiles[number]; d: number } | null = null;
        for (const t of scene.tiles) {
          const d = Math.hypot(centreOf(t.corners).x - c.x, centreOf(t.corners).y - c.y);
          if (d <= t.sidePx / 2 && (!best || d < best.d)) best = { t, d };
        }
        return best?.t ?? null;
      };
      // How far each fresh card is off its nearest tile (the breakdown's pictures), in mm.
      for (const c of session.cards) {
        if (!process.env.BENCH_BREAKDOWN || !fresh.has(c.id)) continue;
        const errs = scene.tiles.map((t) => matchCorners(c.corners, t.corners).error * 45);
        cardErr.set(c.id, Math.min(...errs));
      }
      for (const id of session.acceptAllSure()) {
        const c = session.get(id);
        if (judged.has(id) || !fresh.has(id)) continue;
        judged.add(id);
        // Accepted unseen: taught wrongly when its tile is another type, or the right type at a wrong turn.
        const t = tileUnder(c.corners);
        const q = t ? (4 - matchCorners(c.corners, t.corners).shift) % 4 : 0;
        if (!t || c.tileId !== t.label || !sameUpToSymmetry(catalog.get(t.label)!, c.rotation! / 90, q)) wrong++;
      }
      for (const c of session.cards) {
        if (c.state !== 'open' || c.why || !c.cropRgb || !fresh.has(c.id)) continue;
        const truth = scene.tiles.find((t) => matchCorners(c.corners, t.corners).error * 45 <= 2);
        // An outline off by more than 2 mm: the table discards the card and lays the tile again.
        if (!truth) { session.discard(c.id); continue; }
        const q = (((4 - matchCorners(c.corners, truth.corners).shift) % 4) * 90) as 0 | 90 | 180 | 270;
        session.correct(c.id, truth.label, q);
        corrected++;
      }
      for (const t of session.taught()) {
        // Its part left out where the type's other copies say something lay over it (covered.ts), as the app stores it.
        if (!pictures.has(t.tileId)) pictures.set(t.tileId, { tileId: t.tileId, rot: t.rotation, width: SHOWN_PX, height: SHOWN_PX, data: t.cropRgb, ...(t.alpha ? { alpha: t.alpha } : {}) });
      }
    }
  }
  if (process.env.BENCH_BREAKDOWN) {
    const firsts = new Map<string, number>();
    for (const t of session.taught()) if (!firsts.has(t.tileId)) firsts.set(t.tileId, t.cardId);
    const e = [...firsts.entries()].map(([id, c]) => ({ id, e: cardErr.get(c) ?? NaN })).sort((a, b) => b.e - a.e);
    console.error(`  each type's picture: its card's outline off by (mm): ${e.map((x) => `${x.id} ${x.e.toFixed(1)}`).join(', ')}`);
    console.error(`  untaught: ${types.filter((id) => !pictures.has(id)).join(' ') || 'none'}`);
  }
  // Every taught copy is also the model's exemplar, as the app enrols them (enrolled.ts).
  const exemplars = session.taught().map((t) => ({ tileId: t.tileId, rot: t.rotation, width: SHOWN_PX, height: SHOWN_PX, data: t.cropRgb }));
  return { pictures: [...pictures.values()], exemplars, frames, corrected, wrong };
}

const GAMES = [9201, 9202];
const ENROLL_FROM = 9203;
const dir = mkdtempSync(join(tmpdir(), 'bench-printed-'));
const isTile = (c: { type: string } | null | undefined) => c?.type === 'placeTile' || c?.type === 'placePrizeTile';
try {
  const ids = defaultCatalog().all().map((t) => t.id);
  const faces = await realFacesByTile(ids);
  const firstEdition = await printFacesByTile(ids);
  const made = new Map<string, Promise<string>>();
  const recordingOf = (seed: number, print: { faces: typeof faces; art: string; edition?: Edition; large?: boolean } = { faces, art: 'realart' }) => {
    const d = join(dir, `${print.art}-${seed}${print.large ? '-large' : ''}`);
    // Rows share their games: each recording is made once.
    if (!made.has(d)) made.set(d, makeRecording(d, seed, print));
    return made.get(d)!;
  };
  const makeRecording = async (d: string, seed: number, print: { faces: typeof faces; art: string; edition?: Edition; large?: boolean }) => {
    const size = print.large ? { width: 1280, height: 960 } : {};
    const g = await generateRecording({ seed, style: 'c3', faces: print.faces, art: print.art, expansions: ['base', 'river', 'inns-cathedrals'], ...(print.edition ? { edition: print.edition } : {}), ...size });
    writeRecording(d, g.manifest, g.frames, g.record);
    return d;
  };
  const only = arg('--only') ?? '';
  const c1 = { faces: firstEdition, art: 'c1-jcz', edition: 'C1' as const };
  // As the app plays a first game: each tile the table picks from the camera's three is enrolled as the model's exemplar (table-art.ts).
  const answersLearnt: ReplayOptions = { learnAnswers: LEARN_PER_TILE };
  const rows: [string, () => Promise<[ReplayOptions, string[]]>][] = [
    ['printed art, first game', async () => [{}, await Promise.all(GAMES.map((seed) => recordingOf(seed)))]],
    ['printed art, one picture per type', async () => {
      const pictures = (await replayRecording(await recordingOf(ENROLL_FROM))).tracker.boardPictures();
      console.log(`pictures from another game's final board: ${pictures.length} tile types`);
      // As the app keeps them (table-art.ts, camera-service.ts): the next game's templates and the model's exemplars.
      return [{ pictures, exemplars: pictures }, await Promise.all(GAMES.map((seed) => recordingOf(seed)))];
    }],
    ['printed art, taught before the first game', async () => {
      const taught = await taughtPictures(faces, 'C2', teachSeed ?? 33_000);
      console.log(`taught before the first game: ${taught.pictures.length} tile types from ${taught.frames} teach frames, ${taught.corrected} cards answered by the table, ${taught.wrong} sure cards taught wrongly`);
      return [{ pictures: taught.pictures, exemplars: taught.exemplars }, await Promise.all(GAMES.map((seed) => recordingOf(seed)))];
    }],
    ['first-edition print, first game', async () => [{}, await Promise.all(GAMES.map((seed) => recordingOf(seed, c1)))]],
    ['first-edition print, taught before the first game', async () => {
      const taught = await taughtPictures(firstEdition, 'C1', teachSeed ?? 34_000);
      console.log(`first edition taught before the first game: ${taught.pictures.length} tile types from ${taught.frames} teach frames, ${taught.corrected} cards answered by the table, ${taught.wrong} sure cards taught wrongly`);
      return [{ pictures: taught.pictures, exemplars: taught.exemplars }, await Promise.all(GAMES.map((seed) => recordingOf(seed, c1)))];
    }],
    ['printed art, first game, 1280×960 camera', async () => [{}, await Promise.all(GAMES.map((seed) => recordingOf(seed, { faces, art: 'realart', large: true })))]],
    ['first-edition print, first game, 1280×960 camera', async () => [{}, await Promise.all(GAMES.map((seed) => recordingOf(seed, { ...c1, large: true })))]],
    ['printed art, first game, answers learnt', async () => [answersLearnt, await Promise.all(GAMES.map((seed) => recordingOf(seed)))]],
    ['first-edition print, first game, answers learnt', async () => [answersLearnt, await Promise.all(GAMES.map((seed) => recordingOf(seed, c1)))]],
    ['printed art, first game, 1280×960 camera, answers learnt', async () => [answersLearnt, await Promise.all(GAMES.map((seed) => recordingOf(seed, { faces, art: 'realart', large: true })))]],
    ['first-edition print, first game, 1280×960 camera, answers learnt', async () => [answersLearnt, await Promise.all(GAMES.map((seed) => recordingOf(seed, { ...c1, large: true })))]],
  ];
  for (const [name, make] of rows) {
    if (!name.includes(only)) continue;
    const [options, games] = await make();
    const proposalMs: number[] = [], afterMs: number[] = [];
    let edgesAlone = 0;
    let moves = 0, exact = 0, tiles = 0, tilesExact = 0, tilesWrong = 0, asked = 0, offeredFirst = 0, offered = 0, scores = 0, falseAlarms = 0, figures = 0, figuresWrong = 0, figuresExact = 0, figuresAsked = 0, figuresMissed = 0, needless = 0, needlessFigures = 0;
    for (const d of games) {
      const r = await replayRecording(d, { ...options, onEvent: (e) => { if (e.kind === 'notice' && LAID_TILE_NOTICE.test(e.message)) falseAlarms++; } });
      moves += r.cameraMoves;
      exact += r.exact;
      proposalMs.push(...r.proposalMs);
      needless += r.needlessQuestions.length;
      needlessFigures += r.needlessQuestions.filter((c) => c.type === 'placeMeeple').length;
      afterMs.push(...r.afterProposalMs);
      for (const o of r.outcomes) {
        if (o.truth?.type === 'placeMeeple') {
          figures++;
          if (o.result === 'exact') figuresExact++;
          if (o.result === 'unsure' || o.result === 'refused') figuresAsked++;
          if (o.result === 'missed') figuresMissed++;
        }
        if (wrongFigureCommit(o)) figuresWrong++;
        if (!isTile(o.truth)) continue;
        tiles++;
        if (o.result === 'exact') tilesExact++;
        if (o.result === 'wrong') tilesWrong++;
        if (o.result === 'unsure' || o.result === 'refused') {
          asked++;
          // What the table's picker shows first: the right tile one click away, or a search.
          if (o.offered === 0) offeredFirst++;
          if (o.offered !== undefined && o.offered >= 0) offered++;
        }
        // Which tiles went wrong or to the table, on stderr: not a figure line.
        if (process.env.BENCH_BREAKDOWN && o.result !== 'exact') console.error(`  ${o.result}: ${o.truth?.type === 'placeTile' ? o.truth.tile : o.truth?.type}${o.got?.type === 'placeTile' ? ` read ${o.got.tile}` : ''}`);
      }
      if (r.scores.every((s, i) => s === r.truthScores[i])) scores++;
      // The most the edges can commit (edges-alone.ts): tiles that are the one legal move with their edges.
      const played = Game.start(r.game.setup, r.game.catalog);
      if (!played.ok) throw new Error(played.reason);
      for (const c of r.game.commands) {
        if (c.type === 'placeTile' && movesShowingEdges(played.value.state, c.tile, ROTATIONS.indexOf(c.rot), c.at) === 1) edgesAlone++;
        played.value.play(c);
      }
    }
    const pct = (a: number, n: number) => ((100 * a) / Math.max(1, n)).toFixed(1);
    console.log(`${name}: moves exact: ${pct(exact, moves)} % (${exact}/${moves})`);
    console.log(`${name}: tiles committed wrong: ${pct(tilesWrong, tiles)} % (${tilesWrong}/${tiles})`);
    console.log(`${name}: tiles left to the table: ${pct(asked, tiles)} % (${asked}/${tiles})`);
    console.log(`${name}: tiles the one legal move with their edges: ${pct(edgesAlone, tiles)} % (${edgesAlone}/${tiles})`);
    console.log(`${name}: tiles left to the table, the right one offered first: ${pct(offeredFirst, asked)} % (${offeredFirst}/${asked})`);
    console.log(`${name}: tiles left to the table, the right one among the three offered: ${pct(offered, asked)} % (${offered}/${asked})`);
    console.log(`${name}: figures committed wrong: ${pct(figuresWrong, figures)} % (${figuresWrong} on ${figures} figures placed)`);
    // The rest of the figures: read, asked about (the table picks), or missed (the table enters them unasked).
    console.log(`${name}: figures read / asked / missed: ${figuresExact} / ${figuresAsked} / ${figuresMissed} of ${figures}`);
    // A question about a move no one made (a figure where none stood): the table answers "none of these".
    console.log(`${name}: questions about a move none made: ${needless} (about a figure: ${needlessFigures}) in ${tiles} turns`);
    console.log(`${name}: final scores exact: ${scores}/${games.length} games`);
    console.log(`${name}: laid tiles said to be lifted or turned (none is): ${falseAlarms}`);
    // Still frame to proposal, whole `feed` (bench:tracking's figure, here on print): a median of the row's games.
    console.log(`${name}: new tile: ${median(proposalMs).toFixed(0)} ms`);
    // The frame after: what the new tile's scene left to it (the drawings' fit to the laid tiles, on print).
    console.log(`${name}: frame after a new tile: ${median(afterMs).toFixed(0)} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
