/**
 * The table's words on the screens' side, for panels that list places and tiles from the snapshot
 * (the services say everything else in words already, electron/services/session/words.ts): a place
 * by what stands there and where it lies from the start tile, a tile by its name, never an id or a
 * position in brackets.
 */
import type { GameView } from '../../../electron/contract/snapshot.js';

const SEGMENTS = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];
const INTERIOR: Readonly<Record<string, string>> = { CLOISTER: 'cloister', GARDEN: 'garden', TOWER: 'tower', FORTRESS: 'fortress' };
export const FIGURE_WORDS: Readonly<Record<string, string>> = { normal: 'meeple', big: 'big meeple', abbot: 'abbot' };

/** The kind of feature `on` names on the tile at (x, y): "road", "city"…; "spot" when unknown. */
export function featureWord(game: GameView, x: number, y: number, on: string): string {
  if (INTERIOR[on]) return INTERIOR[on];
  const t = game.board.find((b) => b.x === x && b.y === y);
  const seg = SEGMENTS.indexOf(on);
  const f = t?.features.find((g) => g.name === on) ?? (seg >= 0 ? t?.features.find((g) => g.segments.includes(seg)) : undefined);
  return f?.kind ?? 'spot';
}

/** Where a tile lies, from the start tile as the table sees it: "the start tile", "2 east and 1 north of the start tile". */
export function whereWords(x: number, y: number): string {
  if (x === 0 && y === 0) return 'the start tile';
  const parts = [x ? `${Math.abs(x)} ${x > 0 ? 'east' : 'west'}` : '', y ? `${Math.abs(y)} ${y > 0 ? 'south' : 'north'}` : ''].filter(Boolean);
  return `${parts.join(' and ')} of the start tile`;
}

/** A figure's place: "the city 2 east of the start tile". */
export function spotWords(game: GameView, s: { readonly x: number; readonly y: number; readonly on: string }): string {
  return `the ${featureWord(game, s.x, s.y, s.on)} ${whereWords(s.x, s.y).replace(/^the start tile$/, 'on the start tile')}`;
}

/** A tile type by its name (the snapshot's `tileNames`). */
export function tileName(game: GameView, id: string): string {
  return game.tileNames[id] ?? 'a tile this game does not know';
}

/** "1 point", "2 points"; with a sign where it can be negative: "+3 points", "−3 points". */
export function points(n: number, signed = false): string {
  const sign = signed ? (n < 0 ? '−' : '+') : n < 0 ? '−' : '';
  return `${sign}${Math.abs(n)} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}

/** A score kind as a column heading: "garden (unfinished)", "counter attack", never `garden.incomplete`. */
export function kindWords(kind: string): string {
  return kind.replace(/\.incomplete$/, ' (unfinished)').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
