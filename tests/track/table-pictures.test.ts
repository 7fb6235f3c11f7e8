/**
 * The table's own pictures as the tracker's templates (models/track/templates.ts `usePicture`): a
 * printed tile set is never drawn quite like any style the renderer has.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import type { Rotation } from '../../engine/geometry/segments.js';
import { rasterise } from '../../models/render/rasterise.js';
import { styleByName } from '../../models/render/styles.js';
import { tileSvg } from '../../models/render/svg.js';
import { PITCH_MM, TILE_MM } from '../../models/scene/render.js';
import { createGame } from '../../engine/game/engine.js';
import { placementProblem } from '../../engine/game/placement.js';
import { makeSetup } from '../../engine/game/setup.js';
import { CellReader } from '../../models/track/cell-reader.js';
import { FigureReader } from '../../models/track/figures.js';
import { FIT_TRUSTED, type Reading } from '../../models/track/reading.js';
import { CROP_PX, maskedLumaDistance, matchTemplate, PICTURE_MARGIN, pictureDetailMasks, TileTemplates, type CellCrop, type TilePicture } from '../../models/track/templates.js';

const catalog = TileCatalog.classic();

/** A camera's cell picture (model crop convention) of a tile drawn in `style`, turned `rot`: the gap grey. */
async function pictureOf(tileId: string, rot: Rotation, style = 'c3', P = 64): Promise<TilePicture> {
  const face = await rasterise(tileSvg(catalog.get(tileId)!, styleByName(style), { variant: 1 }), 96);
  const data = new Uint8Array(P * P * 3).fill(90);
  const span = (PITCH_MM * (1 + 2 * PICTURE_MARGIN)) / TILE_MM; // picture width in tile units
  for (let v = 0; v < P; v++)
    for (let u = 0; u < P; u++) {
      let x = ((u + 0.5) / P - 0.5) * span, y = ((v + 0.5) / P - 0.5) * span;
      for (let k = 0; k < rot / 90; k++) [x, y] = [y, -x]; // back to the catalog frame
      if (Math.abs(x) >= 0.5 || Math.abs(y) >= 0.5) continue;
      const fx = Math.floor((x + 0.5) * face.width), fy = Math.floor((y + 0.5) * face.height);
      for (let c = 0; c < 3; c++) data[(v * P + u) * 3 + c] = face.data[(fy * face.width + fx) * 4 + c]!;
    }
  return { tileId, rot, width: P, height: P, data };
}

/** Mean absolute difference over the pixels both templates cover. */
function meanDiff(a: CellCrop, b: CellCrop): number {
  let s = 0, n = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]!) || Number.isNaN(b[i]!)) continue;
    s += Math.abs(a[i]! - b[i]!);
    n++;
  }
  return s / n;
}

let drawn: TileTemplates;
beforeAll(async () => {
  drawn = await TileTemplates.enroll(catalog, 'c3');
}, 60_000);

