/**
 * The table's words: the one layer between the engine's language and a player's screen.
 *
 * The engine speaks in ids (`BASE_W`), positions (`[4, 2]`), segment codes (`N0`), command names and
 * 0-based player numbers: right for records, logs and exports, where they must stay exact. A screen
 * gets the same facts in words: players by name, tiles by `tileWords`, and a place on the board as
 * "the lit road" together with the place itself, which the board lights. Every text that reaches a
 * screen from the engine (reminders, refusals, the event log, camera questions and notices) goes
 * through `rewrite`, so a new engine message is covered without touching the screens; the engine's
 * own texts stay as they are for the record tools and tests (docs/app.md, "The table's words").
 */
import { tileWords } from '../../../engine/catalog/tile-words.js';
import type { GameState } from '../../../engine/game/state.js';

/** A place the board lights: a tile, or one feature on it (`on` as the engine names it). */
export interface Place {
  readonly x: number;
  readonly y: number;
  readonly on: string | null;
}

/** A text in the table's words and the places it speaks of, in order. */
export interface Said {
  readonly text: string;
  readonly places: readonly Place[];
}

const SEGMENTS = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];

/** A command's type as the table says it (the event log's refusals name the move by it). */
export const COMMAND_WORDS: Readonly<Record<string, string>> = {
  placeTile: 'laying a tile',
  discardTile: 'discarding a tile',
  placeMeeple: 'placing a figure',
  endTurn: 'ending the turn',
  finishGame: 'final scoring',
  placeTowerFloor: 'adding a tower floor',
  closeTower: 'closing a tower',
  payRansom: 'paying a ransom',
  returnAbbot: 'taking the abbot back',
  drawTile: 'drawing a tile',
  resolveTournament: 'resolving a tournament',
  revealEmblem: 'revealing an emblem',
  placeTournamentTile: 'laying the tournament tile',
  placePrizeTile: 'laying a prize tile',
  discardPrizeTile: 'setting a prize tile aside',
  nominate: 'nominating',
  skipTurn: 'skipping a turn',
  resolveSiegeSymbol: 'resolving a siege symbol',
  removeMeepleForAttack: 'removing a meeple after an attack',
  placeAtDefencePost: 'sending a meeple to a defence post',
};
/** A command named bare in a reason ("placeTile is not allowed now"); `nominate` is English already. */
const COMMAND_NAME = new RegExp(`\\b(${Object.keys(COMMAND_WORDS).filter((k) => /[A-Z]/.test(k)).join('|')})\\b`, 'g');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Command names in words: "command 13 (placeTowerFloor)" → "move 13 (adding a tower floor)". */
function commandsInWords(text: string): string {
  return text
    .replace(/\bcommand (\d+) \((\w+)\)/g, (_m, n: string, type: string) => `move ${n} (${COMMAND_WORDS[type] ?? 'a move'})`)
    .replace(COMMAND_NAME, (name: string, _g: string, at: number, all: string) => {
      const w = COMMAND_WORDS[name]!;
      return at === 0 || /[.:;!?]\s*$/.test(all.slice(0, at)) ? capital(w) : w;
    });
}

const FEATURE_WORDS: Readonly<Record<string, string>> = {
  road: 'road', city: 'city', field: 'field', river: 'river', cloister: 'cloister', garden: 'garden', tower: 'tower', fortress: 'fortress',
};
const INTERIOR: Readonly<Record<string, string>> = { CLOISTER: 'cloister', GARDEN: 'garden', TOWER: 'tower', FORTRESS: 'fortress' };

/** Tile ids as the catalogs write them: classic `BASE_K`, `IC_A1`, `TOWER_C`, `RIVER_A`; 2025 `JC-L-G`, `SD-…`. */
export const TILE_ID = /\b(?:BASE|IC|TOWER|RIVER)_[A-Z0-9_]+\b|\b(?:JC|SD)-[A-Za-z0-9-]+\b/g;
/** A position, with the feature named after it when there is one (`[4, 2] N0`, `[0, 0] CLOISTER`). */
const POSITION = /\[(-?\d+), (-?\d+)\](?: ((?:[NESW][012])|CLOISTER|GARDEN|TOWER|FORTRESS)\b)?/g;
/** What is left of the engine's notation once positions are gone: a lone segment code or interior name. */
const LONE_FEATURE = /\b([NESW][012]|CLOISTER|GARDEN|TOWER|FORTRESS)\b/g;

