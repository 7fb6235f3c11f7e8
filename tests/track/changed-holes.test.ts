/**
 * Which holes changed between two still scenes (cell-crops.ts `changedCells`). On the holes of two
 * still scenes of the drawn held-out game 9101 (tests/fixtures/holes: each hole's last look and its
 * look now, as the tracker cut them, 22 px per cell on a wood-grain table), where laid neighbours'
 * edges reach into empty holes: no hole changed where no tile was laid, and only the tile's where one
 * was. On scenes the recordings' renderer draws at that scale: a neighbour laid askew is no tile in
 * the hole, a tile laid there is, and so is a field tile under a change of light.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { decodeFrame, frameToMat } from '../../calibration/frame.js';
import type { Homography } from '../../calibration/geometry.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { posKey } from '../../engine/geometry/position.js';
import { rasterise } from '../../models/render/rasterise.js';
import { styleByName } from '../../models/render/styles.js';
import { tileSvg } from '../../models/render/svg.js';
import { FACE_PX } from '../../models/scene/generate.js';
import { encodeScene, PITCH_MM, type Scene, type SceneTile } from '../../models/scene/render.js';
import { cellCrop, changedCells } from '../../models/track/cell-crops.js';
import { CROP_PX, type CellCrop } from '../../models/track/templates.js';

const PX_PER_MM = 22 / PITCH_MM;
const W = 480, H = 360;
const toImage: Homography = [PX_PER_MM, 0, W / 2, 0, PX_PER_MM, H / 2, 0, 0, 1];
/** Cells around the middle one, (0, 0), empty in the first scene. */
const HOLES = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [2, 0], [0, 2], [-2, 0], [0, -2], [2, 2], [-2, -2], [3, 0], [-3, 0], [3, 2], [-3, -2]] as const;

let cv: Cv;
const faces = new Map<string, Awaited<ReturnType<typeof rasterise>>>();

beforeAll(async () => {
  cv = await loadCv();
  const catalog = defaultCatalog();
  for (const id of ['BASE_E', 'BASE_B']) faces.set(id, await rasterise(tileSvg(catalog.get(id)!, styleByName('c3'), { variant: 1 }), FACE_PX));
});

/** The cells' crops of a scene of `tiles`, under the light given (gain per channel, left-to-right gradient). */
async function crops(tiles: SceneTile[], seed: number, light: Scene['light'] = [1, 1, 1], gradient = 0.08): Promise<(x: number, y: number) => CellCrop> {
  const scene: Scene = { width: W, height: H, tableToImage: toImage, tiles, sprites: [], markers: [], hand: null, light, gradient, noise: 2.5, blur: 0.5, jpegQuality: 60, seed };
  const frame = await decodeFrame(await encodeScene(scene));
  if (!frame.ok) throw new Error(frame.error.message);
  const mat = frameToMat(cv, frame.value);
  const cut = new Map<string, CellCrop>();
  for (const [x, y] of [...HOLES, [0, 0] as const]) cut.set(`${x},${y}`, cellCrop(cv, mat, toImage, x, y));
  mat.delete();
  return (x, y) => cut.get(`${x},${y}`)!;
}

const tile = (id: string, x: number, y: number, dx = 0, dy = 0, angle = 0): SceneTile => ({ x, y, q: 0, face: faces.get(id)!, dx, dy, angle });

describe('holes that changed since the last still scene', () => {
  it('a neighbour laid askew past its cell’s edge is no tile in the holes beside it; a tile laid in a hole is', async () => {
    // Before: the middle tile laid straight. Now: the same tile drifted 1.5 mm and turned 3°, as the
    // recordings lay tiles, with a tile laid in the hole east of it.
    const before = await crops([tile('BASE_E', 0, 0)], 1);
    const now = await crops([tile('BASE_E', 0, 0, 1.5, 1.5, (3 * Math.PI) / 180), tile('BASE_E', 2, 0)], 2);
    const looks = new Map(HOLES.map(([x, y]) => [posKey(x, y), before(x, y)] as const));
    const changed = changedCells(looks, now, true).map((c) => c.key);
    expect(changed).toEqual([posKey(2, 0)]);
  });

  it('a field tile on the brown table, under a change of light over the whole table, is a tile', async () => {
    const before = await crops([], 5);
    const now = await crops([tile('BASE_B', 1, 1)], 6, [0.86, 0.84, 0.74], 0.2);
    const looks = new Map(HOLES.map(([x, y]) => [posKey(x, y), before(x, y)] as const));
    expect(changedCells(looks, now, true).map((c) => c.key)).toEqual([posKey(1, 1)]);
  });
});

/** A still scene's holes from tests/fixtures/holes: their last looks and their looks now. */
async function holesOf(name: string): Promise<{ looks: Map<number, CellCrop>; now: (x: number, y: number) => CellCrop }> {
  const { cells } = JSON.parse(readFileSync(`tests/fixtures/holes/${name}.json`, 'utf8')) as { cells: [number, number][] };
  const { data, info } = await sharp(`tests/fixtures/holes/${name}.png`).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height, info.channels]).toEqual([cells.length * CROP_PX, 2 * CROP_PX, 3]);
  const cut = (i: number, row: number): CellCrop => {
    const c = new Float32Array(CROP_PX * CROP_PX * 3);
    for (let v = 0; v < CROP_PX; v++) for (let u = 0; u < CROP_PX * 3; u++) c[v * CROP_PX * 3 + u] = data[((row * CROP_PX + v) * info.width + i * CROP_PX) * 3 + u]!;
    return c;
  };
  const now = new Map(cells.map(([x, y], i) => [`${x},${y}`, cut(i, 1)] as const));
  return { looks: new Map(cells.map(([x, y], i) => [posKey(x, y), cut(i, 0)] as const)), now: (x, y) => now.get(`${x},${y}`)! };
}

describe('holes of a game on a wood-grain table (drawn held-out game 9101)', () => {
  it('where no tile was laid, none changed — though their whole crops did (neighbours’ edges in their borders)', async () => {
    const { looks, now } = await holesOf('9101-frame107');
    expect(changedCells(looks, now, false).map((c) => c.key)).toEqual(expect.arrayContaining([posKey(0, 4), posKey(4, 1)]));
    expect(changedCells(looks, now, true)).toEqual([]);
  });

  it('where a tile was laid, only its hole changed', async () => {
    const { looks, now } = await holesOf('9101-frame119');
    expect(changedCells(looks, now, false).map((c) => c.key)).toContain(posKey(0, 4));
    expect(changedCells(looks, now, true).map((c) => c.key)).toEqual([posKey(-1, -2)]);
  });
});
