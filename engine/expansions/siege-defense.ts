/**
 * Siege & Defense (2025): the fortress with three defence posts (knights, travelers, monks & abbots),
 * standard meeples sent to a post after a matching placement, counter attacks when a row fills,
 * siege symbols that bring catapults or, where one stands, an attack; final counter attacks; the
 * fortress as one completed city for farmers (rules digest §2; readings SD-A1…A7 in
 * docs/jousts-crests-siege-defense.md).
 */
import type { MeepleOnBoard } from '../features/board.js';
import { formatPosition } from '../geometry/position.js';
import type { Command, PlaceAtDefencePost, RemoveMeepleForAttack, ResolveSiegeSymbol } from '../game/commands.js';
import type {
  AttackStarted, CatapultPlaced, DefencePostName, GameEvent, MeeplePosted, MeepleRemovedByAttack, PostCleared,
} from '../game/events.js';
import type { ExpansionModule } from '../game/expansion.js';
import type { GameState } from '../game/state.js';
import { addExpansionRiverTiles, addExpansionTiles } from '../game/supply.js';
import { fail, ok } from '../result.js';
import { liftMeeple } from './base.js';
import type { DefencePost, SdState } from './siege-defense/state.js';

export const POSTS: readonly DefencePostName[] = ['knights', 'travelers', 'monks'];
export const POINTS_PER_MEEPLE = 3;
export const EXTRA_MEEPLES = 2;
export const DEFAULT_ROW_BASE: readonly [number, number] = [3, 4];
const POST_WORD: Record<DefencePostName, string> = { knights: 'knight', travelers: 'traveler', monks: 'monk or abbot' };

export function sd(state: GameState): SdState {
  if (!state.sd) throw new Error('Siege & Defense is not in play');
  return state.sd;
}

/** L(2)=a, L(3)=a+1, L(4)=b, L(5)=L(6)=b+1 (SD-A1). */
export function rowLength(players: number, [a, b]: readonly [number, number]): number {
  if (players <= 2) return a;
  if (players === 3) return a + 1;
  if (players === 4) return b;
  return b + 1;
}

/** Which post a meeple placed on this kind of feature sends a row meeple to; farmers: any meeple space. */
export function postForFeature(kind: string, meeple: MeepleOnBoard['kind']): DefencePostName | 'field' | null {
  if (meeple === 'abbot') return 'monks';
  if (kind === 'city') return 'knights';
  if (kind === 'road') return 'travelers';
  if (kind === 'cloister' || kind === 'garden') return 'monks';
  if (kind === 'field') return 'field';
  return null;
}

/** Meeples the post's attack can take (SD-A5): knights in cities, travelers on roads, monks or the abbot. */
export function attackable(state: GameState, m: MeepleOnBoard, post: DefencePostName): boolean {
  if (m.part < 0) return false;
  if (post === 'monks') return m.kind === 'abbot' || state.board.feature(m.part).kind === 'cloister';
  if (m.kind === 'abbot') return false;
  return state.board.feature(m.part).kind === (post === 'knights' ? 'city' : 'road');
}

export function meeplesAtPost(p: DefencePost, player: number): number {
  return p.row.filter((x) => x === player).length + p.space.filter((x) => x === player).length;
}

/** 3 points per own meeple at the post, one event per player who has any. */
function postScores(state: GameState, post: DefencePostName, kind: string, final: boolean): GameEvent[] {
  const p = sd(state).posts[post];
  const out: GameEvent[] = [];
  state.players.forEach((_, player) => {
    const n = meeplesAtPost(p, player);
    if (n === 0) return;
    out.push({ type: 'scored', players: [player], points: POINTS_PER_MEEPLE * n, kind, items: [{ name: `meeples at the ${post} post`, count: n, points: POINTS_PER_MEEPLE * n }], final });
  });
  return out;
}

/** Clockwise from the active player: those with no meeple at the post and a matching meeple on the board. */
export function attackRemovers(state: GameState, post: DefencePostName): number[] {
  const s = sd(state);
  const n = state.players.length;
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const pl = (state.turn.player + k) % n;
    if (meeplesAtPost(s.posts[post], pl) > 0) continue;
    if (state.meeples.some((m) => m.player === pl && attackable(state, m, post))) out.push(pl);
  }
  return out;
}

