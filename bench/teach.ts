/**
 * `npm run --silent bench:teach`: teaching the camera a table's tiles (issue 30). A table lays out a
 * whole box — base, River and Inns & Cathedrals, every copy of the edition's counts — a dozen or so
 * tiles at a time, loose at any angle, some touching, a hand or a figure in some frames
 * (models/teach/scene.ts), and each still frame is read (models/teach/read.ts) against the edition's
 * candidates of those expansions. The tiles are the second-edition scans (tests/fixtures/realart;
 * evaluation only, nothing tuned on them). `--art c1-jcz` draws the first-edition scans instead
 * with the C1 counts: the tuning set on which the "sure" threshold was chosen.
 *   tiles found: the tile's four corners each within 2 mm of the true ones, over the tiles wholly in
 *     view with no hand or other tile over them (a figure may stand on them);
 *   teach top-1 / top-3: the right type at the right rotation (up to symmetry) first / among the
 *     three readings of a card that is read, over the same tiles (one not found counts wrong);
 *   confirmations per 100 tiles: cards the table handles one by one (not sure, or not found);
 *   sure cards accepted wrongly: cards at or over SURE_CONFIDENCE whose first reading is wrong, over
 *     every card of the bench (the bad ones included);
 *   covered parts (models/teach/covered.ts), over the cards found of types with two copies or more
 *     found, as the table would answer them: figures left out (the figure's centre left out of the
 *     picture of the copy it stands on) and the share of bare copies' faces left out (nothing lay
 *     there). `--figure-prob P`: a figure in a share P of the frames (0.3 by default).
 */
import { TileCatalog } from '../engine/catalog/registry.js';
import type { Edition } from '../engine/catalog/types.js';
import { rng } from '../engine/sim/rng.js';
import { sameUpToSymmetry } from '../models/classes.js';
import { realFacesByTile } from '../models/eval/realart.js';
import { matchCorners } from '../models/photo/synthetic.js';
import { pieceSvg } from '../models/render/pieces.js';
import { rasterise } from '../models/render/rasterise.js';
import { TileRecognizer } from '../models/runner.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import type { Rgba } from '../models/synth/image.js';
import { readTeachFrame, type TeachCard } from '../models/teach/read.js';
import { copiesAgree, isSure, outlineSure, SURE_CONFIDENCE } from '../models/teach/session.js';
import { assignByCounts, boxCounts } from '../models/teach/counts.js';
import { photoCandidates, SHOWN_FACE, SHOWN_PX, squareToQuadHomography } from '../models/photo/read.js';
import { coveredMasks, type CopyPicture } from '../models/teach/covered.js';
import { applyHomography, invertHomography, type Point, type Quad } from '../calibration/geometry.js';
import { makeTeachScene, type TeachTruth } from '../models/teach/scene.js';

const EXPANSIONS = ['base', 'river', 'inns-cathedrals'] as const;
const PER_FRAME = 14;
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const art = arg('--art') ?? 'realart';
const boxes = Number(arg('--boxes') ?? 2);
const seed0 = Number(arg('--seed') ?? (art === 'realart' ? 30_000 : 31_000));
const figureProb = Number(arg('--figure-prob') ?? 0.3);
const edition: Edition = art === 'realart' ? 'C2' : 'C1';
const catalog = TileCatalog.classic();

async function facesOf(): Promise<Map<string, Rgba>> {
  if (art !== 'realart') return printFacesByTile(catalog.all().map((t) => t.id), art);
  // The scans turned into the catalog frame (the first scan of a type).
  return realFacesByTile(catalog.all().map((t) => t.id));
}