/** Plural: `1 point`, `2 points`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${Math.abs(n) === 1 ? one : many}`;
}

/** Names in a list: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const WORDS = new WeakMap<object, string>();

export class TableWords {
  constructor(private readonly state: GameState) {}

  name(p: number): string {
    return this.state.setup.players[p]?.name ?? 'a player not in this game';
  }

  /** A tile type in words (quoted, so a sentence around it still reads). */
  tile(id: string): string {
    const t = this.state.catalog.get(id);
    if (!t) return 'a tile this game does not know';
    // Every snapshot names every laid tile again: the words of a type are made once.
    let w = WORDS.get(t);
    if (w === undefined) WORDS.set(t, (w = `“${tileWords(t)}”`));
    return w;
  }

  /** The kind of feature `on` names on the tile at (x, y), in words; null when it cannot be found. */
  feature(x: number, y: number, on: string | null): string | null {
    if (on === null) return null;
    if (INTERIOR[on]) return INTERIOR[on];
    const t = this.state.board.at(x, y);
    if (!t) return null;
    const seg = SEGMENTS.indexOf(on);
    const f = t.view.features.find((g) => g.name === on) ?? (seg >= 0 ? t.view.features.find((g) => g.segments.includes(seg)) : undefined);
    return f ? (FEATURE_WORDS[f.def.kind] ?? f.def.kind) : null;
  }

  /** The feature a segment code names on the tile placed this turn (a figure's place before it stands). */
  private onTileThisTurn(on: string): string {
    const t = this.state.board.tiles[this.state.turn.tile];
    return (t && this.feature(t.x, t.y, on)) ?? INTERIOR[on] ?? 'that spot';
  }

  /** A place in words, lit on the board: "the lit road", "the lit tile". */
  place(x: number, y: number, on: string | null): Said {
    const kind = this.feature(x, y, on);
    const onBoard = this.state.board.at(x, y) !== undefined;
    return { text: kind ? `the lit ${kind}` : onBoard ? 'the lit tile' : 'the lit square', places: [{ x, y, on: kind ? on : null }] };
  }

  /** An engine text (a reason, a reminder, a notice) in the table's words, with the places it names. */
  rewrite(text: string): Said {
    const places: Place[] = [];
    let s = commandsInWords(text)
      .replace(/\(towerCapture: mandatory\)/g, '(capturing is compulsory at this table)')
      .replace(/\s*\(exchangeFor\)/g, '')
      .replace(/\bturned (\d+)°?/g, (_m, r: string) => (r === '0' ? 'unturned' : `turned ${r}°`))
      .replace(POSITION, (_m, x: string, y: string, on: string | undefined) => {
        const p = this.place(Number(x), Number(y), on ?? null);
        places.push(...p.places);
        return p.text;
      })
      .replace(TILE_ID, (id) => this.tile(id))
      .replace(/\bplayer (\d+)\b/g, (_m, n: string) => this.name(Number(n)))
      .replace(LONE_FEATURE, (on) => this.onTileThisTurn(on));
    // "the lit road" twice in one sentence: number them so each reads as its own place.
    const lit = s.match(/\bthe lit (?:\w+)/g) ?? [];
    if (lit.length > 1 && new Set(places.map((p) => `${p.x},${p.y}`)).size > 1) {
      let i = 0;
      s = s.replace(/\bthe lit (\w+)/g, (_m, w: string) => `the ${w} lit ${++i}`);
    }
    return { text: s, places };
  }
}

/**
 * Refusals and notices said when no game is open (no names, no board): ids and positions still go.
 * Used where a text may come before any game (an import refused, a game that cannot be resumed).
 */
export function withoutGame(text: string): string {
  return commandsInWords(text)
    .replace(POSITION, 'a place on the board')
    .replace(TILE_ID, 'a tile')
    .replace(/\bplayer (\d+)\b/g, (_m, n: string) => `player ${Number(n) + 1}`)
    .replace(LONE_FEATURE, 'a spot on the tile');
}

/** Where a square lies from the start tile: "2 east and 1 north of the start tile", or "the start tile". */
export function fromStart(x: number, y: number): string {
  const parts = [x ? `${Math.abs(x)} ${x > 0 ? 'east' : 'west'}` : '', y ? `${Math.abs(y)} ${y > 0 ? 'south' : 'north'}` : ''].filter(Boolean);
  return parts.length ? `${parts.join(' and ')} of the start tile` : 'the start tile';
}

/**
 * A text said where no board lights its places (the demo's table lines): "the lit road" becomes
 * "the road 2 east of the start tile". The places come in the order the text names them.
 */
export function unlit(s: Said): string {
  let i = 0;
  return s.text.replace(/\bthe lit (\w+)|\bthe (\w+) lit \d+/g, (_m, a: string | undefined, b: string | undefined) => {
    const p = s.places[i++];
    const kind = a ?? b ?? 'square';
    if (!p) return `the ${kind}`;
    const where = fromStart(p.x, p.y);
    return where === 'the start tile' ? `the ${kind === 'tile' || kind === 'square' ? 'start tile' : `${kind} on the start tile`}` : `the ${kind} ${where}`;
  });
}
