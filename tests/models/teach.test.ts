/**
 * Teach frames (issue 30): every tile of a still frame found and read without a game, and the bad
 * inputs each reported on its card or skipped, never taught as a sure reading. The tiles are the
 * first-edition scans (models/train/print/c1-jcz, the tuning art), the real model reads them.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { sameUpToSymmetry } from '../../models/classes.js';
import { rng } from '../../engine/sim/rng.js';
import { pieceSvg } from '../../models/render/pieces.js';
import { rasterise } from '../../models/render/rasterise.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { REFINE_PX } from '../../models/photo/outline.js';
import { matchCorners } from '../../models/photo/synthetic.js';
import { TileRecognizer } from '../../models/runner.js';
import { printFacesByTile } from '../../models/synth/print-faces.js';
import type { Rgba } from '../../models/synth/image.js';
import { readTeachFrame, type TeachCard } from '../../models/teach/read.js';
import { makeTeachScene, type TeachScene, type TeachTruth } from '../../models/teach/scene.js';
import { SURE_CONFIDENCE, SURE_SIDE_OFF, TeachSession } from '../../models/teach/session.js';

const catalog = TileCatalog.classic();
const IDS = ['BASE_D', 'BASE_U', 'BASE_E', 'RIVER_D', 'BASE_R', 'IC_F'];
let faces: Map<string, Rgba>;
let recognizer: TileRecognizer;

beforeAll(async () => {
  faces = await printFacesByTile(catalog.all().map((t) => t.id));
  recognizer = await TileRecognizer.load();
}, 60_000);

const centre = (q: readonly { x: number; y: number }[]) => ({ x: q.reduce((a, p) => a + p.x, 0) / 4, y: q.reduce((a, p) => a + p.y, 0) / 4 });
/** The cards whose centre lies within half a side of the tile's. */
const cardsOn = (cards: readonly TeachCard[], t: TeachTruth) => cards.filter((c) => { const a = centre(c.corners), b = centre(t.corners); return Math.hypot(a.x - b.x, a.y - b.y) < t.sidePx / 2; });
const sure = (c: TeachCard) => !c.why && (c.readings[0]?.confidence ?? 0) >= SURE_CONFIDENCE;