/** The post meeple the active player may still add this turn: where, or null. */
export function postOption(state: GameState): { post: DefencePostName | 'any'; space: 'row' | 'meeple' } | null {
  const s = state.sd;
  if (!s || state.turn.step !== 'actionDone' || s.postedTurn === state.turn.number) return null;
  const p = state.turn.player;
  if (state.players[p]!.supply.normal <= 0) return null;
  const t = state.board.tiles[state.turn.tile];
  const m = state.meeples.findLast((x) => x.id === state.nextMeepleId - 1);
  if (!t || !m || m.player !== p || m.part < 0 || m.x !== t.x || m.y !== t.y) return null;
  const target = postForFeature(state.board.feature(m.part).kind, m.kind);
  if (!target) return null;
  if (target === 'field') return { post: 'any', space: 'meeple' };
  if (s.posts[target].row.length >= s.rowLength) return null;
  return { post: target, space: 'row' };
}

function pendingProblem(s: SdState): string | null {
  if (s.attack) return `attack at the ${s.attack.post} post: player ${s.attack.removers[0]} must first remove a ${POST_WORD[s.attack.post]}`;
  if (s.pending.length > 0) return `the drawn tile's siege symbol (${s.pending[0]}) must be resolved first`;
  return null;
}

const ALWAYS_ALLOWED = new Set<Command['type']>(['resolveSiegeSymbol', 'removeMeepleForAttack', 'payRansom']);

