/**
 * What lay over a taught tile (issue 30, part 2: "the part a figure or hand covers is left out"),
 * found by the other copies of its type (models/teach/covered.ts): on pictures made here, then on
 * a teach frame of first-edition scans (the tuning art) read by the real model, with a figure
 * standing on one copy.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { SHOWN_FACE, SHOWN_PX } from '../../models/photo/read.js';
import { matchCorners } from '../../models/photo/synthetic.js';
import { pieceSvg } from '../../models/render/pieces.js';
import { rasterise } from '../../models/render/rasterise.js';
import { TileRecognizer } from '../../models/runner.js';
import type { Rgba } from '../../models/synth/image.js';
import { printFacesByTile } from '../../models/synth/print-faces.js';
import { coveredMasks, type CopyPicture } from '../../models/teach/covered.js';
import { readTeachFrame } from '../../models/teach/read.js';
import { makeTeachScene } from '../../models/teach/scene.js';
import { TeachSession } from '../../models/teach/session.js';

const S = SHOWN_PX;
const span = SHOWN_FACE.to - SHOWN_FACE.from;
/** A picture px of the face at tile units (u, v), 0–1. */
const px = (u: number, v: number) => ({ x: Math.floor(SHOWN_FACE.from + u * span), y: Math.floor(SHOWN_FACE.from + v * span) });

/** A made-up tile face: quadrants of four colours and a stripe, the same for every copy. */
function face(rotation: CopyPicture['rotation'], light = 1): Uint8Array {
  const rgb = new Uint8Array(S * S * 3).fill(90);
  const colours = [[70, 140, 60], [200, 170, 110], [120, 120, 130], [60, 100, 170]];
  for (let v = 0; v < S; v++)
    for (let u = 0; u < S; u++) {
      let x = (u + 0.5 - SHOWN_FACE.from) / span - 0.5, y = (v + 0.5 - SHOWN_FACE.from) / span - 0.5;
      if (Math.abs(x) >= 0.5 || Math.abs(y) >= 0.5) continue;
      // The picture's point back in the catalog frame (the tile lies turned `rotation` clockwise).
      for (let t = 0; t < rotation / 90; t++) [x, y] = [y, -x];
      const c = Math.abs(y) < 0.04 ? [230, 225, 210] : colours[(x < 0 ? 0 : 1) + (y < 0 ? 0 : 2)]!;
      for (let k = 0; k < 3; k++) rgb[(v * S + u) * 3 + k] = Math.min(255, c[k]! * light);
    }
  return rgb;
}

/** A red disc of radius r (tile units) at (u, v) of the picture: a figure seen from above. */
function withFigure(rgb: Uint8Array, u: number, v: number, r = 0.13): Uint8Array {
  const out = Uint8Array.from(rgb);
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++) {
      const tu = (x + 0.5 - SHOWN_FACE.from) / span, tv = (y + 0.5 - SHOWN_FACE.from) / span;
      if (Math.hypot(tu - u, tv - v) < r) out.set([200, 30, 35], (y * S + x) * 3);
    }
  return out;
}

const leftOut = (m: Uint8Array | null, p: { x: number; y: number }) => !!m && m[p.y * S + p.x] === 0;
const share = (m: Uint8Array | null) => (m ? m.filter((a) => a === 0).length / (span * span) : 0);

