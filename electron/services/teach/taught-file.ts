/**
 * The taught-tiles file (docs/teach.md): every picture the table taught, one JSON file a table carries
 * to another computer. An import is checked whole before anything is stored — the file's shape (zod),
 * each tile a type this app knows, each image a square PNG or JPEG — and a bad file is refused naming
 * what is wrong and where (`tiles[3].image: …`), the pictures already here untouched. Then it is
 * stored in one transaction; a picture already here (the same image of the same tile at the same
 * turn) is not stored twice.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { TAUGHT_FILE_FORMAT, taughtFileSchema, type TaughtFile, type TaughtImportResult } from '../../contract/teach.js';
import type { Store } from '../store/store.js';

/** A taught picture is the cell and 10 % around it at 256 px; smaller than this cannot be a template. */
const MIN_SIDE = 32;
const MAX_SIDE = 2048;

export function exportTaught(store: Store): TaughtFile {
  return {
    format: TAUGHT_FILE_FORMAT,
    exportedAt: new Date().toISOString(),
    tiles: store.taughtTiles().map((t) => ({
      tile: t.tileId,
      rotation: t.rot,
      edition: t.edition as 'C1' | 'C2' | 'C3',
      how: t.how,
      createdAt: t.createdAt,
      image: { mime: t.mime === 'image/jpeg' ? 'image/jpeg' : 'image/png', base64: t.image.toString('base64') },
    })),
  };
}

const digest = (tileId: string, rot: number, image: Uint8Array) => createHash('sha256').update(`${tileId}/${rot}/`).update(image).digest('hex');

export async function importTaught(store: Store, text: string, catalog = TileCatalog.standard()): Promise<Result<TaughtImportResult>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fail(`the taught-tiles file is not JSON: ${(e as Error).message}`);
  }
  const parsed = taughtFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), '');
    return fail(`the taught-tiles file: ${where ? `${where}: ` : ''}${issue.message}; nothing was imported`);
  }
  const file = parsed.data;
  const rows: { tileId: string; rot: 0 | 90 | 180 | 270; edition: string; how: string; image: Buffer; mime: string }[] = [];
  for (const [i, t] of file.tiles.entries()) {
    const where = `tiles[${i}]`;
    if (!catalog.has(t.tile)) return fail(`the taught-tiles file: ${where}.tile: ${t.tile} is no tile type this app knows; nothing was imported`);
    const image = Buffer.from(t.image.base64, 'base64');
    try {
      const m = await sharp(image).metadata();
      const format = m.format === 'jpeg' ? 'image/jpeg' : m.format === 'png' ? 'image/png' : null;
      if (format !== t.image.mime) return fail(`the taught-tiles file: ${where}.image: the data is ${m.format ?? 'no known image'}, not ${t.image.mime}; nothing was imported`);
      if (!m.width || !m.height || m.width !== m.height || m.width < MIN_SIDE || m.width > MAX_SIDE)
        return fail(`the taught-tiles file: ${where}.image: ${m.width}×${m.height} px is not a square tile picture of ${MIN_SIDE}–${MAX_SIDE} px; nothing was imported`);
    } catch (e) {
      return fail(`the taught-tiles file: ${where}.image: not an image (${(e as Error).message}); nothing was imported`);
    }
    rows.push({ tileId: t.tile, rot: t.rotation, edition: t.edition, how: t.how.startsWith('imported') ? t.how : `imported (${t.how})`, image, mime: t.image.mime });
  }
  const have = new Set(store.taughtTiles().map((t) => digest(t.tileId, t.rot, t.image)));
  const fresh = rows.filter((r) => {
    const d = digest(r.tileId, r.rot, r.image);
    if (have.has(d)) return false;
    have.add(d);
    return true;
  });
  store.addTaughtTiles(fresh);
  return ok({ added: fresh.length, already: rows.length - fresh.length, types: new Set(rows.map((r) => r.tileId)).size });
}