async function read(scene: TeachScene): Promise<TeachCard[]> {
  const r = await readTeachFrame(recognizer, scene.bytes, { edition: 'C1', expansions: ['base', 'river', 'inns-cathedrals'] });
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

describe('teach frames', () => {
  it('on a plain table find the loose tiles at any angle within 2 mm and read them; a sure card is the right tile at the right turn', async () => {
    // A grey cloth-free table: what the finder must get right every time (the bench measures the hard tables).
    const scene = await makeTeachScene({ seed: 4, tiles: IDS.map((id) => ({ face: faces.get(id)!, label: id })), touching: 0.3, tableColour: [110, 112, 118], format: 'png' });
    expect(scene.tiles).toHaveLength(IDS.length);
    const cards = await read(scene);
    let found = 0, right = 0;
    for (const t of scene.tiles) {
      const c = cardsOn(cards, t)[0];
      if (!c) continue;
      const m = matchCorners(c.corners, t.corners);
      if (m.error * 45 > 2) continue;
      found++;
      // An outline on its tile has a tile's sides where it lies: nothing keeps it from being sure.
      expect(c.sideOff, `${t.label}'s card`).toBeLessThanOrEqual(SURE_SIDE_OFF);
      const q = (4 - m.shift) % 4;
      const first = c.readings[0];
      const isRight = !!first && first.tileId === t.label && sameUpToSymmetry(catalog.get(t.label)!, first.rotation / 90, q);
      if (isRight) right++;
      if (sure(c)) expect(isRight, `${t.label} read as ${first?.tileId} sure`).toBe(true);
    }
    expect(found).toBeGreaterThanOrEqual(5);
    expect(right).toBeGreaterThanOrEqual(4);
    // One card per tile: never two for the same tile.
    for (const t of scene.tiles) expect(cardsOn(cards, t).length).toBeLessThanOrEqual(1);
  }, 120_000);

  it("on a table the green of the tiles' fields every tile is found on its edges within 2 mm, with no card beside them", async () => {
    // The masks find three of these six tiles (the table's colours are the fields'); the others are
    // found as squares on colour edges (models/photo/edge-squares.ts).
    const scene = await makeTeachScene({ seed: 4, tiles: IDS.map((id) => ({ face: faces.get(id)!, label: id })), touching: 0.3, tableColour: [100, 130, 60], format: 'png' });
    const cards = await read(scene);
    for (const t of scene.tiles) {
      const on = cardsOn(cards, t);
      expect(on, `${t.label}: one card`).toHaveLength(1);
      expect(on[0]!.why, t.label).toBeNull();
      expect(matchCorners(on[0]!.corners, t.corners).error * 45, `${t.label}: corners off (mm)`).toBeLessThanOrEqual(2);
    }
    expect(cards).toHaveLength(scene.tiles.length);
  }, 120_000);

  it("a scene drawn with the tiles' bevels darkens a narrow band inside their sides and nothing else; the tiles are still found within 2 mm", async () => {
    const spec = { seed: 3, tiles: IDS.map((id) => ({ face: faces.get(id)!, label: id })), touching: 0.3, tableColour: [120, 92, 62] as const, format: 'png' as const };
    const [plain, bevelled] = await Promise.all([makeTeachScene(spec), makeTeachScene({ ...spec, bevel: true })]);
    const rgb = async (s: TeachScene) => new Uint8Array(await sharp(s.bytes).removeAlpha().raw().toBuffer());
    const [a, b] = await Promise.all([rgb(plain), rgb(bevelled)]);
    // The frames differ only near a tile's side: the bevel (at most 1.6 mm inside it) and the lens blur's spread (about a millimetre either way).
    const mmPx = plain.tiles[0]!.sidePx / 45;
    const nearSide = (x: number, y: number) => plain.tiles.some((t) => {
      // The least distance inside the face's four sides (negative: outside), each side on its own line.
      const inside = Math.min(...t.corners.map((a, k) => {
        const b = t.corners[(k + 1) % 4]!, len = Math.hypot(b.x - a.x, b.y - a.y);
        return ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)) / len;
      }));
      return inside > -1.2 * mmPx && inside < 2.5 * mmPx;
    });
    let changed = 0, darker = 0;
    for (let y = 0; y < plain.height; y++)
      for (let x = 0; x < plain.width; x++) {
        const o = (y * plain.width + x) * 3;
        const d = a[o]! + a[o + 1]! + a[o + 2]! - (b[o]! + b[o + 1]! + b[o + 2]!);
        if (Math.abs(d) <= 6) continue;
        changed++;
        expect(nearSide(x + 0.5, y + 0.5), `pixel ${x},${y} changed away from every side`).toBe(true);
        if (d > 30) darker++;
      }
    // More than a pixel-wide dark band along a whole side of each tile; less than a band round every side.
    const sidePx = 45 * mmPx;
    expect(darker).toBeGreaterThan(plain.tiles.length * sidePx);
    expect(changed).toBeLessThan(plain.tiles.length * 4 * sidePx * 3.7 * mmPx);
    const cards = await read(bevelled);
    for (const t of bevelled.tiles) {
      const on = cardsOn(cards, t);
      expect(on, `${t.label}: one card`).toHaveLength(1);
      expect(matchCorners(on[0]!.corners, t.corners).error * 45, `${t.label}: corners off (mm)`).toBeLessThanOrEqual(2);
    }
  }, 120_000);

  it('a tile face down, a tile half out of view, two overlapping and a box lid get no sure card', async () => {
    const tiles = [...IDS.slice(0, 3).map((id) => ({ face: faces.get(id)!, label: id })), { face: null, label: 'down' }];
    const down = await makeTeachScene({ seed: 11, tiles, width: 960, height: 720, viewMm: 420, lid: true, format: 'png' });
    const cards = await read(down);
    const back = down.tiles.find((t) => t.faceDown)!;
    for (const c of cardsOn(cards, back)) expect(sure(c), `face-down tile: ${c.why ?? c.readings[0]?.tileId}`).toBe(false);
    // Nothing sure that is not on a face-up tile (the lid).
    for (const c of cards.filter(sure)) expect(down.tiles.some((t) => !t.faceDown && cardsOn([c], t).length > 0)).toBe(true);

    const half = await makeTeachScene({ seed: 12, tiles: IDS.slice(0, 4).map((id) => ({ face: faces.get(id)!, label: id })), width: 960, height: 720, viewMm: 420, halfOut: true, format: 'png' });
    const out = half.tiles.find((t) => t.outside > 0.2)!;
    expect(out).toBeDefined();
    const halfCards = await read(half);
    for (const c of cardsOn(halfCards, out)) {
      expect(sure(c)).toBe(false);
      expect(c.why).toMatch(/out of the frame|not one tile|edges|outline/);
    }

    const over = await makeTeachScene({ seed: 13, tiles: IDS.slice(0, 4).map((id) => ({ face: faces.get(id)!, label: id })), width: 960, height: 720, viewMm: 420, overlap: true, format: 'png' });
    const lapped = over.tiles.filter((t) => t.overlapping);
    expect(lapped.length).toBe(2);
    const overCards = await read(over);
    const under = lapped[0]!;
    for (const c of cardsOn(overCards, under)) expect(sure(c) && c.readings[0]!.tileId !== under.label, 'the covered tile taught as another').toBe(false);
  }, 180_000);

  it("a retake of a few tiles laid touching is found with the side the teach's earlier frame learnt (the camera does not move)", async () => {
    // All touching, the frame has no lone tile to learn the tiles' side from: on its own the side was
    // guessed from the one blob (several tiles) and nothing packed into squares.
    const opts = { edition: 'C1', expansions: ['base', 'river', 'inns-cathedrals'] } as const;
    const session = new TeachSession();
    const ids = catalog.all().map((t) => t.id).filter((id) => faces.has(id));
    const first = await makeTeachScene({ seed: 50, tableSeed: 5, tiles: ids.slice(0, 14).map((id) => ({ face: faces.get(id)!, label: id })), touching: 0, format: 'png' });
    expect((await readTeachFrame(recognizer, first.bytes, { ...opts, sides: session.sides })).ok).toBe(true);
    expect(session.sides.at(REFINE_PX, first.width)).not.toBeNull();
    const retake = await makeTeachScene({ seed: 54, tableSeed: 5, tiles: ids.slice(20, 24).map((id) => ({ face: faces.get(id)!, label: id })), touching: 1, format: 'png' });
    const within2mm = (cards: readonly TeachCard[]) => retake.tiles.filter((t) => cards.some((c) => !c.why && matchCorners(c.corners, t.corners).error * 45 <= 2)).length;
    const alone = await readTeachFrame(recognizer, retake.bytes, opts);
    const taught = await readTeachFrame(recognizer, retake.bytes, { ...opts, sides: session.sides });
    if (!alone.ok || !taught.ok) throw new Error('a teach frame was not read');
    expect(retake.tiles).toHaveLength(4);
    expect(within2mm(alone.value)).toBe(0);
    expect(within2mm(taught.value)).toBe(4);
  }, 60_000);

  it('a frame with six or more lone tiles learns the side itself: a side from before the camera moved does not mislead it', async () => {
    const opts = { edition: 'C1', expansions: ['base', 'river', 'inns-cathedrals'] } as const;
    const ids = catalog.all().map((t) => t.id).filter((id) => faces.has(id));
    const frame = await makeTeachScene({ seed: 60, tableSeed: 6, tiles: ids.slice(0, 14).map((id) => ({ face: faces.get(id)!, label: id })), touching: 0, format: 'png' });
    const own = new TeachSession();
    const alone = await readTeachFrame(recognizer, frame.bytes, { ...opts, sides: own.sides });
    const learnt = own.sides.at(REFINE_PX, frame.width)!;
    expect(learnt).not.toBeNull();
    // A teach whose earlier frames saw the tiles at two-thirds of this size (the camera since lowered).
    const moved = new TeachSession();
    moved.sides.learn(learnt.scaled(1.5), REFINE_PX, frame.width);
    const read = await readTeachFrame(recognizer, frame.bytes, { ...opts, sides: moved.sides });
    if (!alone.ok || !read.ok) throw new Error('a teach frame was not read');
    const within2mm = (cards: readonly TeachCard[]) => frame.tiles.filter((t) => cards.some((c) => !c.why && matchCorners(c.corners, t.corners).error * 45 <= 2)).length;
    expect(within2mm(read.value)).toBe(within2mm(alone.value));
    expect(within2mm(read.value)).toBeGreaterThanOrEqual(12);
    // And the teach takes the frame's side from now on.
    const centre = { x: REFINE_PX / 2, y: (REFINE_PX * frame.height) / frame.width / 2 };
    expect(moved.sides.at(REFINE_PX, frame.width)!.at(centre)).toBeCloseTo(learnt.at(centre), 6);
  }, 60_000);

  it("a teach's first frame of a few tiles laid together, with no lone tile and no side learnt before, finds them all within 2 mm", async () => {
    // Three laid in an L (the largest blob, its shorter side two tiles'), two edge to edge: the side
    // is guessed from each of the largest blobs and the guess that outlines the most tiles kept.
    const spec = (id: string) => ({ face: faces.get(id)!, label: id });
    const beside = (x: number, y: number, angle: number, k: number) => ({ x: x + Math.cos(angle + (k * Math.PI) / 2) * 45.6, y: y + Math.sin(angle + (k * Math.PI) / 2) * 45.6 });
    const at = (id: string, p: { x: number; y: number }, angle: number) => ({ spec: spec(id), ...p, angle });
    const keep = [
      at('BASE_D', { x: -120, y: -50 }, 0.4), at('BASE_U', beside(-120, -50, 0.4, 0), 0.4), at('RIVER_D', beside(-120, -50, 0.4, 1), 0.4),
      at('BASE_E', { x: 60, y: 50 }, 1.1), at('IC_F', beside(60, 50, 1.1, 0), 1.1),
    ];
    const scene = await makeTeachScene({ seed: 70, tiles: [], keep, tableColour: [205, 170, 170], tiltDeg: 4, format: 'png' });
    expect(scene.tiles).toHaveLength(5);
    const cards = await read(scene);
    const within2mm = scene.tiles.filter((t) => cards.some((c) => !c.why && matchCorners(c.corners, t.corners).error * 45 <= 2));
    expect(within2mm.map((t) => t.label).sort()).toEqual(['BASE_D', 'BASE_E', 'BASE_U', 'IC_F', 'RIVER_D']);
    expect(cards.filter((c) => c.why)).toEqual([]);
  }, 60_000);

  it("on a striped wood the colour of the fields the stripes give no card, and the tiles are found on their edges", async () => {
    // Seed 39105 draws an olive wood with a strong grain: the masks see fragments of the tiles, the
    // stripes' edges cross a square's sides at an angle (edge squares score across less half along),
    // and what neither the edges nor the model see as a tile gets no card.
    // The frame as bench:teach -- --art c1-jcz --seed 39000 draws it (its second box's sixth frame).
    const box = (['base', 'river', 'inns-cathedrals'] as const).flatMap((e) => catalog.ofExpansion(e).flatMap((t) => Array<string>(faces.has(t.id) ? t.counts.C1 ?? 0 : 0).fill(t.id)));
    const r = rng(39001);
    const ids = [...box].sort(() => r() - 0.5).slice(5 * 14, 6 * 14);
    const figure = await rasterise(pieceSvg('meeple', 'red'), 48);
    const scene = await makeTeachScene({ seed: 39105, tiles: ids.map((id) => ({ face: faces.get(id)!, label: id })), figure, handProb: 0.3, figureProb: 0.3, touching: 0.3, bevel: true });
    expect(scene.table).toBe('wood');
    const cards = await read(scene);
    const overNoTile = cards.filter((c) => !scene.tiles.some((t) => cardsOn([c], t).length > 0));
    expect(overNoTile.map((c) => c.why ?? c.readings[0]?.tileId)).toEqual([]);
    const inView = scene.tiles.filter((t) => !(t.outside > 0 || t.overlapping || t.coveredBy === 'hand'));
    const found = inView.filter((t) => cards.some((c) => !c.why && matchCorners(c.corners, t.corners).error * 45 <= 2));
    console.log(`striped wood: ${found.length} of ${inView.length} tiles found, ${cards.length} cards`);
    expect(found.length).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it('a frame that is not an image is refused with the reason, and an empty one', async () => {
    const r = await readTeachFrame(recognizer, new TextEncoder().encode('this is not a picture'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/not an image/);
    const e = await readTeachFrame(recognizer, new Uint8Array(0));
    expect(e.ok).toBe(false);
    if (!e.ok) expect(e.reason).toMatch(/empty/);
  });
});

describe('a teach session', () => {
  it('a new frame adds the tiles laid since; a tile moved keeps its card; accept all sure, pick, name, discard', async () => {
    const spec = (id: string) => ({ face: faces.get(id)!, label: id });
    const first = await makeTeachScene({ seed: 21, tableSeed: 5, tiles: IDS.slice(0, 5).map(spec), touching: 0, tableColour: [110, 112, 118], format: 'png' });
    const keep = first.tiles.slice(0, 4).map((t) => t.placement);
    const second = await makeTeachScene({ seed: 22, tableSeed: 5, tiles: [spec(IDS[4]!), spec(IDS[5]!)], keep, touching: 0, tableColour: [110, 112, 118], format: 'png' });
    const session = new TeachSession();
    const r1 = session.addFrame(await read(first));
    const cardAt = (scene: TeachScene, label: string) => {
      const t = scene.tiles.find((x) => x.label === label)!;
      return session.cards.find((c) => c.state !== 'discarded' && cardsOn([{ corners: c.corners } as TeachCard], t).length > 0);
    };
    const before = new Map(IDS.slice(0, 5).map((id) => [id, cardAt(first, id)?.id]));
    expect(r1.added.length).toBeGreaterThanOrEqual(4);
    const r2 = session.addFrame(await read(second));
    const after = new Map(IDS.map((id) => [id, cardAt(second, id)?.id]));
    // The moved tile (IDS[4]) keeps its card when it was found in both frames; the new one (IDS[5]) has a new card.
    expect(before.get(IDS[4]!)).toBeDefined();
    expect(after.get(IDS[4]!)).toBe(before.get(IDS[4]!));
    expect(r2.moved).toContain(before.get(IDS[4]!));
    expect(after.get(IDS[5]!)).toBeDefined();
    expect(r2.added).toContain(after.get(IDS[5]!));
    // Never two cards for one tile.
    const ids = [...after.values()].filter((x) => x !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    expect(session.cards.filter((c) => c.state !== 'discarded').length).toBeLessThanOrEqual(IDS.length + 1);

    const accepted = session.acceptAllSure();
    for (const id of accepted) {
      const c = session.get(id);
      expect(c.tileId).toBe(c.readings[0]!.tileId);
    }
    const open = session.cards.filter((c) => c.state === 'open' && !c.why && c.readings.length >= 2);
    if (open[0]) {
      session.pick(open[0].id, 1);
      expect(session.get(open[0].id).tileId).toBe(open[0].readings[1]!.tileId);
    }
    const any = session.cards.find((c) => !c.why && c.cropRgb)!;
    session.correct(any.id, 'BASE_D', 90);
    expect(session.taught().find((t) => t.cardId === any.id)).toMatchObject({ tileId: 'BASE_D', rotation: 90 });
    session.discard(any.id);
    expect(session.taught().some((t) => t.cardId === any.id)).toBe(false);
    expect(() => session.get(9999)).toThrow(/no card 9999/);
    const bad = session.cards.find((c) => c.why);
    if (bad) expect(() => session.correct(bad.id, 'BASE_D', 0)).toThrow(/cannot be taught/);
  }, 120_000);

  it('a table that sweeps its tiles away and lays others: a tile laid where an answered one lay, or elsewhere, gets a card of its own', async () => {
    const spec = (id: string) => ({ face: faces.get(id)!, label: id });
    const first = await makeTeachScene({ seed: 31, tableSeed: 6, tiles: IDS.slice(0, 3).map(spec), touching: 0, tableColour: [110, 112, 118], format: 'png' });
    const session = new TeachSession();
    session.addFrame(await read(first));
    const was = first.tiles.find((t) => t.label === 'BASE_D')!;
    const card = session.cards.find((c) => !c.why && cardsOn([{ corners: c.corners } as TeachCard], was).length > 0)!;
    expect(card).toBeDefined();
    session.correct(card.id, 'BASE_D', 0);
    // The table cleared; a city tile laid exactly where the road tile lay, another elsewhere.
    const second = await makeTeachScene({ seed: 32, tableSeed: 6, tiles: [spec('RIVER_D')], keep: [{ ...was.placement, spec: spec('IC_F') }], touching: 0, tableColour: [110, 112, 118], format: 'png' });
    const r2 = session.addFrame(await read(second));
    const there = second.tiles.find((t) => t.label === 'IC_F')!;
    const now = session.cards.find((c) => c.seen === 2 && cardsOn([{ corners: c.corners } as TeachCard], there).length > 0);
    expect(now, 'a card for the tile laid where the answered one lay').toBeDefined();
    expect(now!.id).not.toBe(card.id);
    expect(r2.added).toContain(now!.id);
    expect(now!.state).toBe('open');
    // The tile laid elsewhere is a new tile too, not one of the swept ones moved.
    const river = second.tiles.find((t) => t.label === 'RIVER_D')!;
    const riverCard = session.cards.find((c) => c.seen === 2 && cardsOn([{ corners: c.corners } as TeachCard], river).length > 0);
    expect(riverCard).toBeDefined();
    expect(r2.added).toContain(riverCard!.id);
    expect(r2.moved).toEqual([]);
    // The answered card keeps its answer and picture.
    expect(session.get(card.id)).toMatchObject({ state: 'accepted', tileId: 'BASE_D' });
  }, 120_000);
});
