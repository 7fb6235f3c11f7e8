import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { TERRAIN_CODES } from '../../models/classes.js';
import { labelRow } from '../../models/synth/dataset.js';
import { synthCrop, DEFAULT_CROP } from '../../models/synth/crop.js';
import { featuresFromEdges, FOREIGN_SET, loadForeignPrints } from '../../models/synth/foreign-prints.js';
import { PRINT_DIR } from '../../models/synth/print-faces.js';
import { FACE_PX, makeWorld } from '../../models/synth/world.js';
import { rng } from '../../models/render/random.js';
import type { Terrain } from '../../engine/catalog/types.js';
import type { TileFace } from '../../models/synth/crop.js';

const tiles = TileCatalog.classic().all();
const T = (s: string): Terrain[] => [...s].map((c) => ({ f: 'field', r: 'road', c: 'city', w: 'river' })[c] as Terrain);

describe("other expansions' first-edition prints (edges only)", () => {
  it('holds tiles the catalog does not have, each with twelve edge terrains', () => {
    const manifest = JSON.parse(readFileSync(`${PRINT_DIR}${FOREIGN_SET}/manifest.json`, 'utf8')) as { jczId: string; segments12: string[] }[];
    expect(manifest.length).toBe(214);
    const ids = new Set(tiles.map((t) => t.id));
    for (const e of manifest) {
      expect(ids.has(e.jczId), e.jczId).toBe(false);
      expect(e.segments12.length, e.jczId).toBe(12);
      for (const s of e.segments12) expect(TERRAIN_CODES, e.jczId).toContain(s);
    }
  });

  it('makes one feature per run of equal edge terrain, around the corner too', () => {
    // A road N–S between two fields, cities east: fields wrap from W2 round to N0.
    const f = featuresFromEdges(T('frfcccfrffff'));
    expect(f.map((x) => `${x.kind}:${x.segments.join(',')}`)).toEqual(['road:1', 'field:2', 'city:3,4,5', 'field:6', 'road:7', 'field:8,9,10,11,0']);
    expect(featuresFromEdges(T('cccccccccccc')).map((x) => x.segments.length)).toEqual([12]);
    // Every segment in exactly one feature.
    for (const s of ['frfcccfrffff', 'rrrrrrrrrrrr', 'fffwwwfffwww']) expect(featuresFromEdges(T(s)).flatMap((x) => x.segments).sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
  });

  it('labels a crop of one with its edges turned as laid, and a tile index past the catalog (no type)', async () => {
    const foreign = await loadForeignPrints(tiles.length, { copies: 2, seed: 3 });
    expect(foreign.tiles.length).toBe(214);
    expect(foreign.faces.length).toBe(428);
    expect(foreign.faces.every((f) => f.tileIndex >= tiles.length && f.image.width === FACE_PX)).toBe(true);
    const drawn: TileFace[] = [{ image: { width: 1, height: 1, data: new Uint8Array([0, 200, 0, 255]) }, tileIndex: 0, baseQ: 0 }];
    // share 1: every tile is a foreign print.
    const world = makeWorld(tiles, [[], [], []].map(() => Array(6).fill({ width: 1, height: 1, data: new Uint8Array(4) })), drawn, drawn, undefined, { ...foreign, share: 1 });
    let seen = 0;
    for (let seed = 1; seen < 20; seed++) {
      const crop = synthCrop(world, seed, { ...DEFAULT_CROP, handProb: 0 });
      const row = labelRow(crop);
      if (!crop.labels.present) continue;
      seen++;
      const t = world.tiles[crop.labels.tileIndex]!;
      expect(crop.labels.tileIndex).toBeGreaterThanOrEqual(tiles.length);
      const turned = Array.from({ length: 12 }, (_, i) => TERRAIN_CODES.indexOf(t.segments[(i + 12 - 3 * crop.labels.q) % 12]!));
      expect(row.slice(4, 16)).toEqual(turned);
      if (crop.labels.meeple) expect(crop.labels.meepleSegment).toBeGreaterThanOrEqual(0);
    }
  });

  it('stands them in for a share of the tiles, centre and neighbours alike, with no draw when absent', () => {
    const face = (tileIndex: number, tag: number): TileFace => ({ image: { width: 1, height: 1, data: new Uint8Array([tag, 0, 0, 255]) }, tileIndex, baseQ: 0 });
    const drawn = [face(0, 1), face(1, 2)];
    const other = [face(tiles.length, 3)];
    const stub = { tiles: [tiles[0]!], layouts: [makeWorld(tiles, [], drawn).layouts[0]!], faces: other };
    const mixed = makeWorld(tiles, [], drawn, drawn, undefined, { ...stub, share: 0.25 });
    expect(mixed.tiles.length).toBe(tiles.length + 1);
    const r = rng(9);
    let centre = 0, neighbour = 0;
    for (let i = 0; i < 4000; i++) {
      if (mixed.centreFace(r) === other[0]) centre++;
      if (mixed.neighbourFace(r) === other[0]) neighbour++;
    }
    expect(centre / 4000).toBeCloseTo(0.25, 1);
    expect(neighbour / 4000).toBeCloseTo(0.25, 1);
    // Without them a world makes exactly the draws it made before (the recipe's data byte for byte).
    const plain = makeWorld(tiles, [], drawn);
    const r1 = rng(5), r2 = rng(5);
    for (let i = 0; i < 50; i++) expect(plain.centreFace(r1)).toBe(drawn[Math.floor(r2() * drawn.length)]);
  });
});
