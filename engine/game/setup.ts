/** What a table decides before the first turn: players, expansions, rule switches, tile set, start pieces. */
import type { Edition, ExpansionId } from '../catalog/types.js';
import type { Rotation } from '../geometry/segments.js';

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
}

export interface GameSetup {
  readonly expansions: readonly ExpansionId[];
  readonly rules: Rules;
  readonly players: readonly PlayerSetup[];
  readonly start: readonly StartPiece[];
  readonly tileSet: TileSetOptions;
}

/** Tower floors each player gets, by number of players (The Tower). */
export function towerFloorsPerPlayer(players: number): number {
  const table: Record<number, number> = { 1: 10, 2: 10, 3: 9, 4: 7, 5: 6, 6: 5 };
  return table[players] ?? (players === 7 ? 4 : 3);
}

export function defaultStart(expansions: readonly ExpansionId[], edition: Edition): StartPiece[] {
  if (expansions.includes('river')) return [{ tile: edition === 'C3' ? 'RIVER_A_C3' : 'RIVER_A', at: [0, 0], rot: 0 }];
  return [{ tile: 'BASE_D', at: [0, 0], rot: 0 }];
}

export interface SetupInput {
  readonly players: readonly PlayerSetup[];
  readonly expansions?: readonly ExpansionId[];
  readonly rules?: Partial<Rules>;
  readonly tileSet?: Partial<TileSetOptions>;
  readonly start?: readonly StartPiece[];
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
  };
}