describe('templates from the table\'s pictures', () => {
  it('a picture of a tile turned as played gives its template at every turn, as the drawing does', async () => {
    for (const [id, rot] of [['BASE_K', 90], ['IC_L', 270], ['RIVER_B', 180]] as const) {
      const pictured = await TileTemplates.enroll(catalog, 'c3');
      expect(pictured.usePicture(await pictureOf(id, rot))).toBe(true);
      expect(pictured.fromPicture(id)).toBe(true);
      for (let q = 0; q < 4; q++) {
        const d = meanDiff(pictured.get(id, q)!, drawn.get(id, q)!);
        expect(d, `${id} pictured at ${rot}°, template at ${q * 90}°`).toBeLessThan(12);
        // Turned wrong, the same tile does not fit (none of these tiles is symmetric under a quarter turn).
        expect(meanDiff(pictured.get(id, q)!, drawn.get(id, (q + 1) % 4)!), `${id} at ${q * 90}° against a quarter turn more`).toBeGreaterThan(2 * d);
      }
    }
  });

  it('leaves the places where figures stood out of the template (not compared), at the turn the tile was played', async () => {
    const pictured = await TileTemplates.enroll(catalog, 'c3');
    // A figure near the picture's top-left corner of a tile played at 90°.
    const p = { ...(await pictureOf('BASE_K', 90)), hidden: [{ x: 0.25, y: 0.25, r: 0.15 }] };
    expect(pictured.usePicture(p)).toBe(true);
    const at = (c: CellCrop, u: number, v: number) => c[(Math.floor(v * 32) * 32 + Math.floor(u * 32)) * 3]!;
    // The template at 90° is in the picture's frame: the hole is where the figure stood…
    const t = pictured.get('BASE_K', 1)!;
    const centre = 0.5 + (0.25 - 0.5) * (45 / 46);
    expect(Number.isNaN(at(t, centre, centre))).toBe(true);
    expect(Number.isNaN(at(t, 1 - centre, 1 - centre))).toBe(false);
    expect(Number.isNaN(at(t, 0.5, 0.5))).toBe(false);
    // …and turned with the tile at other turns (a quarter turn back: top-left goes to bottom-left).
    expect(Number.isNaN(at(pictured.get('BASE_K', 0)!, centre, 1 - centre))).toBe(true);
    // The rest still matches the drawing.
    expect(meanDiff(t, drawn.get('BASE_K', 1)!)).toBeLessThan(12);
  });

  it('a picture taken in dim light fits a tile as the same picture in full light does: no type wins by its picture\'s dimness', async () => {
    // The fit is measured in the template's units: unscaled, a picture at half the light fitted
    // every cell four times better, and one dim teach frame's picture became the best fit of most
    // new tiles in a game (docs/teach.md).
    const bright = await TileTemplates.enroll(catalog, 'c3');
    const dim = await TileTemplates.enroll(catalog, 'c3');
    const picture = await pictureOf('BASE_K', 90, 'sketch');
    expect(bright.usePicture(picture)).toBe(true);
    expect(dim.usePicture({ ...picture, data: picture.data.map((v) => Math.round(v * 0.45)) })).toBe(true);
    const sketched = await TileTemplates.enroll(catalog, 'sketch');
    for (let q = 0; q < 4; q++) {
      expect(meanDiff(dim.get('BASE_K', q)!, bright.get('BASE_K', q)!), `template at ${q * 90}°`).toBeLessThan(4);
      // Another type's tile and the right one, as the camera's crops: fitted alike by both pictures.
      for (const [id, turn] of [['BASE_D', q], ['BASE_K', q], ['IC_L', (q + 1) % 4]] as const) {
        const crop = sketched.get(id, turn)!;
        const dd = matchTemplate(crop, dim.get('BASE_K', q)!).d, db = matchTemplate(crop, bright.get('BASE_K', q)!).d;
        expect(dd / db, `${id} at ${turn * 90}° against BASE_K at ${q * 90}°`).toBeGreaterThan(0.8);
      }
    }
  });

  it('a sharp picture (a teach frame) fits the game camera\'s coarser view of the tile: its colour is compared at the camera\'s chroma resolution', async () => {
    // Small saturated parts (the second edition's blue roofs) keep their colour in a teach frame's
    // picture; a game cell of 30 camera pixels, JPEG 4:2:0, blends it into its surroundings.
    for (const id of ['BASE_D', 'BASE_J', 'BASE_K']) {
      const sharpPicture = await pictureOf(id, 0, 'c3', 256);
      for (let v = 0; v < 256; v++)
        for (let u = 0; u < 256; u++)
          if ((Math.floor(u / 12) + Math.floor(v / 12)) % 3 === 0 && u % 12 < 6 && v % 12 < 6) sharpPicture.data.set([30, 60, 230], (v * 256 + u) * 3);
      const jpeg = await sharp(Buffer.from(sharpPicture.data), { raw: { width: 256, height: 256, channels: 3 } })
        .resize(36, 36)
        .jpeg({ quality: 80, chromaSubsampling: '4:2:0' })
        .toBuffer();
      const seen = await sharp(jpeg).raw().toBuffer();
      const taught = await TileTemplates.enroll(catalog, 'c3');
      const camera = await TileTemplates.enroll(catalog, 'c3');
      expect(taught.usePicture(sharpPicture)).toBe(true);
      expect(camera.usePicture({ tileId: id, rot: 0, width: 36, height: 36, data: new Uint8Array(seen) })).toBe(true);
      // 0.0055–0.0061 with the picture's chroma as sharp as its luma, 0.0033–0.0037 at the camera's.
      for (let q = 0; q < 4; q++) expect(matchTemplate(camera.get(id, q)!, taught.get(id, q)!).d, `${id} at ${q * 90}°`).toBeLessThan(0.0045);
    }
  });

  it('a figure hypothesis on a pictured tile differs from the picture\'s template only where the figure stands', async () => {
    // The figure reader compares the two: a template softened otherwise than its figure hypothesis
    // (chroma blurred in one only) lost a fifth of the taught row's meeples.
    const pictured = await TileTemplates.enroll(catalog, 'c3');
    expect(pictured.usePicture(await pictureOf('BASE_J', 90, 'sketch', 128))).toBe(true);
    const clear = { width: 8, height: 8, data: new Uint8Array(8 * 8 * 4) };
    const red = { width: 8, height: 8, data: new Uint8Array(8 * 8 * 4).map((_, i) => (i % 4 === 0 || i % 4 === 3 ? 255 : 0)) };
    for (let q = 0; q < 4; q++) {
      const base = pictured.get('BASE_J', q)!;
      expect(Array.from(pictured.withFigure('BASE_J', q, clear, 0.5, 0.5, 0.3)!), `at ${q * 90}°`).toEqual(Array.from(base));
      const withRed = pictured.withFigure('BASE_J', q, red, 0.3, 0.3, 0.25)!;
      // Far from the figure (its own pixels, softening and chroma blur reach 2 pixels past it): unchanged.
      for (let v = 0; v < CROP_PX; v++)
        for (let u = 0; u < CROP_PX; u++) {
          if (Math.abs(u + 0.5 - 0.3 * CROP_PX) < 0.125 * CROP_PX + 3 && Math.abs(v + 0.5 - 0.3 * CROP_PX) < 0.125 * CROP_PX + 3) continue;
          const o = (v * CROP_PX + u) * 3;
          for (let k = 0; k < 3; k++) if (!Number.isNaN(base[o + k]!)) expect(withRed[o + k], `(${u}, ${v}) at ${q * 90}°`).toBeCloseTo(base[o + k]!, 3);
        }
    }
  });

  it('replaces the drawing of that type only, keeps the first picture, and refuses a picture that is not square RGB', async () => {
    const pictured = await TileTemplates.enroll(catalog, 'c3');
    // The table's art: another style's drawing stands for a printed tile.
    expect(pictured.usePicture(await pictureOf('BASE_D', 0, 'sketch'))).toBe(true);
    const sketched = await TileTemplates.enroll(catalog, 'sketch');
    expect(meanDiff(pictured.get('BASE_D', 1)!, sketched.get('BASE_D', 1)!)).toBeLessThan(meanDiff(drawn.get('BASE_D', 1)!, sketched.get('BASE_D', 1)!));
    expect(meanDiff(pictured.get('BASE_E', 2)!, drawn.get('BASE_E', 2)!)).toBe(0);
    expect(pictured.fromPicture('BASE_E')).toBe(false);
    const before = Float32Array.from(pictured.get('BASE_D', 0)!);
    expect(pictured.usePicture(await pictureOf('BASE_D', 0, 'c1'))).toBe(false);
    expect(Array.from(pictured.get('BASE_D', 0)!)).toEqual(Array.from(before));
    expect(pictured.usePicture({ tileId: 'NOT_A_TILE', rot: 0, width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) })).toBe(false);
    expect(() => pictured.usePicture({ tileId: 'BASE_A', rot: 0, width: 64, height: 60, data: new Uint8Array(64 * 60 * 3) })).toThrow(/BASE_A.*not a square RGB picture/);
  });

  it('holds a reading by a picture to the stricter fit only while a legal type that looks like it is not pictured', async () => {
    const pictured = await TileTemplates.enroll(catalog, 'c3');
    expect(pictured.usePicture(await pictureOf('BASE_Q', 0))).toBe(true);
    const reader = new CellReader(pictured, new FigureReader(pictured, []), null);
    const reading = (tile: string, q: number, d: number): Reading => ({ tile, q, d, match: { d, sx: 0, sy: 0, gain: [1, 1, 1] } });
    // Between the stricter gate (0.02) and the ordinary one (FIT_TRUSTED): trusted in full only by the ordinary gate.
    const d = (0.02 + FIT_TRUSTED) / 2;
    const top = reading('BASE_Q', 0, d);
    // Unpictured look-alikes: the same three-sided city without a pennant; with a road on the fourth side; four city caps for three.
    for (const [tile, q] of [['BASE_R', 0], ['BASE_T', 0], ['IC_H', 0]] as const)
      expect(reader.fitOf([top, reading(tile, q, 0.05)], catalog), `${tile} at ${q * 90}° unpictured`).toBeCloseTo(0.5, 5);
    // Legal types that do not look like it: a straight road; BASE_R turned so that its open side is elsewhere.
    for (const [tile, q] of [['BASE_U', 0], ['BASE_R', 1]] as const)
      expect(reader.fitOf([top, reading(tile, q, 0.05)], catalog), `${tile} at ${q * 90}° unpictured`).toBe(1);
    // Once the look-alike is pictured too, the ordinary gate.
    expect(pictured.usePicture(await pictureOf('BASE_R', 0))).toBe(true);
    expect(reader.fitOf([top, reading('BASE_R', 0, 0.05)], catalog)).toBe(1);
  });

  it('twins pictured both are compared where their pictures differ: the pennant decides, not a card cut a millimetre inside the tile', async () => {
    // The print of pennant twins is one illustration with a shield added (first edition's BASE_F and BASE_G).
    const plain = await pictureOf('BASE_G', 0);
    const shielded: TilePicture = { ...plain, tileId: 'BASE_F', data: Uint8Array.from(plain.data) };
    for (let v = 28; v < 36; v++) for (let u = 38; u < 46; u++) shielded.data.set(u < 42 ? [30, 60, 200] : [245, 245, 245], (v * 64 + u) * 3);
    // The table's BASE_F card was cut about a millimetre inside the tile on every side: its picture is the tile 5 % larger.
    const cutInside: TilePicture = { ...shielded, data: new Uint8Array(shielded.data.length) };
    for (let v = 0; v < 64; v++)
      for (let u = 0; u < 64; u++) {
        const su = Math.min(63, Math.max(0, Math.round(32 + (u + 0.5 - 32) / 1.05 - 0.5))), sv = Math.min(63, Math.max(0, Math.round(32 + (v + 0.5 - 32) / 1.05 - 0.5)));
        cutInside.data.set(shielded.data.subarray((sv * 64 + su) * 3, (sv * 64 + su) * 3 + 3), (v * 64 + u) * 3);
      }
    const twins = await TileTemplates.enroll(catalog, 'c3');
    expect(twins.usePicture(plain)).toBe(true);
    expect(twins.usePicture(cutInside)).toBe(true);
    // A BASE_F tile as the game camera sees it.
    const camera = await TileTemplates.enroll(catalog, 'c3');
    expect(camera.usePicture(shielded)).toBe(true);
    const tileF = camera.get('BASE_F', 0)!;
    const g = twins.get('BASE_G', 0)!, f = twins.get('BASE_F', 0)!;
    const mf = matchTemplate(tileF, f), mg = matchTemplate(tileF, g);
    // As whole pictures the twin without the shield fits the BASE_F tile better…
    expect(mg.d).toBeLessThan(mf.d);
    const masks = pictureDetailMasks(g, f)!;
    const size = (m: Uint8Array) => m.reduce((a, b) => a + b, 0);
    // …where the pictures differ (the shield's place, a few cell pixels, not the whole tile)…
    expect(size(masks.a)).toBeGreaterThan(0);
    expect(size(masks.a)).toBeLessThanOrEqual(0.06 * CROP_PX * CROP_PX);
    const shield = { u: Math.floor(((42 / 64 - 0.5) * (1 + 2 * PICTURE_MARGIN) + 0.5) * CROP_PX), v: Math.floor(((32 / 64 - 0.5) * (1 + 2 * PICTURE_MARGIN) + 0.5) * CROP_PX) };
    expect([-1, 0, 1].some((j) => [-1, 0, 1].some((i) => masks.a[(shield.v + j) * CROP_PX + shield.u + i] === 1))).toBe(true);
    // …the tile is BASE_F's.
    expect(maskedLumaDistance(tileF, f, mf, masks.b)).toBeLessThan(0.75 * maskedLumaDistance(tileF, g, mg, masks.a));

    // The cell reader: at a cell beside the start tile where both twins may lie, the F tile is read
    // BASE_F first, the two weighed by where they differ.
    const game = createGame(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }] }));
    expect(game.ok).toBe(true);
    const state = game.ok ? game.value.state : null!;
    const spots = [[0, -1], [1, 0], [0, 1], [-1, 0]].flatMap(([x, y]) => [0, 1, 2, 3].map((q) => ({ x: x!, y: y!, q })));
    const spot = spots.find(({ x, y, q }) => !placementProblem(state, state.catalog.view('BASE_F', q), x, y) && !placementProblem(state, state.catalog.view('BASE_G', q), x, y))!;
    expect(spot).toBeDefined();
    const crop = camera.get('BASE_F', spot.q)!;
    expect(matchTemplate(crop, twins.get('BASE_G', spot.q)!).d).toBeLessThan(matchTemplate(crop, twins.get('BASE_F', spot.q)!).d);
    const reader = new CellReader(twins, new FigureReader(twins, []), null);
    const readings = reader.read(state, crop, spot.x, spot.y);
    expect(readings[0]).toMatchObject({ tile: 'BASE_F' });
    expect(readings[1]).toMatchObject({ tile: 'BASE_G' });
    expect(readings[0]!.detail).toBeLessThan(readings[1]!.detail!);

    // The same tile turned half a turn: one reading to the rules (BASE_F is symmetric), its shield on
    // the other side. Where the whole-tile fit kept the other turn (at 25 px it may: first-edition
    // taught row, game 9202), the twins are still compared at every turn of each.
    const turned = camera.get('BASE_F', (spot.q + 2) % 4)!;
    const fAt = twins.get('BASE_F', spot.q)!, gAt = twins.get('BASE_G', (spot.q + 2) % 4)!;
    const atKeptTurns = pictureDetailMasks(fAt, gAt)!;
    // Compared only where the kept turns differ, the shield's side the cell does not show, BASE_G wins.
    expect(maskedLumaDistance(turned, gAt, matchTemplate(turned, gAt), atKeptTurns.b)).toBeLessThan(maskedLumaDistance(turned, fAt, matchTemplate(turned, fAt), atKeptTurns.a));
    const reading = (tile: string, q: number, tpl: CellCrop): Reading => { const match = matchTemplate(turned, tpl); return { tile, q, d: match.d, match }; };
    const kept = [reading('BASE_F', spot.q, fAt), reading('BASE_G', (spot.q + 2) % 4, gAt)];
    const compared = (reader as unknown as { byPictureDetail(st: typeof state, now: CellCrop, r: Reading[]): Reading[] }).byPictureDetail(state, turned, kept);
    expect(compared[0]).toMatchObject({ tile: 'BASE_F' });
    expect(compared[0]!.detail).toBeLessThan(0.75 * compared[1]!.detail!);
  });
});