export const siegeDefenseModule: ExpansionModule = {
  id: 'siege-defense',
  maxPlayers: 6,
  // The final counter attacks come before Jousts & Crests' emblem clean-up and statues (digest §3).
  finalOrder: -1,

  setup(state) {
    addExpansionTiles(state, 'siege-defense');
    addExpansionRiverTiles(state, 'siege-defense');
    for (const p of state.players) p.supply.normal += EXTRA_MEEPLES;
    const base = state.setup.options?.sd?.rowBase ?? DEFAULT_ROW_BASE;
    const post = (): DefencePost => ({ row: [], space: [], catapult: false });
    state.sd = {
      rowLength: rowLength(state.players.length, base),
      posts: { knights: post(), travelers: post(), monks: post() },
      pending: [],
      attack: null,
      postedTurn: 0,
      counterAttack: null,
    };
  },

  afterSetup(state) {
    // The fortress replaces the start tile (without River rules; Jousts & Crests does it when in play).
    const river = state.setup.expansions.includes('river');
    if (!river && !state.jc && !state.setup.start.some((s) => s.tile === 'BASE_D')) {
      const d = state.supply.get('BASE_D');
      if (d) state.supply.set('BASE_D', d - 1);
    }
  },

  afterTilePlaced(state, placed) {
    const fi = placed.view.features.findIndex((f) => f.kind === 'fortress');
    if (fi < 0) return;
    const part = placed.parts[fi]!;
    // The whole fortress is one city (SD-A2): join every fortress cell's keep to the first one.
    const first = state.board.tiles.find((t) => t.index !== placed.index && t.view.features.some((f) => f.kind === 'fortress'));
    if (first) state.board.joinInside(first.parts[first.view.features.findIndex((f) => f.kind === 'fortress')]!, part);
    state.board.markAlwaysComplete(part);
  },

  afterTileDrawn(state, tile) {
    // The catalog's tile carries its printed symbols (the table may have confirmed them).
    const symbols = state.catalog.get(tile)?.siege;
    if (symbols) sd(state).pending.push(...symbols);
  },

  meepleRule(state, _player, _kind, part) {
    const t = state.board.partTile[part]!;
    if (state.board.tiles[t]!.piece >= 0) return 'no meeple may be placed on the fortress or the tournament tile';
    return null;
  },

  commandRule(state, command) {
    const s = sd(state);
    if (!ALWAYS_ALLOWED.has(command.type)) {
      const why = pendingProblem(s);
      if (why) return why;
    }
    // Without a draw entered, placing a tile implies its draw (base.ts `impliedDraw`) unless it shows
    // a siege symbol: that is resolved between the draw and the placement.
    if ((command.type === 'placeTile' || command.type === 'discardTile') && state.turn.drawn === null && (state.catalog.get(command.tile)?.siege?.length ?? 0) > 0) {
      return `${command.tile} shows a siege symbol: draw it first (drawTile ${command.tile}), the symbol is resolved before it is placed`;
    }
    return null;
  },

  beforeScoring(state) {
    const s = sd(state);
    if (!s.counterAttack) return [];
    return [...postScores(state, s.counterAttack, 'counterAttack', false), { type: 'postCleared', post: s.counterAttack }];
  },

  finalScoring(state) {
    const out: GameEvent[] = [];
    for (const post of POSTS) {
      const scores = postScores(state, post, 'counterAttack', true);
      out.push(...scores, { type: 'postCleared', post });
    }
    return out;
  },

  commands: {
    resolveSiegeSymbol: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as ResolveSiegeSymbol;
        const s = sd(state);
        if (s.attack) return fail(pendingProblem(s)!);
        const symbol = s.pending[0];
        if (!symbol) return fail('no siege symbol is waiting');
        if (!POSTS.includes(c.post)) return fail(`${String(c.post)} is not a defence post (knights, travelers, monks)`);
        if (symbol !== 'any' && symbol !== c.post) return fail(`the symbol points at the ${symbol} post, not the ${c.post} post`);
        if (!s.posts[c.post].catapult) return ok([{ type: 'catapultPlaced', player: c.player, post: c.post }]);
        const removers = attackRemovers(state, c.post);
        const out: GameEvent[] = [{ type: 'attackStarted', player: c.player, post: c.post, removers }, ...postScores(state, c.post, 'attack', false)];
        if (removers.length === 0) out.push({ type: 'postCleared', post: c.post });
        return ok(out);
      },
    },
    removeMeepleForAttack: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as RemoveMeepleForAttack;
        const s = sd(state);
        if (!s.attack) return fail('no attack is waiting for a removal');
        const who = s.attack.removers[0];
        if (c.owner !== who) return fail(`player ${who} removes next, not player ${c.owner}`);
        const part = state.board.partAt(c.at[0], c.at[1], c.on);
        const m = state.meeples.find((x) => x.player === c.owner && x.x === c.at[0] && x.y === c.at[1] && (x.on === c.on || x.part === part) && (!c.kind || x.kind === c.kind));
        if (!m) return fail(`player ${c.owner} has no meeple at ${formatPosition(c.at)} ${c.on}`);
        if (!attackable(state, m, s.attack.post)) return fail(`that meeple is not a ${POST_WORD[s.attack.post]}: the attack is on the ${s.attack.post} post`);
        const out: GameEvent[] = [{ type: 'meepleRemovedByAttack', player: c.owner, kind: m.kind, at: [m.x, m.y], on: m.on, post: s.attack.post }];
        if (s.attack.removers.length === 1) out.push({ type: 'postCleared', post: s.attack.post });
        return ok(out);
      },
    },
    placeAtDefencePost: {
      steps: ['actionDone'],
      decide(state, command) {
        const c = command as PlaceAtDefencePost;
        const s = sd(state);
        if (s.postedTurn === state.turn.number) return fail('only one meeple goes to a defence post per turn');
        if (!POSTS.includes(c.post)) return fail(`${String(c.post)} is not a defence post (knights, travelers, monks)`);
        const option = postOption(state);
        if (!option) {
          if (state.players[c.player]!.supply.normal <= 0) return fail(`player ${c.player} has no standard meeple in supply`);
          return fail('a meeple goes to a defence post only right after placing a knight, traveler, monk, abbot or farmer this turn (with room in the row)');
        }
        if (option.space !== c.space) return fail(option.space === 'meeple' ? 'after a farmer, the meeple goes on a post\'s meeple space' : `after this placement the meeple goes into the ${option.post} row`);
        if (option.post !== 'any' && option.post !== c.post) return fail(`after this placement the meeple goes to the ${option.post} post, not the ${c.post} post`);
        return ok([{ type: 'meeplePosted', player: c.player, post: c.post, space: c.space }]);
      },
    },
  },

  reducers: {
    catapultPlaced(state, e) {
      const s = sd(state);
      s.pending.shift();
      s.posts[(e as CatapultPlaced).post].catapult = true;
    },
    attackStarted(state, e) {
      const a = e as AttackStarted;
      const s = sd(state);
      s.pending.shift();
      s.attack = { post: a.post, removers: [...a.removers] };
    },
    meepleRemovedByAttack(state, e) {
      const r = e as MeepleRemovedByAttack;
      liftMeeple(state, r.player, r.kind, r.at, r.on);
      state.players[r.player]!.supply[r.kind]++;
      sd(state).attack?.removers.shift();
    },
    postCleared(state, e) {
      const s = sd(state);
      const post = (e as PostCleared).post;
      const p = s.posts[post];
      for (const owner of [...p.row, ...p.space]) state.players[owner]!.supply.normal++;
      p.row.length = 0;
      p.space.length = 0;
      p.catapult = false;
      if (s.attack?.post === post) s.attack = null;
      if (s.counterAttack === post) s.counterAttack = null;
    },
    meeplePosted(state, e) {
      const m = e as MeeplePosted;
      const s = sd(state);
      const p = s.posts[m.post];
      (m.space === 'row' ? p.row : p.space).push(m.player);
      state.players[m.player]!.supply.normal--;
      s.postedTurn = state.turn.number;
      if (m.space === 'row' && p.row.length >= s.rowLength) s.counterAttack = m.post;
    },
  },
};
