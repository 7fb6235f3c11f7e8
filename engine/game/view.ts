/**
 * A plain, JSON-friendly picture of the state: what a display shows and what tests compare. It holds
 * no hidden information beyond what the state itself knows.
 */
import type { MeepleKind } from '../features/board.js';
import type { Rotation } from '../geometry/segments.js';
import type { GameState, TurnStep } from './state.js';

export interface GameView {
  readonly turn: { readonly number: number; readonly player: number; readonly step: TurnStep; readonly ransomPaid: boolean };
  readonly finished: boolean;
  readonly players: readonly {
    readonly name: string;
    readonly color: string;
    readonly score: number;
    readonly byKind: Readonly<Record<string, number>>;
    readonly supply: Readonly<Record<MeepleKind, number>>;
    readonly prisoners: readonly { readonly owner: number; readonly kind: MeepleKind }[];
    readonly floors: number;
  }[];
  readonly tiles: readonly { readonly tile: string; readonly at: readonly [number, number]; readonly rot: Rotation }[];
  readonly meeples: readonly { readonly player: number; readonly kind: MeepleKind; readonly at: readonly [number, number]; readonly on: string }[];
  readonly towers: readonly { readonly at: readonly [number, number]; readonly height: number; readonly top: number | null }[];
  /** Tiles left to draw, by id (ids with none left omitted). */
  readonly supply: Readonly<Record<string, number>>;
  readonly tilesLeft: number;
}

export function viewOf(state: GameState): GameView {
  const supply: Record<string, number> = {};
  let tilesLeft = 0;
  for (const [id, n] of [...state.supply].sort(([a], [b]) => a.localeCompare(b))) {
    if (n > 0) {
      supply[id] = n;
      tilesLeft += n;
    }
  }
  return {
    turn: { number: state.turn.number, player: state.turn.player, step: state.turn.step, ransomPaid: state.turn.ransomPaid },
    finished: state.finished,
    players: state.players.map((p, i) => ({
      name: state.setup.players[i]!.name,
      color: state.setup.players[i]!.color,
      score: p.score,
      byKind: { ...p.byKind },
      supply: { ...p.supply },
      prisoners: p.prisoners.map((x) => ({ ...x })),
      floors: p.floors,
    })),
    tiles: state.board.tiles.map((t) => ({ tile: t.view.tile.id, at: [t.x, t.y] as const, rot: t.view.rot })),
    meeples: state.meeples.map((m) => ({ player: m.player, kind: m.kind, at: [m.x, m.y] as const, on: m.on })),
    towers: [...state.towers.values()].map((t) => ({ at: [t.x, t.y] as const, height: t.height, top: t.top ? t.top.player : null })),
    supply,
    tilesLeft,
  };
}
