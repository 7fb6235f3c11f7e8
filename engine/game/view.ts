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
  /** The land tile drawn this turn (Jousts & Crests, Siege & Defense). */
  readonly drawn?: string;
  readonly joustsCrests?: JoustsCrestsView;
  readonly siegeDefense?: SiegeDefenseView;
}

export interface JoustsCrestsView {
  readonly stacks: readonly { readonly land: number; readonly prizes: number }[];
  readonly current: number;
  readonly finalPrizes: number;
  readonly crown: { readonly space: number; readonly category: string };
  readonly players: readonly {
    readonly emblems: number;
    readonly revealed: readonly number[];
    readonly prizesHeld: number;
    readonly keptEmblems: readonly number[];
    readonly inBox: number;
  }[];
  /** Meeples with an emblem under them (never its value). */
  readonly nominated: readonly { readonly player: number; readonly at: readonly [number, number]; readonly on: string }[];
  readonly statues: readonly { readonly player: number; readonly value: number; readonly at: readonly [number, number]; readonly on: string }[];
  readonly tournament: { readonly category: string; readonly participants: readonly number[]; readonly revealed: readonly { readonly player: number; readonly value: number; readonly bonus: number }[] } | null;
  readonly laps: boolean;
}

export interface SiegeDefenseView {
  readonly rowLength: number;
  readonly posts: Readonly<Record<string, { readonly row: readonly number[]; readonly space: readonly number[]; readonly catapult: boolean }>>;
  readonly pending: readonly string[];
  readonly attack: { readonly post: string; readonly removers: readonly number[] } | null;
}

function joustsCrestsView(state: GameState): JoustsCrestsView | undefined {
  const j = state.jc;
  if (!j) return undefined;
  return {
    stacks: j.stacks.map((s) => ({ ...s })),
    current: j.current,
    finalPrizes: j.finalPrizes,
    crown: { space: j.crown, category: j.options.crownSpaces[j.crown % j.options.crownSpaces.length]! },
    players: j.players.map((p) => ({ emblems: p.emblems, revealed: [...p.revealed], prizesHeld: p.prizesHeld, keptEmblems: [...p.keptEmblems], inBox: p.box.length + p.boxHidden })),
    nominated: state.meeples.filter((m) => j.nominated.has(m.id)).map((m) => ({ player: m.player, at: [m.x, m.y] as const, on: m.on })),
    statues: j.statues.map((s) => ({ player: s.player, value: s.value, at: [s.at[0], s.at[1]] as const, on: s.on })),
    tournament: j.tournament ? { category: j.tournament.category, participants: [...j.tournament.participants], revealed: j.tournament.reveals.map((r) => ({ player: r.player, value: r.value, bonus: r.bonus })) } : null,
    laps: j.laps,
  };
}

function siegeDefenseView(state: GameState): SiegeDefenseView | undefined {
  const s = state.sd;
  if (!s) return undefined;
  const posts: Record<string, { row: number[]; space: number[]; catapult: boolean }> = {};
  for (const [name, p] of Object.entries(s.posts)) posts[name] = { row: [...p.row], space: [...p.space], catapult: p.catapult };
  return { rowLength: s.rowLength, posts, pending: [...s.pending], attack: s.attack ? { post: s.attack.post, removers: [...s.attack.removers] } : null };
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
    ...(state.turn.drawn ? { drawn: state.turn.drawn } : {}),
    ...(state.jc ? { joustsCrests: joustsCrestsView(state) } : {}),
    ...(state.sd ? { siegeDefense: siegeDefenseView(state) } : {}),
  };
}
