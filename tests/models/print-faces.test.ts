import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { rng } from '../../models/render/random.js';
import { gardenSibling, loadPrintScans, PRINT_DIR, printFaces, printLook, tileBox } from '../../models/synth/print-faces.js';
import { FACE_PX, makeWorld } from '../../models/synth/world.js';
import { layoutTile } from '../../models/render/layout.js';
import { pick } from '../../models/render/random.js';
import type { TileFace } from '../../models/synth/crop.js';

const tiles = TileCatalog.classic().all();
const ids = tiles.map((t) => t.id);
const chroma = (d: Uint8Array, o: number) => Math.max(d[o]!, d[o + 1]!, d[o + 2]!) - Math.min(d[o]!, d[o + 1]!, d[o + 2]!);

describe('printed faces for training (first-edition scans)', () => {
  it('holds first-edition scans only, of tiles the catalog knows', () => {
    for (const set of ['c1-jcz', 'c1-wiki']) {
      const manifest = JSON.parse(readFileSync(`${PRINT_DIR}${set}/manifest.json`, 'utf8')) as { id: string; edition: string }[];
      expect(manifest.length).toBeGreaterThan(60);
      for (const e of manifest) {
        expect(e.edition, `${set} ${e.id}`).toBe('C1');
        expect(ids, `${set} ${e.id}`).toContain(e.id);
      }
    }
  });

  it('cuts a small scan to its tile: the pale margin and the grey drop shadow left out', async () => {
    const { data, info } = await sharp(`${PRINT_DIR}c1-wiki/BASE_A.jpg`).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = new Uint8Array(data);
    const box = tileBox(px, info.width, info.height);
    // The margin is there to be cut: the scan's own first column and last row are grey.
    const greyShare = (xs: number[]) => xs.filter((o) => chroma(px, o) <= 28).length / xs.length;
    const col = (x: number) => Array.from({ length: info.height }, (_, y) => (y * info.width + x) * 3);
    const row = (y: number) => Array.from({ length: info.width }, (_, x) => (y * info.width + x) * 3);
    expect(greyShare(col(0))).toBeGreaterThan(0.5);
    expect(greyShare(row(info.height - 1))).toBeGreaterThan(0.5);
    // Inside the box, the box's own border is the tile's coloured art.
    expect(greyShare(col(box.left).slice(box.top, box.top + box.size))).toBeLessThan(0.3);
    expect(greyShare(row(box.top + box.size - 1).slice(box.left, box.left + box.size))).toBeLessThan(0.3);
    expect(box.size).toBeGreaterThan(info.width * 0.8);
    expect(box.size).toBeLessThan(info.width);
  });

  it('leaves a scan with no margin whole', async () => {
    const { data, info } = await sharp(`${PRINT_DIR}c1-jcz/BASE_D.jpg`).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(tileBox(new Uint8Array(data), info.width, info.height)).toEqual({ left: 0, top: 0, size: info.width });
  });

  it('finds each garden tile its garden-less twin, turned onto it', () => {
    const twin = (id: string) => {
      const g = gardenSibling(tiles[ids.indexOf(id)]!, tiles);
      return g && `${g.sibling.id}/${g.q}`;
    };
    expect(twin('BASE_E_G')).toBe('BASE_E/0');
    expect(twin('BASE_U_G')).toBe('BASE_U/0');
    expect(twin('TOWER_RRG')).toBe('TOWER_RR/0');
    expect(twin('RIVER_J')).toBe('RIVER_G/0');
    expect(twin('BASE_E')).toBeNull();
    // Every garden tile has one, so no tile the second edition prints is left without a printed face.
    for (const t of tiles.filter((t) => t.features.some((f) => f.kind === 'garden'))) expect(twin(t.id), t.id).not.toBeNull();
  });

  it('draws each scan under several print looks, deterministically, and lays a garden over a twin', async () => {
    const scans = (await loadPrintScans(ids)).filter((s) => ['BASE_E', 'BASE_D'].includes(s.tileId));
    expect(scans.map((s) => `${s.set}/${s.tileId}`).sort()).toEqual(['c1-jcz/BASE_D', 'c1-jcz/BASE_E', 'c1-wiki/BASE_D', 'c1-wiki/BASE_E']);
    const a = await printFaces(tiles, scans, { copies: 3, seed: 7 });
    const b = await printFaces(tiles, scans, { copies: 3, seed: 7 });
    const c = await printFaces(tiles, scans, { copies: 3, seed: 8 });
    const d = ids.indexOf('BASE_D'), eg = ids.indexOf('BASE_E_G');
    expect(a[d]!.length).toBe(6);
    expect(a[eg]!.length).toBe(6); // two twin scans × three looks
    expect(a[ids.indexOf('BASE_A')]!.length).toBe(0);
    for (const f of a[eg]!) expect([f.tileIndex, f.baseQ]).toEqual([eg, 0]);
    for (let i = 0; i < 6; i++) {
      expect(Buffer.from(a[d]![i]!.image.data).equals(Buffer.from(b[d]![i]!.image.data))).toBe(true);
      expect(Buffer.from(a[d]![i]!.image.data).equals(Buffer.from(c[d]![i]!.image.data))).toBe(false);
    }
    // Without the look and the bend, the garden face is the twin's scan but where the renderer puts
    // BASE_E_G's garden (shifted and scaled a little): every changed pixel lies near it.
    const bare = await printFaces(tiles, scans, { copies: 2, seed: 7, warpShare: 0, look: false });
    const twinScan = scans.find((s) => s.set === 'c1-jcz' && s.tileId === 'BASE_E')!;
    expect(twinScan.baseQ).toBe(0);
    const [gx, gy] = layoutTile(tiles[eg]!).interiors.find((i) => i.kind === 'garden')!.at.map((v) => (v / 100) * FACE_PX) as [number, number];
    for (const f of bare[eg]!.slice(0, 2)) {
      let changed = 0, far = 0;
      for (let y = 0; y < FACE_PX; y++)
        for (let x = 0; x < FACE_PX; x++) {
          const o = (y * FACE_PX + x) * 4;
          if (Math.abs(f.image.data[o]! - twinScan.image.data[o]!) + Math.abs(f.image.data[o + 1]! - twinScan.image.data[o + 1]!) < 30) continue;
          changed++;
          if (Math.hypot(x - gx, y - gy) > 0.24 * FACE_PX) far++;
        }
      expect(changed).toBeGreaterThan(100);
      expect(far).toBe(0);
    }
  });

  it("keeps a face's size and alpha under a print look, and changes its colours", () => {
    const data = new Uint8Array(FACE_PX * FACE_PX * 4);
    for (let i = 0; i < data.length; i += 4) data.set([90, 140, 60, i % 8 === 0 ? 255 : 128], i);
    const img = { width: FACE_PX, height: FACE_PX, data };
    const looks = [1, 2, 3].map((s) => printLook(img, rng(s)));
    for (const l of looks) {
      expect([l.width, l.height]).toEqual([FACE_PX, FACE_PX]);
      for (let i = 3; i < data.length; i += 4) expect(l.data[i]).toBe(data[i]);
    }
    const centre = ((FACE_PX / 2) * FACE_PX + FACE_PX / 2) * 4;
    expect(new Set(looks.map((l) => l.data.slice(centre, centre + 3).join(','))).size).toBe(3);
  });

  it('mixes printed faces into a world only when asked, leaving the drawn-only world as it was', () => {
    const face = (tileIndex: number, tag: number): TileFace => ({ image: { width: 1, height: 1, data: new Uint8Array([tag, 0, 0, 255]) }, tileIndex, baseQ: 0 });
    const drawn = [face(0, 1), face(1, 2)];
    const printed = [[face(0, 9)], []];
    const plain = makeWorld(tiles, [], drawn);
    const r1 = rng(5), r2 = rng(5);
    for (let i = 0; i < 50; i++) expect(plain.centreFace(r1)).toBe(pick(r2, drawn));
    const mixed = makeWorld(tiles, [], drawn, drawn, { byTile: printed, share: 0.5 });
    const r = rng(11);
    const got = Array.from({ length: 400 }, () => mixed.centreFace(r));
    const share = got.filter((f) => f.image.data[0] === 9).length / got.filter((f) => f.tileIndex === 0).length;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
    // A tile with no print keeps its drawings.
    expect(got.filter((f) => f.tileIndex === 1).every((f) => f.image.data[0] === 2)).toBe(true);
  });
});