const faces = await facesOf();
const figure = await rasterise(pieceSvg('meeple', 'red'), 48);
const recognizer = await TileRecognizer.load();
// The box: every copy the edition prints of the expansions' tiles that have a scan.
const box: string[] = [];
for (const e of EXPANSIONS) for (const t of catalog.ofExpansion(e)) for (let k = 0; k < (t.counts[edition] ?? 0); k++) if (faces.has(t.id)) box.push(t.id);
const useCounts = !process.argv.includes('--no-counts');
const noRefiner = process.argv.includes('--no-refiner');
const counts = boxCounts(photoCandidates(edition, [...EXPANSIONS]), edition);
const rawFirst = new Map<TeachCard, TeachCard['readings'][number]>();
const keptByCounts = new Map<TeachCard, boolean>();
let movedByCounts = 0, rawTop1 = 0;
const t0 = Date.now();
let eligible = 0, found = 0, top1 = 0, top3 = 0, handled = 0, sureWrong = 0, sureRight = 0, frames = 0, cardsAll = 0;
const confidences: { c: number; right: boolean }[] = [];
const reasons = new Map<string, number>();
const byTable = new Map<string, [number, number]>();
let figuresLeftOut = 0, figuresOnCopies = 0, bareCopies = 0, bareWithPart = 0, bareShare = 0;
for (let b = 0; b < boxes; b++) {
  const r = rng(seed0 + b);
  const order = [...box].sort(() => r() - 0.5);
  const boxFrames: { scene: Awaited<ReturnType<typeof makeTeachScene>>; cards: TeachCard[] }[] = [];
  for (let f = 0; f * PER_FRAME < order.length; f++) {
    const ids = order.slice(f * PER_FRAME, (f + 1) * PER_FRAME);
    const seed = seed0 + b * 100 + f;
    const scene = await makeTeachScene({ seed, tiles: ids.map((id) => ({ face: faces.get(id)!, label: id })), figure, handProb: 0.3, figureProb, touching: 0.3, bevel: art !== 'realart' && !process.argv.includes('--no-bevel') });
    frames++;
    const read = await readTeachFrame(recognizer, scene.bytes, { edition, expansions: [...EXPANSIONS], ...(noRefiner ? { refiner: null } : {}) });
    if (!read.ok) throw new Error(`frame ${seed}: ${read.reason}`);
    boxFrames.push({ scene, cards: [...read.value] });
  }
  // The box laid out in full is one teach session: the box's counts over all its cards (unless --no-counts).
  const all = boxFrames.flatMap((f) => f.cards.map((c, i) => ({ f, i, c })));
  const readable = all.filter(({ c }) => c.why === null && c.readings.length > 0);
  const chosen = assignByCounts(readable.map(({ c }) => ({ readings: c.alternatives })), counts);
  readable.forEach(({ f, i, c }, k) => {
    const j = chosen[k];
    const moved = j !== null && j !== undefined && j > 0;
    if (moved) { movedByCounts++; if (process.env.TEACH_CONFIDENCES) console.error(`moved by counts: ${c.alternatives.slice(0, Math.max(3, j + 1)).map((x) => `${x.tileId}@${x.rotation} ${x.confidence.toFixed(3)}`).join(', ')} → ${j}`); }
    if (useCounts && moved) f.cards[i] = { ...c, readings: [c.alternatives[j]!, ...c.alternatives.filter((_, x) => x !== j)].slice(0, 3) };
    keptByCounts.set(f.cards[i]!, !moved);
    rawFirst.set(f.cards[i]!, c.readings[0]!);
  });
  const sureByReading = boxFrames.flatMap((f) => f.cards).filter((c) => c.why === null && c.readings.length > 0 && isSure(c.readings, keptByCounts.get(c) ?? true));
  // The box's found cards by true type, for the covered parts: each copy's picture, its turn, the figures on it.
  const copies = new Map<string, (CopyPicture & { figures: Point[]; bare: boolean })[]>();
  for (const { scene, cards } of boxFrames) {
    cardsAll += cards.length;
    const matchOf = (c: TeachCard, t: TeachTruth) => matchCorners(c.corners, t.corners);
    // Each card's tile: the one whose centre is nearest the card's (within half a side); found when
    // every corner lies within 2 mm of that tile's. A card's reading is judged against its tile even
    // when the outline is off by more (what a sure card would teach).
    const centre = (q: readonly { x: number; y: number }[]) => ({ x: q.reduce((a, p) => a + p.x, 0) / 4, y: q.reduce((a, p) => a + p.y, 0) / 4 });
    const cardTruth = new Map<TeachCard, { t: TeachTruth; shift: number; mm: number } | null>();
    for (const c of cards) {
      const cc = centre(c.corners);
      let best: { t: TeachTruth; shift: number; mm: number; d: number } | null = null;
      for (const t of scene.tiles) {
        const tc = centre(t.corners);
        const d = Math.hypot(cc.x - tc.x, cc.y - tc.y);
        if (d > t.sidePx / 2 || (best && d >= best.d)) continue;
        const m = matchOf(c, t);
        best = { t, shift: m.shift, mm: m.error * 45, d };
      }
      cardTruth.set(c, best);
      if (best && best.mm <= 2 && c.cropRgb && !best.t.faceDown && !c.why) {
        const figures = scene.figuresAt.map((p) => pictureAt(c.corners, p)).filter((p): p is Point => p !== null);
        const list = copies.get(best.t.label) ?? [];
        list.push({ rgb: c.cropRgb, rotation: (((4 - best.shift) % 4) * 90) as CopyPicture['rotation'], figures, bare: figures.length === 0 && best.t.coveredBy === null });
        copies.set(best.t.label, list);
      }
    }
    const rightAs = (c: TeachCard, x: TeachCard['readings'][number] | undefined) => {
      const m = cardTruth.get(c);
      if (!m || !x) return false;
      const q = (4 - m.shift) % 4;
      return x.tileId === m.t.label && sameUpToSymmetry(catalog.get(m.t.label)!, x.rotation / 90, q);
    };
    const right = (c: TeachCard, k: number) => rightAs(c, c.readings[k]);
    // As TeachSession.isSure: sure by its reading, and like the box's other cards sure as its type.
    const sure = (c: TeachCard) => isSure(c.readings, keptByCounts.get(c) ?? true) && outlineSure(c.sideOff) && copiesAgree(c.cropRgb, sureByReading.filter((o) => o !== c && o.cropRgb && o.readings[0]!.tileId === c.readings[0]!.tileId).map((o) => o.cropRgb!));
    for (const c of cards) {
      if (c.why || !c.readings.length) continue;
      confidences.push({ c: c.readings[0]!.confidence, right: right(c, 0) });
      if (sure(c)) {
        if (right(c, 0)) sureRight++;
        else { sureWrong++; if (process.env.TEACH_CONFIDENCES) console.error(`wrong sure card: ${c.readings[0]!.tileId} at ${c.readings[0]!.confidence.toFixed(4)}, truly ${cardTruth.get(c)?.t.label ?? 'no tile'}`); }
      }
    }
    if (process.env.TEACH_CONFIDENCES) for (const c of cards) { const m = cardTruth.get(c); const k = `${c.why ? c.why.replace(/[0-9.]+/g, '#') : 'read'} | ${m ? (m.mm <= 2 ? 'within 2 mm' : m.mm <= 5 ? '2-5 mm' : '>5 mm') : 'no tile'}`; reasons.set(k, (reasons.get(k) ?? 0) + 1); }
    for (const t of scene.tiles) {
      if (process.env.TEACH_CONFIDENCES && !(t.outside > 0 || t.overlapping || t.coveredBy === 'hand' || t.coveredBy === 'lid') && !cards.some((x) => cardTruth.get(x)?.t === t)) reasons.set('tile without a card', (reasons.get('tile without a card') ?? 0) + 1);
      if (t.outside > 0 || t.overlapping || t.coveredBy === 'hand' || t.coveredBy === 'lid') continue;
      eligible++;
      const c = cards.find((x) => cardTruth.get(x)?.t === t && cardTruth.get(x)!.mm <= 2);
      const kt = byTable.get(scene.table) ?? [0, 0];
      kt[0]++; if (c) kt[1]++;
      byTable.set(scene.table, kt);
      if (!c) { handled++; continue; }
      found++;
      if (c.why || !c.readings.length) { handled++; continue; }
      if (right(c, 0)) top1++;
      if (rightAs(c, rawFirst.get(c) ?? c.readings[0])) rawTop1++;
      if ([0, 1, 2].some((k) => right(c, k))) top3++;
      if (!sure(c)) handled++;
    }
  }
  for (const list of copies.values()) {
    if (list.length < 2) continue;
    const masks = coveredMasks(list);
    list.forEach((c, k) => {
      const m = masks[k];
      for (const f of c.figures) {
        figuresOnCopies++;
        if (m && m[Math.floor(f.y) * SHOWN_PX + Math.floor(f.x)] === 0) figuresLeftOut++;
      }
      if (!c.bare) return;
      bareCopies++;
      const out = m ? faceShareLeftOut(m) : 0;
      if (out > 0) bareWithPart++;
      bareShare += out;
    });
  }
}
const pct = (x: number, of: number) => ((100 * x) / Math.max(1, of)).toFixed(1);
console.log(`tiles found: ${pct(found, eligible)} %`);
console.log(`teach top-1: ${pct(top1, eligible)} %`);
console.log(`teach top-3: ${pct(top3, eligible)} %`);
console.log(`teach top-1 without the box's counts: ${pct(rawTop1, eligible)} % (the counts moved ${movedByCounts} first readings${useCounts ? '' : '; not applied: --no-counts'})`);
console.log(`confirmations per 100 tiles: ${Math.round((100 * handled) / Math.max(1, eligible))}`);
console.log(`sure cards accepted wrongly: ${sureWrong}`);
console.log(`sure cards: ${sureRight + sureWrong} of ${cardsAll} cards (sure at confidence ≥ ${SURE_CONFIDENCE})`);
console.log(`covered parts: figures left out: ${figuresLeftOut} of ${figuresOnCopies} standing on a copy of a type found twice or more`);
console.log(`covered parts: bare copies' faces left out: ${pct(bareShare, bareCopies)} % (${bareWithPart} of ${bareCopies} copies lose a part)`);
console.log(`teach frames: ${frames} (${eligible} tiles in view, ${art}) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
if (process.env.TEACH_CONFIDENCES) {
  // For choosing the threshold (on the tuning art only): the highest confidence of a wrong first reading, and how many right ones lie above it.
  const wrong = confidences.filter((x) => !x.right).map((x) => x.c).sort((a, b) => b - a);
  const rightC = confidences.filter((x) => x.right).map((x) => x.c);
  for (const [k, [n, f]] of byTable) console.error(`table ${k}: found ${f} of ${n}`);
  for (const [k, n] of [...reasons].sort((a, b) => b[1] - a[1])) console.error(`${n}\t${k}`);
  console.error(`wrong first readings' confidences (highest first): ${wrong.slice(0, 10).map((c) => c.toFixed(3)).join(' ')}`);
  for (const t of [0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999]) console.error(`at ${t}: right ${rightC.filter((c) => c >= t).length}, wrong ${wrong.filter((c) => c >= t).length}`);
}

/** A frame point in a card's picture (SHOWN_PX pixels), or null when it lies off the tile's face. */
function pictureAt(corners: Quad, p: Point): Point | null {
  const { x: u, y: v } = applyHomography(invertHomography(squareToQuadHomography(corners)), p);
  if (u < 0 || v < 0 || u > 1 || v > 1) return null;
  const span = SHOWN_FACE.to - SHOWN_FACE.from;
  return { x: SHOWN_FACE.from + u * span, y: SHOWN_FACE.from + v * span };
}

/** The share of a picture's face (not its margin) a mask leaves out. */
function faceShareLeftOut(m: Uint8Array): number {
  let out = 0, all = 0;
  for (let y = Math.ceil(SHOWN_FACE.from); y < SHOWN_FACE.to; y++)
    for (let x = Math.ceil(SHOWN_FACE.from); x < SHOWN_FACE.to; x++) {
      all++;
      if (m[y * SHOWN_PX + x] === 0) out++;
    }
  return out / all;
}
