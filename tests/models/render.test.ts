import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { symmetryTurns, turnedSegments } from '../../models/classes.js';
import { distToPolyline, layoutTile, pointInPolygon, segmentPoint } from '../../models/render/layout.js';
import { mixSeed, rng } from '../../models/render/random.js';
import { PIECE_COLORS, pieceSvg } from '../../models/render/pieces.js';
import { provisionalSvg } from '../../models/render/provisional2025.js';
import { rasterise } from '../../models/render/rasterise.js';
import { ALL_STYLES, HELD_OUT_STYLE, TRAIN_STYLES } from '../../models/render/styles.js';
import { placedTileSvg, tileSvg } from '../../models/render/svg.js';
import { DEFAULT_CROP, synthCrop } from '../../models/synth/crop.js';
import { makeWorld, renderFaces, renderSprites } from '../../models/synth/world.js';

const catalog = TileCatalog.classic();
const tiles = catalog.all();

describe('tile renderer', () => {
  it('draws every catalog tile in every style as SVG that rasterises', async () => {
    for (const style of ALL_STYLES) {
      for (const t of tiles) {
        const svg = tileSvg(t, style, { variant: 1 });
        expect(svg.startsWith('<svg')).toBe(true);
        expect(svg).toContain(`data-tile="${t.id}"`);
      }
    }
    const r = await rasterise(tileSvg(catalog.get('IC_K')!, TRAIN_STYLES[0]!), 48);
    expect(r.width).toBe(48);
    expect(r.data.length).toBe(48 * 48 * 4);
  });

  it('draws a wall between two fields that no road or city separates (IC_G), and none elsewhere', () => {
    const icg = layoutTile(catalog.get('IC_G')!);
    expect(icg.fieldWalls).toHaveLength(1);
    const [from, to] = icg.fieldWalls[0]!;
    expect(from).toEqual([100, 100]); // between E2 and S0: the south-east corner
    const cityWall = icg.cities[0]!.walls[0]!;
    expect(Math.min(...cityWall.map((p) => Math.hypot(p[0] - to![0], p[1] - to![1])))).toBeLessThan(10);
    for (const t of tiles.filter((x) => !['IC_G', 'TOWER_CcRx'].includes(x.id))) expect(layoutTile(t).fieldWalls, t.id).toHaveLength(0);
    // Otherwise IC_G has BASE_E's shape: the wall is what tells the two apart.
    const style = TRAIN_STYLES[0]!;
    const plain = tileSvg(catalog.get('BASE_E')!, style, { variant: 3 }).replace('BASE_E', 'IC_G');
    expect(tileSvg(catalog.get('IC_G')!, style, { variant: 3 })).not.toBe(plain);
  });

  it('turns a placed tile clockwise by its rotation', async () => {
    const t = catalog.get('BASE_E')!; // city on N; turned 90° the city is on E
    const flat = { ...TRAIN_STYLES[3]!, decorations: 0 };
    const turned = await rasterise(placedTileSvg(t, flat, 90), 100);
    const plain = await rasterise(tileSvg(t, flat), 100);
    const byHand = new Uint8Array(plain.data.length);
    for (let y = 0; y < 100; y++)
      for (let x = 0; x < 100; x++)
        for (let c = 0; c < 4; c++) byHand[(x * 100 + (99 - y)) * 4 + c] = plain.data[(y * 100 + x) * 4 + c]!;
    let diff = 0;
    for (let i = 0; i < byHand.length; i++) diff += Math.abs(byHand[i]! - turned.data[i]!);
    expect(diff / byHand.length).toBeLessThan(4);
    let unturned = 0;
    for (let i = 0; i < byHand.length; i++) unturned += Math.abs(plain.data[i]! - turned.data[i]!);
    expect(unturned / byHand.length).toBeGreaterThan(10);
  });

  it('never lets training or the synthesizer read the real-art scans', () => {
    for (const f of ['train/make-data.ts', 'train/train.py', 'synth/crop.ts', 'synth/dataset.ts', 'synth/world.ts', 'synth/splits.ts', 'synth/print-faces.ts']) {
      const src = readFileSync(new URL(`../../models/${f}`, import.meta.url), 'utf8');
      expect(src, f).not.toMatch(/realart/);
    }
  });

  it('keeps the held-out style out of the training styles', () => {
    expect(TRAIN_STYLES.map((s) => s.name)).not.toContain(HELD_OUT_STYLE.name);
  });

  it('draws what the catalog says at the tile edges: city colour on city segments, field elsewhere', async () => {
    const style = TRAIN_STYLES[3]!; // flat style: no field texture to confuse the probe
    const fieldAt: Record<string, [number, number]> = { BASE_E: [50, 97], BASE_R: [50, 97], BASE_H: [50, 50] };
    for (const id of Object.keys(fieldAt)) {
      const t = catalog.get(id)!;
      const r = await rasterise(tileSvg(t, { ...style, decorations: 0 }, { variant: 0 }), 100);
      const at = (x: number, y: number) => [...r.data.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 3)];
      const field = at(...fieldAt[id]!);
      // Probe just inside each side's first segment (a third along), where roads never run.
      const probes: [number, number][] = [[18, 4], [95, 18], [82, 95], [4, 82]];
      for (let s = 0; s < 4; s++) {
        const isCity = t.segments[s * 3] === 'city';
        const px = at(...probes[s]!);
        const dist = Math.hypot(px[0]! - field[0]!, px[1]! - field[1]!, px[2]! - field[2]!);
        if (isCity) expect(dist, `${id} side ${s} should show city`).toBeGreaterThan(30);
        else expect(dist, `${id} side ${s} should show field`).toBeLessThan(30);
      }
    }
  });

  it('draws the committed model\'s training faces byte for byte as they were (plain, and varied without varied marks)', () => {
    // The committed model was trained on these drawings (`npm run train` must reproduce its data).
    const plain = createHash('sha256');
    for (const t of tiles) for (const v of [0, 3, 11]) for (const st of ALL_STYLES) plain.update(tileSvg(t, st, { variant: v }));
    expect(plain.digest('hex')).toBe('cbdf20630f8c52fb626135d89caca50cf50f58a55851ffef211b71266271dc18');
    const varied = createHash('sha256');
    for (const t of tiles) for (const v of [3, 11]) for (const movePennants of [false, true]) varied.update(tileSvg(t, TRAIN_STYLES[v % TRAIN_STYLES.length]!, { variant: v, vary: true, movePennants }));
    expect(varied.digest('hex')).toBe('51cfacbd563501fe8e9ff659996e5fa1ad09cb7c28caed7f45fef10848265c11');
  });

  it('with paint, draws about three varied faces in four through a paint filter that mottles the fills and keeps the drawing', async () => {
    let painted = 0;
    const n = 80;
    for (let v = 0; v < n; v++) {
      const t = tiles[v % tiles.length]!;
      const st = TRAIN_STYLES[v % TRAIN_STYLES.length]!;
      const flat = tileSvg(t, st, { variant: v, vary: true });
      const svg = tileSvg(t, st, { variant: v, vary: true, paint: true });
      expect(tileSvg(t, st, { variant: v, vary: true, paint: true }), 'deterministic').toBe(svg);
      // Only with `vary`: the display's and the bench's plain drawings never change.
      expect(tileSvg(t, st, { variant: v, paint: true })).toBe(tileSvg(t, st, { variant: v }));
      if (svg === flat) continue;
      painted++;
      // The same drawing, wrapped in the filter: nothing moves or changes colour in the SVG itself.
      const unwrapped = svg.replace(/<defs><filter id="paint-\d+".*?<\/filter><\/defs><g filter="url\(#paint-\d+\)">/, '').replace(/<\/g><\/g><\/svg>$/, '</g></svg>');
      expect(unwrapped, t.id).toBe(flat);
    }
    expect(painted / n).toBeGreaterThan(0.6);
    expect(painted / n).toBeLessThan(0.9);
    // Rasterised, a painted flat field is mottled (more pixel-to-pixel change) at about the same mean colour.
    const field = tiles.find((t) => t.id === 'BASE_B')!;
    const v = Array.from({ length: 20 }, (_, i) => i).find((i) => tileSvg(field, TRAIN_STYLES[3]!, { variant: i, vary: true, paint: true }) !== tileSvg(field, TRAIN_STYLES[3]!, { variant: i, vary: true }))!;
    const stats = async (paint: boolean) => {
      const r = await rasterise(tileSvg(field, TRAIN_STYLES[3]!, { variant: v, vary: true, paint }), 96);
      let sum = 0;
      let diff = 0;
      // The north-west quarter: field only (the cloister sits in the middle).
      for (let y = 4; y < 30; y++)
        for (let x = 4; x < 30; x++) {
          const i = (y * 96 + x) * 4 + 1;
          sum += r.data[i]!;
          diff += Math.abs(r.data[i]! - r.data[i + 4]!);
        }
      return { mean: sum / 26 / 26, change: diff / 26 / 26 };
    };
    const [before, after] = [await stats(false), await stats(true)];
    expect(Math.abs(after.mean - before.mean)).toBeLessThan(25);
    expect(after.change).toBeGreaterThan(before.change);
  });

  it('with varied marks, draws pennants, cloisters, gardens, cathedrals and inns in several forms and changes nothing else', () => {
    const marked = (t: (typeof tiles)[number]) => {
      const l = layoutTile(t);
      return l.cities.some((c) => c.pennants > 0 || c.cathedral) || l.paths.some((p) => p.inn) || l.interiors.some((i) => i.kind === 'cloister' || i.kind === 'garden');
    };
    let withMarks = 0;
    for (const t of tiles) {
      const forms = new Set<string>();
      for (let v = 0; v < 12; v++) {
        const options = { variant: v, vary: true, movePennants: false } as const;
        const a = tileSvg(t, TRAIN_STYLES[v % TRAIN_STYLES.length]!, options);
        const b = tileSvg(t, TRAIN_STYLES[v % TRAIN_STYLES.length]!, { ...options, varyMarks: true });
        if (!marked(t)) expect(b, t.id).toBe(a);
        forms.add(b === a ? 'as before' : 'other');
        // Only with `vary`: the display's and the bench's plain drawings never change.
        expect(tileSvg(t, TRAIN_STYLES[0]!, { variant: v, varyMarks: true })).toBe(tileSvg(t, TRAIN_STYLES[0]!, { variant: v }));
      }
      if (marked(t)) {
        withMarks++;
        expect(forms, `${t.id} drawn in more than one form`).toContain('other');
      }
    }
    expect(withMarks).toBeGreaterThan(30);
    // Over enough variants a cloister comes in each of its three forms.
    const cloisterTile = tiles.find((t) => t.id === 'BASE_B')!;
    const seen = new Set<string>();
    for (let v = 0; v < 24; v++) {
      const svg = tileSvg(cloisterTile, TRAIN_STYLES[0]!, { variant: v, vary: true, movePennants: false, varyMarks: true });
      seen.add(svg.includes('h10v7h8') ? 'church' : svg.includes('rx="2" fill="none"') ? 'chapel' : 'court');
    }
    expect([...seen].sort()).toEqual(['chapel', 'church', 'court']);
  });

  it('varies the geometry for training while every tile keeps its structure, and leaves the plain drawing alone', () => {
    for (const t of tiles) {
      const plain = layoutTile(t);
      expect(tileSvg(t, TRAIN_STYLES[1]!, { variant: 5, vary: false })).toBe(tileSvg(t, TRAIN_STYLES[1]!, { variant: 5 }));
      const seen = new Set<string>();
      for (let v = 0; v < 12; v++) {
        const varied = layoutTile(t, rng(mixSeed(v, 0x1a7)));
        seen.add(JSON.stringify(varied));
        expect(varied.cities.map((c) => c.featureId), t.id).toEqual(plain.cities.map((c) => c.featureId));
        for (const [k, c] of varied.cities.entries()) {
          const f = t.features.find((x) => x.id === c.featureId)!;
          // Each of the city's edge segments still lies inside it, and each other segment outside it.
          for (let i = 0; i < 12; i++) expect(pointInPolygon(segmentPoint(i, 1.5), c.outline), `${t.id} ${c.featureId} segment ${i}`).toBe(f.segments.includes(i));
          expect(pointInPolygon(c.anchor, c.outline), `${t.id} pennant spot`).toBe(true);
          if (f.pennants > 0 && c.sides.length > 1) for (const w of c.walls) expect(distToPolyline(c.anchor, w), `${t.id} pennant clear of the wall`).toBeGreaterThan(10);
          expect(c.sides).toEqual(plain.cities[k]!.sides);
        }
        // Roads and rivers still meet the edge where the catalog puts them.
        for (const [k, p] of varied.paths.entries()) {
          expect(p.points[0]).toEqual(plain.paths[k]!.points[0]);
          if (p.ends === 2) expect(p.points[p.points.length - 1]).toEqual(plain.paths[k]!.points[plain.paths[k]!.points.length - 1]);
        }
        expect(varied.interiors.map((i) => i.kind)).toEqual(plain.interiors.map((i) => i.kind));
      }
      if (plain.cities.length + plain.interiors.length + plain.paths.filter((p) => p.ends === 2).length > 0) expect(seen.size, t.id).toBeGreaterThan(8);
      // Asked to leave the pennants be, a city's pennant stays about where the plain drawing has it.
      for (let v = 0; v < 6; v++) {
        const kept = layoutTile(t, rng(mixSeed(v, 0x1a7)), { movePennants: false });
        for (const [k, c] of kept.cities.entries()) {
          if (c.sides.length < 2) continue;
          expect(pointInPolygon(c.anchor, c.outline)).toBe(true);
          expect(Math.hypot(c.anchor[0] - plain.cities[k]!.anchor[0], c.anchor[1] - plain.cities[k]!.anchor[1]), t.id).toBeLessThan(6);
        }
      }
    }
  });

  it('draws meeples, big meeples, abbots, tower floors and catapults in six colours, and provisional 2025 pieces', async () => {
    expect(PIECE_COLORS).toHaveLength(6);
    for (const k of ['meeple', 'big', 'abbot', 'tower-floor', 'catapult'] as const)
      for (const c of PIECE_COLORS) expect(pieceSvg(k, c)).toContain('<svg');
    for (const p of [
      { kind: 'tournament', cols: 2, rows: 1 },
      { kind: 'fortress', cols: 2, rows: 2 },
      { kind: 'prize', statue: true },
      { kind: 'siege-symbol', post: 'any' },
    ] as const) {
      const svg = provisionalSvg(p);
      expect(svg).toContain('data-provisional="true"');
      expect((await rasterise(svg, 40)).width).toBe(40);
    }
  });

  it('keeps the SVG generators free of Node APIs so the display can reuse them', () => {
    for (const f of ['svg.ts', 'layout.ts', 'styles.ts', 'pieces.ts', 'provisional2025.ts', 'random.ts']) {
      const src = readFileSync(new URL(`../../models/render/${f}`, import.meta.url), 'utf8');
      expect(src, f).not.toMatch(/from 'node:|from 'sharp'|require\(/);
    }
  });
});

