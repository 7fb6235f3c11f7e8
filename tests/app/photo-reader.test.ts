/** The services' photo reading through the contract: argument checks at the boundary and the reading itself (the committed model). */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../electron/contract/api.js';
import { MAX_UPLOAD_BYTES } from '../../electron/contract/photos.js';
import { Store } from '../../electron/services/store/store.js';
import { PhotoReader } from '../../electron/services/tiles/photo-reader.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { realFacesByTile } from '../../models/eval/realart.js';
import { makePhoto } from '../../models/photo/synthetic.js';
import { TRAIN_STYLES } from '../../models/render/styles.js';
import { renderFaces } from '../../models/synth/world.js';
import { cellPicture } from '../track/helpers/cell-picture.js';

const PHOTOS = join(import.meta.dirname, '../fixtures/photos');
const photo = (file: string) => ({ mime: 'image/jpeg' as const, base64: readFileSync(join(PHOTOS, file)).toString('base64') });

// Reading loads the model and OpenCV's WASM once: seconds on a quiet machine, more on a shared one.
describe('readTilePhoto', { timeout: 180_000 }, () => {
  it('refuses bad arguments at the boundary, naming them', () => {
    const tooBig = parseArgs('readTilePhoto', [{ mime: 'image/jpeg', base64: 'A'.repeat(Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 4) }, {}]);
    expect(tooBig).toEqual({ ok: false, error: 'The photo: photo data: a photo over 8 MB' });
    expect(parseArgs('readTilePhoto', [{ mime: 'image/gif', base64: 'AAAA' }, {}]).ok).toBe(false);
    const edition = parseArgs('readTilePhoto', [photo('base-d.jpg'), { edition: 'C9' }]);
    expect(edition.ok).toBe(false);
    expect(!edition.ok && edition.error).toMatch(/^The photo: edition: /);
    expect(parseArgs('readTilePhoto', [photo('base-d.jpg'), { expansions: ['base', 'river'] }]).ok).toBe(true);
    expect(parseArgs('readTilePhoto', [photo('base-d.jpg'), { forQuestion: 3 }]).ok).toBe(true);
    expect(parseArgs('readTilePhoto', [photo('base-d.jpg'), { forQuestion: 0 }]).ok).toBe(false);
  });

  it('reads a photo: three readings with what the display draws them from, the straightened tile; a game-less default of C2 and every classic expansion', async () => {
    const reader = new PhotoReader();
    const r = await reader.read(photo('base-p-hand.jpg'), {}, null);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.readings).toHaveLength(3);
    expect([r.value.readings[0]!.tileId, r.value.readings[0]!.rotation]).toEqual(['BASE_P', 270]);
    expect(r.value.readings[0]!.segments).toHaveLength(12);
    expect(r.value.edition).toBe('C2');
    expect(r.value.expansions).toEqual(['base', 'river', 'abbot', 'inns-cathedrals', 'tower']);
    expect(Buffer.from(r.value.cropPng, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(r.value.corners).toHaveLength(4);
    // The game in progress names the candidates when the options do not: a River-only C1 table.
    const river = await reader.read(photo('base-p-hand.jpg'), {}, { edition: 'C1', expansions: ['river', 'jousts-crests'] });
    expect(river.ok && river.value.readings.every((x) => x.tileId.startsWith('RIVER_'))).toBe(true);
    const none = await reader.read(photo('no-tile.jpg'), {}, null);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.reason).toMatch(/^not read: no tile found/);
  });

  it("reads a photo against the table's own pictures of its tiles: a second-edition garden the model alone takes for its twin", async () => {
    const reader = new PhotoReader();
    // A store with no pictures: the model alone reads this BASE_V_G as BASE_V (the first edition it
    // learnt has no gardens).
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-photo-')), 'c.sqlite'));
    const alone = await reader.read(photo('base-v-g.jpg'), {}, null, store);
    expect(alone.ok).toBe(true);
    if (!alone.ok) return;
    expect(alone.value.readings[0]!.tileId).toBe('BASE_V');
    expect(alone.value.picturedTypes).toBe(0);
    // The table taught both twins (pictures of its print as the camera cuts a cell, stored as the teach stores them).
    const faces = await realFacesByTile(['BASE_V', 'BASE_V_G']);
    for (const id of ['BASE_V', 'BASE_V_G']) {
      const png = await sharp(cellPicture(faces.get(id)!, 0, 256), { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer();
      store.addExemplar({ tileId: id, rot: 0, source: 'camera: the table picked it', image: png, mime: 'image/png' });
    }
    const taught = await reader.read(photo('base-v-g.jpg'), {}, null, store);
    expect(taught.ok).toBe(true);
    if (!taught.ok) return;
    expect([taught.value.readings[0]!.tileId, taught.value.readings[0]!.rotation]).toEqual(['BASE_V_G', 180]);
    expect(taught.value.readings[0]!.confidence).toBeGreaterThan(0.9);
    expect(taught.value.picturedTypes).toBe(2);
    // A stored picture that is no image (a damaged store) is left out; the others still count.
    store.addExemplar({ tileId: 'BASE_U', rot: 0, source: 'camera: the table picked it', image: Buffer.from('not a picture'), mime: 'image/png' });
    const damaged = await reader.read(photo('base-v-g.jpg'), {}, null, store);
    expect(damaged.ok && [damaged.value.readings[0]!.tileId, damaged.value.picturedTypes]).toEqual(['BASE_V_G', 2]);
    // Without the store (the command line), the model alone.
    const cli = await reader.read(photo('base-v-g.jpg'), {}, null);
    expect(cli.ok && cli.value.readings[0]!.tileId).toBe('BASE_V');
    expect(cli.ok && cli.value.fitting).toBe(null);
    store.close();
  });

  it("a photo answering the camera's question about a cell is read among the types that may lie there (all of BASE_V laid: the garden read)", async () => {
    const reader = new PhotoReader();
    const only = new Set(['BASE_V_G', 'BASE_D', 'BASE_U']);
    const r = await reader.read(photo('base-v-g.jpg'), {}, null, undefined, undefined, only);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.readings).toHaveLength(3);
    expect(r.value.readings.every((x) => only.has(x.tileId))).toBe(true);
    expect([r.value.readings[0]!.tileId, r.value.readings[0]!.rotation]).toEqual(['BASE_V_G', 180]);
    expect(r.value.fitting).toBe(3);
    // No type may lie there (by the rules and the supply): read among them all, and said so.
    const none = await reader.read(photo('base-v-g.jpg'), {}, null, undefined, undefined, new Set());
    expect(none.ok && [none.value.readings[0]!.tileId, none.value.readings.length, none.value.fitting]).toEqual(['BASE_V', 3, 0]);
  });

  it("reads a 2025 tile the model never learnt through the table's pictures of it, and says how many it has", async () => {
    const reader = new PhotoReader();
    const standard = TileCatalog.standard();
    const corner = standard.get('SD-L-CORNER')!; // a Siege & Defense city corner: the model knows BASE_N's
    const [inPhoto, inPicture] = await renderFaces([corner], TRAIN_STYLES, [101, 102]);
    const shot = await makePhoto({ face: inPhoto!.image, seed: 5, size: 0.5, rollDeg: 0, tiltDeg: 5, handProb: 0 });
    const p = { mime: 'image/jpeg' as const, base64: Buffer.from(shot.bytes).toString('base64') };
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-photo-2025-')), 'c.sqlite'));
    const siege = { edition: 'C3' as const, expansions: ['base', 'siege-defense'] };
    const siegeTiles = standard.ofExpansion('siege-defense').length;

    // No picture of it: a classic tile is all the model can say, and the page is told none is pictured.
    const alone = await reader.read(p, {}, siege, store, standard);
    expect(alone.ok).toBe(true);
    if (!alone.ok) return;
    expect(alone.value.readings.map((r) => r.tileId)).not.toContain('SD-L-CORNER');
    expect(alone.value.picturedOnly).toMatchObject({ expansions: ['siege-defense'], pictured: 0, of: siegeTiles });
    // …but the unpictured Siege & Defense tiles with the best reading's edges are named, turned as the
    // photo shows them: the tile in the photo among them, upright as it lies.
    const lookAlike = alone.value.picturedOnly!.lookAlikes.find((t) => t.tileId === 'SD-L-CORNER');
    expect(lookAlike).toMatchObject({ rotation: 0, confidence: 0, name: corner.name });
    expect(alone.value.picturedOnly!.lookAlikes.every((t) => t.tileId.startsWith('SD-'))).toBe(true);

    // The table described it in the tile editor from another photo (stored as the editor stores it).
    const png = await sharp(cellPicture(inPicture!.image, 0, 256), { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer();
    store.addExemplar({ tileId: 'SD-L-CORNER', rot: 0, source: 'editor:photo', image: png, mime: 'image/png' });
    const pictured = await reader.read(p, {}, siege, store, standard);
    expect(pictured.ok).toBe(true);
    if (!pictured.ok) return;
    expect([pictured.value.readings[0]!.tileId, pictured.value.readings[0]!.rotation]).toEqual(['SD-L-CORNER', 0]);
    expect(pictured.value.readings[0]!.name).toBe(corner.name);
    expect(pictured.value.readings[0]!.segments).toEqual(corner.segments);
    expect(pictured.value.picturedOnly).toMatchObject({ expansions: ['siege-defense'], pictured: 1, of: siegeTiles });
    expect(pictured.value.picturedOnly!.lookAlikes.map((t) => t.tileId)).not.toContain('SD-L-CORNER');

    // A game without Siege & Defense, or options that name the classic expansions: not a candidate.
    const classic = await reader.read(p, {}, { edition: 'C3', expansions: ['base', 'jousts-crests'] }, store, standard);
    expect(classic.ok && [classic.value.readings.some((r) => r.tileId === 'SD-L-CORNER'), classic.value.picturedOnly?.expansions]).toEqual([false, ['jousts-crests']]);
    const named = await reader.read(p, { expansions: ['base'] }, siege, store, standard);
    expect(named.ok && [named.value.readings.some((r) => r.tileId === 'SD-L-CORNER'), named.value.picturedOnly]).toEqual([false, null]);
    // No game open: every 2025 expansion's tiles the table pictured.
    const noGame = await reader.read(p, {}, null, store, standard);
    expect(noGame.ok && [noGame.value.readings[0]!.tileId, noGame.value.picturedOnly?.expansions]).toEqual(['SD-L-CORNER', ['jousts-crests', 'siege-defense']]);
    store.close();
  });
});