describe('covered parts of taught pictures', () => {
  it('leave out a figure found on one of three copies (each under its own light and turn), and nothing of the others', () => {
    const copies: CopyPicture[] = [
      { rgb: withFigure(face(90, 0.8), 0.3, 0.6), rotation: 90 },
      { rgb: face(0, 1.1), rotation: 0 },
      { rgb: face(270), rotation: 270 },
    ];
    const [a, b, c] = coveredMasks(copies);
    expect(leftOut(a!, px(0.3, 0.6))).toBe(true);
    // The figure's disc (5 % of the face) and a rim: not much more.
    expect(share(a!)).toBeGreaterThan(0.04);
    expect(share(a!)).toBeLessThan(0.15);
    expect(leftOut(a!, px(0.75, 0.25))).toBe(false);
    expect(b).toBeNull();
    expect(c).toBeNull();
  });

  it('with two copies, leave the figure out of the copy it stands on (its colours are nowhere near on the other); with one copy, nothing', () => {
    const [a, b] = coveredMasks([{ rgb: face(0), rotation: 0 }, { rgb: withFigure(face(180), 0.7, 0.3), rotation: 180 }]);
    expect(leftOut(b!, px(0.7, 0.3))).toBe(true);
    expect(share(b!)).toBeGreaterThan(0.04);
    // The same place on the tile in the other copy's picture (turned half round there) is kept: the
    // tile's own colours ring the figure on the copy it stands on.
    expect(leftOut(a, px(0.3, 0.7))).toBe(false);
    expect(coveredMasks([{ rgb: withFigure(face(0), 0.5, 0.5), rotation: 0 }])).toEqual([null]);
  });

  it('leave nothing out of copies alike but for a small misfit of their outlines', () => {
    // A copy cut 1.5 mm (3 % of the side) off: the art's lines differ along a sliver, not a patch.
    const upright = face(0);
    const shifted = new Uint8Array(S * S * 3);
    const d = Math.round(0.03 * span);
    for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) for (let k = 0; k < 3; k++) shifted[(y * S + x) * 3 + k] = upright[(Math.min(S - 1, y + d) * S + Math.min(S - 1, x + d)) * 3 + k]!;
    expect(coveredMasks([{ rgb: face(0), rotation: 0 }, { rgb: shifted, rotation: 0 }, { rgb: face(90), rotation: 90 }])).toEqual([null, null, null]);
  });
});

describe('covered parts in a teach', () => {
  let faces: Map<string, Rgba>;
  let recognizer: TileRecognizer;
  beforeAll(async () => {
    faces = await printFacesByTile(TileCatalog.classic().all().map((t) => t.id));
    recognizer = await TileRecognizer.load();
  }, 60_000);

  it('a figure standing on one of three copies of a type is left out of that copy’s taught picture', async () => {
    const ids = ['BASE_E', 'BASE_E', 'BASE_E', 'BASE_U', 'BASE_D'];
    const figure = await rasterise(pieceSvg('meeple', 'red'), 48);
    // Seed 36: one figure, standing on a copy of BASE_E; all five tiles found within 2 mm.
    const scene = await makeTeachScene({ seed: 36, tiles: ids.map((id) => ({ face: faces.get(id)!, label: id })), figure, figureProb: 1, tableColour: [110, 112, 118], format: 'png' });
    const read = await readTeachFrame(recognizer, scene.bytes, { edition: 'C1', expansions: ['base'] });
    if (!read.ok) throw new Error(read.reason);
    const session = new TeachSession();
    session.addFrame(read.value);
    // The table answers each card with its true tile and turn.
    const figureOn: number[] = [];
    for (const c of session.cards) {
      const t = scene.tiles.find((x) => matchCorners(c.corners, x.corners).error * 45 <= 2);
      if (!t || c.why) continue;
      session.correct(c.id, t.label, (((4 - matchCorners(c.corners, t.corners).shift) % 4) * 90) as CopyPicture['rotation']);
      if (t.coveredBy === 'figure') figureOn.push(c.id);
    }
    const taught = session.taught();
    expect(taught.filter((t) => t.tileId === 'BASE_E')).toHaveLength(3);
    expect(figureOn).toHaveLength(1);
    for (const t of taught) {
      if (t.cardId === figureOn[0]) {
        expect(t.tileId).toBe('BASE_E');
        expect(share(t.alpha)).toBeGreaterThan(0.02);
      } else expect(share(t.alpha), `${t.tileId} (card ${t.cardId}) has nothing on it`).toBeLessThan(0.01);
    }
  }, 60_000);
});