describe('symmetry and segments', () => {
  it('finds the topological symmetry of tiles', () => {
    expect(symmetryTurns(catalog.get('BASE_B')!)).toEqual([0, 1, 2, 3]);
    expect(symmetryTurns(catalog.get('BASE_U')!)).toEqual([0, 2]);
    expect(symmetryTurns(catalog.get('BASE_D')!)).toEqual([0]);
    expect(turnedSegments(catalog.get('BASE_E')!, 1).slice(3, 6)).toEqual(['city', 'city', 'city']);
  });
});

describe('crop synthesizer', () => {
  it('is deterministic from a seed and labels the crop frame', async () => {
    const faces = await renderFaces(tiles.slice(0, 6), [TRAIN_STYLES[0]!], [0]);
    const world = makeWorld(tiles.slice(0, 6), await renderSprites(), faces);
    const a = synthCrop(world, 1234, DEFAULT_CROP);
    const b = synthCrop(world, 1234, DEFAULT_CROP);
    const c = synthCrop(world, 1235, DEFAULT_CROP);
    expect(Buffer.from(a.rgb).equals(Buffer.from(b.rgb))).toBe(true);
    expect(Buffer.from(a.rgb).equals(Buffer.from(c.rgb))).toBe(false);
    const forced = synthCrop(world, 99, { ...DEFAULT_CROP, centreQ: 1, forcePresent: true, meepleProb: 0 });
    expect(forced.labels.present).toBe(true);
    expect(forced.labels.q).toBe(1);
    const t = tiles[forced.labels.tileIndex]!;
    expect(forced.labels.seg12).toEqual(turnedSegments(t, 1).map((s) => ['field', 'road', 'city', 'river'].indexOf(s)));
  });

  it('with markCover, stands the cell tile\'s figures on cities, cloisters and gardens; without it, draws the crops as they were', async () => {
    const world = makeWorld(tiles, await renderSprites(), await renderFaces(tiles, [TRAIN_STYLES[0]!], [0]));
    // The committed model's data: crops without the option must keep their bytes (no extra random draw).
    const before = createHash('sha256');
    for (let i = 0; i < 200; i++) before.update(synthCrop(world, 5000 + i, DEFAULT_CROP).rgb);
    expect(before.digest('hex')).toBe('0a5874e8694f039b536e1eb06b515c215b0ad4c828aa811789aec3fc53d569fb');
    const onMark = (options: typeof DEFAULT_CROP) => {
      let marked = 0, figures = 0;
      for (let i = 0; i < 400; i++) {
        const { labels } = synthCrop(world, 7000 + i, { ...options, forcePresent: true, meepleProb: 1 });
        const tile = tiles[labels.tileIndex]!;
        if (!tile.features.some((f) => f.kind === 'city' || f.kind === 'cloister' || f.kind === 'garden')) continue;
        figures++;
        if (labels.meepleSegment === 12 || labels.seg12[labels.meepleSegment] === 2) marked++;
      }
      return marked / figures;
    };
    expect(onMark({ ...DEFAULT_CROP, markCover: 1 })).toBe(1);
    const anyFeature = onMark(DEFAULT_CROP);
    expect(anyFeature).toBeLessThan(0.7);
    expect(onMark({ ...DEFAULT_CROP, markCover: 0.5 })).toBeGreaterThan(anyFeature + 0.1);
  });

  it('draws another tile into the same scene (centreDrawnAs): the same figures, hand, light and noise', async () => {
    const some = tiles.slice(0, 6);
    const faces = await renderFaces(some, [TRAIN_STYLES[0]!], [0]);
    let picked: (typeof faces)[number] | null = null;
    const world = { ...makeWorld(some, await renderSprites(), faces), centreFace: () => (picked = faces[1]!) };
    const options = { ...DEFAULT_CROP, forcePresent: true, meepleProb: 1, handProb: 1 };
    const seen = synthCrop(world, 4321, options);
    expect(seen.labels.meeple).toBe(true);
    expect(seen.labels.hand).toBe(true);
    // The seed's own face at its own turn gives the crop back, byte for byte.
    const again = synthCrop(world, 4321, { ...options, centreDrawnAs: { face: picked!, q: seen.labels.q } });
    expect(Buffer.from(again.rgb).equals(Buffer.from(seen.rgb))).toBe(true);
    // Another tile: the cell changes, the labels stay the seed's, and the crop's border (neighbours, table) does not.
    const other = synthCrop(world, 4321, { ...options, centreDrawnAs: { face: faces[4]!, q: (seen.labels.q + 1) % 4 } });
    expect(other.labels).toEqual(seen.labels);
    const S = DEFAULT_CROP.size;
    let inside = 0, border = 0;
    for (let y = 0; y < S; y++)
      for (let x = 0; x < S; x++) {
        const o = (y * S + x) * 3;
        const differs = [0, 1, 2].some((c) => other.rgb[o + c] !== seen.rgb[o + c]);
        if (!differs) continue;
        if (x === 0 || y === 0 || x === S - 1 || y === S - 1) border++;
        else inside++;
      }
    expect(border).toBe(0);
    expect(inside).toBeGreaterThan(200);
  });
});
