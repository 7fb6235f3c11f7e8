/**
 * The table's tile descriptions, as the services use them: which catalog new games play with (the
 * latest definition of each tile), which catalog a stored game replays with (the definitions pinned
 * to it), what the editor is shown, and the checks a description passes before it is saved.
 */
import { catalogWith, definitionOf, definitionProblem, standardTiles, type TileDefinition } from '../../../engine/catalog/definitions.js';
import { tiles2025 } from '../../../engine/catalog/provisional2025.js';
import { tileWordsAll } from '../../../engine/catalog/tile-words.js';
import type { TileCatalog } from '../../../engine/catalog/registry.js';
import type { TileType } from '../../../engine/catalog/types.js';
import { defaultCatalog } from '../../../engine/game/engine.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import type { Crop, EditableTile } from '../../contract/tiles.js';
import type { StoredTileDefinition, Store } from '../store/store.js';

export type StoredDefinition = StoredTileDefinition<TileDefinition>;

function roleOf(t: TileType): string {
  const d = tiles2025();
  if (d.prizeTiles.has(t.id)) return 'prize tile';
  for (const [piece, cells] of d.pieces) {
    const c = cells.find((x) => x.tile === t.id);
    // Which piece and which square of it: the words name the piece and the part (editable()).
    if (c) return 'one square of a piece';
  }
  if (d.riverTiles.has(t.id)) return 'river tile';
  return 'land tile';
}

/** The crop's bytes, refused with a reason when they are not the PNG or JPEG they claim to be. */
export function cropBytes(crop: Crop): Result<Buffer> {
  const bytes = Buffer.from(crop.base64, 'base64');
  const png = bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (crop.mime === 'image/png' && !png) return fail('the crop is not a PNG image');
  if (crop.mime === 'image/jpeg' && !jpeg) return fail('the crop is not a JPEG image');
  return ok(bytes);
}

export class TileBook {
  private latest: StoredDefinition[];
  private latestCatalog: TileCatalog | null = null;

  constructor(private readonly store: Store) {
    this.latest = store.latestTileDefinitions<TileDefinition>();
  }

  /** What new games play with: the standard catalog with the table's latest descriptions. */
  catalogForNewGames(): Result<TileCatalog> {
    if (this.latest.length === 0) return ok(defaultCatalog());
    if (this.latestCatalog) return ok(this.latestCatalog);
    const c = catalogWith(this.latest.map((d) => d.definition));
    if (!c.ok) return fail(`the saved tile descriptions do not make a catalog: ${c.reason}`);
    this.latestCatalog = c.value;
    return c;
  }

  /** The latest definitions, to pin to a game that starts now. */
  latestPins(): { tileId: string; definitionId: number }[] {
    return this.latest.map((d) => ({ tileId: d.tileId, definitionId: d.id }));
  }

  /** The catalog a stored game replays with: its pinned definitions (none: the provisional catalog). */
  catalogForGame(gameId: number, replace?: StoredDefinition): Result<TileCatalog> {
    const pinned = this.store.gameTileDefinitions<TileDefinition>(gameId).filter((d) => d.tileId !== replace?.tileId);
    const defs = replace ? [...pinned, replace] : pinned;
    if (defs.length === 0) return ok(defaultCatalog());
    return catalogWith(defs.map((d) => d.definition));
  }

  /** Why a description cannot be saved, named for the table, or null. */
  problem(def: TileDefinition): string | null {
    const base = standardTiles().find((t) => t.id === def.tile);
    const why = definitionProblem(def, base);
    return why ? `tile ${def.tile}: ${why}` : null;
  }

  /** Saves a checked description (and its crop as an exemplar); new games play with it from now on. */
  save(def: TileDefinition, source: string, crop: Buffer | null, mime: Crop['mime'] | null): Result<{ stored: StoredDefinition; exemplarId: number | null }> {
    const why = this.problem(def);
    if (why) return fail(why);
    const others = this.latest.filter((d) => d.tileId !== def.tile).map((d) => d.definition);
    const whole = catalogWith([...others, def]);
    if (!whole.ok) return fail(whole.reason);
    const ids = this.store.addTileDefinition(def.tile, source, def, crop && mime ? { rot: 0, source: `editor:${source}`, image: crop, mime } : undefined);
    const stored = this.store.tileDefinition<TileDefinition>(ids.definitionId)!;
    this.latest = [...this.latest.filter((d) => d.tileId !== def.tile), stored];
    this.latestCatalog = whole.value;
    return ok({ stored, exemplarId: ids.exemplarId });
  }

  /** Every tile the table may describe: the 2025 tiles, with what new games currently use. */
  editable(): EditableTile[] {
    const latest = new Map(this.latest.map((d) => [d.tileId, d]));
    const photos = this.store.exemplarCounts();
    const words = tileWordsAll(tiles2025().tiles);
    return tiles2025().tiles.map((t) => {
      // The cells of a piece share the piece's words: which cell is said as a part of it.
      const cell = /\bcell (\d+) of (\d+)\b/.exec(t.name);
      const saved = latest.get(t.id);
      return {
        id: t.id,
        name: t.name,
        words: `${words.get(t.id) ?? t.name}${cell ? `, part ${cell[1]} of ${cell[2]}` : ''}`,
        expansion: t.expansion,
        role: roleOf(t),
        provisional: !saved,
        definition: saved ? saved.definition : definitionOf(t),
        confirmedAt: saved?.createdAt ?? null,
        photos: photos.get(t.id) ?? 0,
        siege: t.siege !== undefined,
        statue: t.statue !== undefined,
      };
    });
  }
}
