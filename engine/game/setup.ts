/** What a table decides before the first turn: players, expansions, rule switches, tile set, start pieces. */
import type { Edition, ExpansionId } from '../catalog/types.js';
import type { Rotation } from '../geometry/segments.js';
import { tiles2025 } from '../catalog/provisional2025.js';

export interface PlayerSetup {
  readonly name: string;
  readonly color: string;
}

/** Rule switches that change scores (record@1 `rules`). */
export interface Rules {
  /** Points for a completed 2-tile city: 4 (C2/C3), or 2 (C1). */
  readonly tinyCity: 4 | 2;
  /** First-edition Inns & Cathedrals: unfinished inn roads and cathedral cities score nothing. */
  readonly innCathedralIncomplete: 'zero' | 'normal';
  readonly farmers: boolean;
  readonly towerCapture: 'mandatory' | 'optional';
}

export const DEFAULT_RULES: Rules = {
  tinyCity: 4,
  innCathedralIncomplete: 'zero',
  farmers: true,
  towerCapture: 'mandatory',
};

/** Which printing of the tiles is on the table (record extension `tileSet`, see docs/record-format.md). */
export interface TileSetOptions {
  /** Tile counts and variants: C1 (no gardens), C2 or C3 (River spring and lake differ). */
  readonly edition: Edition;
  /**
   * With The River, where the base start tile goes: back in the box (the printed rule) or shuffled
   * into the land tiles (what JCloisterZone does, and so every imported JCZ record).
   */
  readonly riverStartTile: 'box' | 'stack';
}

export const DEFAULT_TILE_SET: TileSetOptions = { edition: 'C2', riverStartTile: 'stack' };

export interface StartPiece {
  readonly tile: string;
  readonly at: readonly [number, number];
  readonly rot: Rotation;
  /** The multi-cell piece this cell belongs to (tournament tile, fortress tile). */
  readonly piece?: string;
}

export interface GameSetup {
  readonly expansions: readonly ExpansionId[];
  readonly rules: Rules;
  readonly players: readonly PlayerSetup[];
  readonly start: readonly StartPiece[];
  readonly tileSet: TileSetOptions;
  /** Setup options of Jousts & Crests and Siege & Defense (docs/jousts-crests-siege-defense.md). */
  readonly options?: ExpansionOptions;
}

export interface JcOptions {
  /** Categories of the crown spaces, clockwise (JC-A2). */
  readonly crownSpaces?: readonly ('road' | 'city' | 'field')[];
  /** Index of the crown's start space. */
  readonly crownStart?: number;
  /** The tournament tile replaces the start tile, which goes back in the box (JC-A1). */
  readonly startTileToBox?: boolean;
  /** A meeple whose emblem was spent may be nominated again (JC-A6). */
  readonly allowRenominate?: boolean;
  /**
   * Override the chart: S land stacks, P prize tiles on each of stacks 2..S; `land` gives each stack's
   * size when the table laid out stacks of its own (the tiles left over stay in the box).
   */
  readonly stacks?: { readonly S: number; readonly P: number; readonly land?: readonly number[] };
}

export interface SdOptions {
  /** [a, b]: defence-post row lengths L(2)=a, L(3)=a+1, L(4)=b, L(5)=L(6)=b+1 (SD-A1). */
  readonly rowBase?: readonly [number, number];
}

export interface ExpansionOptions {
  readonly jc?: JcOptions;
  readonly sd?: SdOptions;
}

/** Tower floors each player gets, by number of players (The Tower). */
export function towerFloorsPerPlayer(players: number): number {
  const table: Record<number, number> = { 1: 10, 2: 10, 3: 9, 4: 7, 5: 6, 6: 5 };
  return table[players] ?? (players === 7 ? 4 : 3);
}

/** The cells of a multi-cell piece at rotation 0 with its top-left cell at (x, y). */
export function pieceCells(piece: string, x: number, y: number): StartPiece[] {
  const cells = tiles2025().pieces.get(piece);
  if (!cells) throw new Error(`unknown piece ${piece}`);
  return cells.map((c) => ({ tile: c.tile, at: [x + c.cell[0], y + c.cell[1]], rot: 0, piece }));
}

/**
 * Siege & Defense: the fortress (two 2×3 pieces side by side) with the source at its west river end
 * and, without River rules, the lake at its east end. Jousts & Crests without The River: the
 * tournament tile; with Siege & Defense too, north of the fortress (SD-A6). Provisional layouts.
 */
export function defaultStart(expansions: readonly ExpansionId[], edition: Edition): StartPiece[] {
  const river = expansions.includes('river');
  const spring: StartPiece = edition === 'C3' ? { tile: 'RIVER_A_C3', at: [-1, 1], rot: 270 } : { tile: 'RIVER_A', at: [-1, 1], rot: 0 };
  if (expansions.includes('siege-defense')) {
    const out = [spring, ...pieceCells('SD-FORTRESS-1', 0, 0), ...pieceCells('SD-FORTRESS-2', 2, 0)];
    if (!river) out.push(edition === 'C3' ? { tile: 'RIVER_L_C3', at: [4, 1], rot: 270 } : { tile: 'RIVER_L', at: [4, 1], rot: 0 });
    if (!river && expansions.includes('jousts-crests')) out.push(...pieceCells('JC-TOURNAMENT', 0, -2));
    return out;
  }
  if (river) return [{ tile: edition === 'C3' ? 'RIVER_A_C3' : 'RIVER_A', at: [0, 0], rot: 0 }];
  if (expansions.includes('jousts-crests')) return pieceCells('JC-TOURNAMENT', 0, 0);
  return [{ tile: 'BASE_D', at: [0, 0], rot: 0 }];
}

export interface SetupInput {
  readonly players: readonly PlayerSetup[];
  readonly expansions?: readonly ExpansionId[];
  readonly rules?: Partial<Rules>;
  readonly tileSet?: Partial<TileSetOptions>;
  readonly start?: readonly StartPiece[];
  readonly options?: ExpansionOptions;
}

/** A full setup from the choices made, defaults for the rest. */
export function makeSetup(partial: SetupInput): GameSetup {
  const expansions = partial.expansions ?? ['base'];
  const tileSet = { ...DEFAULT_TILE_SET, ...partial.tileSet };
  return {
    expansions,
    rules: { ...DEFAULT_RULES, ...partial.rules },
    players: partial.players,
    start: partial.start ?? defaultStart(expansions, tileSet.edition),
    tileSet,
    ...(partial.options ? { options: partial.options } : {}),
  };
}
