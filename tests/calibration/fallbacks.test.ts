import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { applyHomography, invertHomography, type Homography, type Point } from '../../calibration/geometry.js';
import { FORTRESS_2X6, FORTRESS_4X3, homographyFromCorners, homographyFromStartPiece, START_TILE, TOURNAMENT_TILE, type KnownPiece } from '../../calibration/fallbacks.js';
import { cameraHomography, drawTile, emptyTable, randomPose, rng, shoot, type TableRaster } from './synthetic.js';

let cv: Cv;
const rasters: TableRaster[] = [];
beforeAll(async () => {
  cv = await loadCv();
});
afterAll(() => rasters.forEach((r) => r.mat.delete()));

/** Largest table error (mm) over a region, comparing truth with an estimate in the same table frame. */
function errorOver(truth: Homography, estimate: Homography, min: Point, max: Point): number {
  const back = invertHomography(estimate);
  let worst = 0;
  for (let x = min.x; x <= max.x; x += (max.x - min.x) / 10)
    for (let y = min.y; y <= max.y; y += (max.y - min.y) / 10) {
      const q = applyHomography(back, applyHomography(truth, { x, y }));
      worst = Math.max(worst, Math.hypot(q.x - x, q.y - y));
    }
  return worst;
}

describe('manual four-corner fallback', () => {
  const truth = cameraHomography(randomPose(rng(5), { x: 105, y: 148 }, { heightMm: 600, tiltDeg: 20 }));
  const paper = { widthMm: 210, heightMm: 297 };
  const clicks = [{ x: 0, y: 0 }, { x: 210, y: 0 }, { x: 210, y: 297 }, { x: 0, y: 297 }].map((p) => applyHomography(truth, p));

  it('four exact clicks give the exact homography, clicked either way round', () => {
    for (const order of [clicks, [clicks[0]!, clicks[3]!, clicks[2]!, clicks[1]!]]) {
      const res = homographyFromCorners(order, paper);
      expect(res.ok).toBe(true);
      if (res.ok) expect(errorOver(truth, res.value.tableToImage, { x: 0, y: 0 }, { x: 210, y: 297 })).toBeLessThan(1e-6);
    }
  });

  it('rejects three points, a point that is not a number, and crossed or collinear clicks', () => {
    const three = homographyFromCorners(clicks.slice(0, 3), paper);
    expect(!three.ok && three.error.message).toContain('exactly 4');
    const nan = homographyFromCorners([clicks[0]!, { x: NaN, y: 1 }, clicks[2]!, clicks[3]!], paper);
    expect(!nan.ok && nan.error.message).toContain('corner 2');
    const crossed = homographyFromCorners([clicks[0]!, clicks[2]!, clicks[1]!, clicks[3]!], paper);
    expect(!crossed.ok && crossed.error.kind).toBe('degenerate-points');
    const line = homographyFromCorners([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 20, y: 0 }, { x: 30, y: 1 }], paper);
    expect(line.ok).toBe(false);
  });
});

describe('start-piece fallback (no markers)', () => {
  const cases: [string, KnownPiece, number][] = [
    ['start tile, overhead', START_TILE, 1],
    ['start tile, tilted', START_TILE, 2],
    ['tournament tile 2×3', TOURNAMENT_TILE, 3],
    ['fortress pair 4×3', FORTRESS_4X3, 4],
    ['fortress pair 2×6', FORTRESS_2X6, 5],
  ];
  it.each(cases)('%s: plane recovered within 1 mm over the piece', (_n, piece, seed) => {
    const r = rng(100 + seed);
    const table = emptyTable(cv, { x: -700, y: -500 }, { x: 700 + piece.widthMm, y: 500 + piece.heightMm }, 2.5, seed);
    rasters.push(table);
    // The piece at the table origin, lying square (the table frame is defined by the piece).
    drawTile(cv, table, { centre: { x: piece.widthMm / 2, y: piece.heightMm / 2 }, angleDeg: 0, widthMm: piece.widthMm, heightMm: piece.heightMm, seed });
    const pose = randomPose(r, { x: piece.widthMm / 2 + 40, y: piece.heightMm / 2 - 30 }, seed === 1 ? { tiltDeg: 3 } : { tiltDeg: 15 + r() * 15 });
    const truth = cameraHomography(pose);
    const shot = shoot(cv, table, truth, pose.width, pose.height, { seed, noiseSigma: 3 });
    const res = homographyFromStartPiece(cv, shot, piece);
    expect(res.ok, res.ok ? '' : res.error.message).toBe(true);
    if (!res.ok) return;
    // The piece's own frame is only known up to its symmetry: compare against each symmetric pose.
    const w = piece.widthMm, h = piece.heightMm;
    const syms: Homography[] = w === h
      ? [[1, 0, 0, 0, 1, 0, 0, 0, 1], [0, -1, w, 1, 0, 0, 0, 0, 1], [-1, 0, w, 0, -1, h, 0, 0, 1], [0, 1, 0, -1, 0, h, 0, 0, 1]]
      : [[1, 0, 0, 0, 1, 0, 0, 0, 1], [-1, 0, w, 0, -1, h, 0, 0, 1]];
    const errs = syms.map((s) => {
      const est = res.value.tableToImage;
      // est ∘ s maps the true frame into the image if s relabels the piece's corners.
      const composed = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => [0, 1, 2].reduce((acc, k) => acc + est[i * 3 + k]! * s[k * 3 + j]!, 0))) as Homography;
      // One piece's four corners pin the plane well over the piece only; beyond it the perspective
      // terms are weak, which is why the lattice refits the plane to every known tile (lattice.ts).
      return errorOver(truth, composed, { x: 0, y: 0 }, { x: w, y: h });
    });
    expect(Math.min(...errs), `errors ${errs.map((e) => e.toFixed(2))}`).toBeLessThan(1);
  });

  it('an empty table gives start-piece-not-found naming the piece', () => {
    const table = emptyTable(cv, { x: -250, y: -250 }, { x: 250, y: 250 }, 2, 9);
    rasters.push(table);
    const pose = randomPose(rng(9), { x: 0, y: 0 }, { heightMm: 600 });
    const res = homographyFromStartPiece(cv, shoot(cv, table, cameraHomography(pose), 960, 540), START_TILE);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.kind).toBe('start-piece-not-found');
      expect(res.error.message).toContain('start tile');
    }
  });
});
