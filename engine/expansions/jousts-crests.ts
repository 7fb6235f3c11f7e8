/**
 * Jousts & Crests (2025): land stacks with prize tiles between them, nominations (a hidden emblem
 * under a traveler, knight or farmer whose feature the player just extended), a tournament whenever the
 * current stack runs out, prize tiles placed first with the sole winner's emblem on the statue, and
 * statue scoring at the end (rules digest §1; readings JC-A1…A10 in docs/jousts-crests-siege-defense.md).
 */
import chart from './data/jousts-crests.json' with { type: 'json' };
import { tiles2025 } from '../catalog/provisional2025.js';
import type { MeepleOnBoard } from '../features/board.js';
import { formatPosition } from '../geometry/position.js';
import { isRotation, quarterTurns } from '../geometry/segments.js';
import type {
  Command, DiscardPrizeTile, Nominate, PlacePrizeTile, PlaceTournamentTile, RevealEmblem, SkipTurn,
} from '../game/commands.js';
import type {
  EmblemRevealed, EmblemsCleared, GameEvent, MeepleNominated, PrizeTileDiscarded, PrizeTilePlaced,
  TournamentCategory, TournamentResolved, TournamentStarted, TournamentTilePlaced,
} from '../game/events.js';
import type { ExpansionModule } from '../game/expansion.js';
import { hasLegalPlacement, placementProblem } from '../game/placement.js';
import { riverTilesLeft, type GameState } from '../game/state.js';
import { addExpansionRiverTiles, addExpansionTiles } from '../game/supply.js';
import { fail, ok } from '../result.js';
import { placeOnBoard } from './base.js';
import { buildStacks, chartFor } from './jousts-crests/stacks.js';
import { awardPrizes, tournamentBonus } from './jousts-crests/values.js';
import {
  isRiverBend, TOURNAMENT_RIVER_PIECE, tournamentTilePlacement, tournamentTileSpots, tournamentTileWaiting,
} from './jousts-crests/tournament-tile.js';
import type { JcState, Reveal } from './jousts-crests/state.js';

export const EMBLEM_VALUES: readonly number[] = chart.emblemValues;
const STATUE_POINTS_PER_COAT = 3;
const DEFAULT_CROWN: readonly TournamentCategory[] = ['road', 'city', 'field'];

const CATEGORY_OF_FEATURE: Record<string, TournamentCategory> = { road: 'road', city: 'city', field: 'field' };

export { buildStacks, chartFor } from './jousts-crests/stacks.js';
export { awardPrizes, fieldBonus, tournamentBonus } from './jousts-crests/values.js';
export {
  isRiverBend, TOURNAMENT_RIVER_PIECE, tournamentTilePlacement, tournamentTileSpots, tournamentTileWaiting,
} from './jousts-crests/tournament-tile.js';

export function jc(state: GameState): JcState {
  if (!state.jc) throw new Error('Jousts & Crests is not in play');
  return state.jc;
}

function isRiverTileId(state: GameState, id: string): boolean {
  return state.catalog.get(id)?.features.some((f) => f.kind === 'river') ?? false;
}

/** A tournament must be resolved before anyone draws: the current stack is empty. */
export function tournamentDue(state: GameState): boolean {
  const j = state.jc;
  if (!j || j.laps || j.tournament || state.turn.drawn !== null || state.turn.step !== 'tile') return false;
  if (riverTilesLeft(state) > 0) return false;
  return (j.stacks[j.current]?.land ?? 0) === 0;
}

export function isFinalStack(j: JcState): boolean {
  return j.current >= j.stacks.length - 1;
}

/** The category the crown points at. */
export function crownCategory(j: JcState): TournamentCategory {
  const spaces = j.options.crownSpaces;
  return spaces[j.crown % spaces.length]!;
}

function meepleCategory(state: GameState, m: MeepleOnBoard): TournamentCategory | null {
  if (m.part < 0 || (m.kind !== 'normal' && m.kind !== 'big')) return null;
  return CATEGORY_OF_FEATURE[state.board.feature(m.part).kind] ?? null;
}

/** A player's nominated meeples of the category, in a stable order. */
export function nominatedMeeples(state: GameState, player: number, category: TournamentCategory): MeepleOnBoard[] {
  const j = jc(state);
  return state.meeples.filter((m) => m.player === player && j.nominated.has(m.id) && meepleCategory(state, m) === category);
}

/** Clockwise from the active player, those with a nominated meeple of the category. */
export function participants(state: GameState, category: TournamentCategory): number[] {
  const n = state.players.length;
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const p = (state.turn.player + k) % n;
    if (nominatedMeeples(state, p, category).length > 0) out.push(p);
  }
  return out;
}

function resolveOutcome(state: GameState, t: { category: TournamentCategory; final: boolean }, reveals: readonly Reveal[]): TournamentResolved {
  const j = jc(state);
  const ranked = reveals.map((r) => ({ player: r.player, value: r.value + r.bonus })).sort((a, b) => b.value - a.value);
  const available = t.final ? j.finalPrizes : (j.stacks[j.current + 1]?.prizes ?? 0);
  const { prizes, leftover, soleWinner } = awardPrizes(ranked, state.players.length, state.turn.player, available);
  let kept: TournamentResolved['kept'] = null;
  const toBox: { player: number; value: number }[] = [];
  for (const r of reveals) {
    if (r.player === soleWinner && kept === null) kept = { player: r.player, value: r.value };
    else toBox.push({ player: r.player, value: r.value });
  }
  return {
    type: 'tournamentResolved',
    category: t.category,
    ranking: ranked,
    prizes,
    leftover,
    kept,
    toBox,
    crown: (j.crown + 1) % j.options.crownSpaces.length,
    final: t.final,
  };
}

function unrevealedValues(j: JcState, player: number): number[] {
  const left = [...EMBLEM_VALUES];
  for (const v of j.players[player]!.revealed) {
    const i = left.indexOf(v);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** Tiles placed this turn that the farmer's 8 neighbours include (they did not count "before"). */
function ringFilledBefore(state: GameState, m: MeepleOnBoard): number {
  const board = state.board;
  let n = 0;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      const t = board.at(m.x + dx, m.y + dy);
      if (t && !state.turn.placed.includes(t.index)) n++;
    }
  }
  return n;
}

/** Does a tile placed this turn join the feature of `part`? */
function extendedThisTurn(state: GameState, part: number): boolean {
  const board = state.board;
  const root = board.find(part);
  for (const i of state.turn.placed) {
    const parts = board.tiles[i]!.parts;
    for (let k = 0; k < parts.length; k++) if (board.find(parts[k]!) === root) return true;
  }
  return false;
}

/** Why this meeple may not be nominated now, or null. */
export function nominationProblem(state: GameState, player: number, m: MeepleOnBoard): string | null {
  const j = jc(state);
  if (j.nominatedTurn === state.turn.number) return 'only one nomination per turn';
  if (j.players[player]!.emblems <= 0) return `player ${player} has no emblem left in supply`;
  if (m.player !== player) return 'a player nominates only their own meeples';
  const category = meepleCategory(state, m);
  if (!category) return 'only a traveler, knight or farmer can be nominated';
  if (j.nominated.has(m.id)) return 'that meeple already carries an emblem';
  if (!j.options.allowRenominate && j.spent.has(m.id)) return 'that meeple has already been in a tournament (allowRenominate is off)';
  if (!extendedThisTurn(state, m.part)) return 'no tile placed this turn extends that meeple\'s feature';
  if (category === 'field' && ringFilledBefore(state, m) === 8) return 'the farmer\'s tile already had all 8 neighbours before this turn';
  return null;
}

/** Nominations the active player may make now (for reminders and the random player). */
export function nominationCandidates(state: GameState): MeepleOnBoard[] {
  if (!state.jc || state.turn.step !== 'action') return [];
  const p = state.turn.player;
  // Every meeple would be refused for the same reason (see nominationProblem's first checks).
  if (state.jc.nominatedTurn === state.turn.number || state.jc.players[p]!.emblems <= 0) return [];
  // Only meeples on a feature a tile of this turn extends can be nominated: look at those alone.
  const board = state.board;
  const extended: number[] = [];
  for (const i of state.turn.placed) for (const part of board.tiles[i]!.parts) extended.push(board.find(part));
  return state.meeples.filter((m) => m.player === p && m.part >= 0 && extended.includes(board.find(m.part)) && nominationProblem(state, p, m) === null);
}

/** The player's meeple on the feature named by `on` at `at` (any segment of that feature on the tile). */
export function findMeepleAt(state: GameState, player: number, at: readonly [number, number], on: string): MeepleOnBoard | undefined {
  const part = state.board.partAt(at[0], at[1], on);
  return state.meeples.find((m) => m.player === player && m.x === at[0] && m.y === at[1] && (m.on === on || (part !== undefined && m.part === part)));
}

function prizeTileLeft(j: JcState, id: string): boolean {
  return (j.prizePool.get(id) ?? 0) > 0;
}

/** Why the land-tile steps cannot go on yet (prize tiles first, draw first…), or null. */
function landTileBlocked(state: GameState, j: JcState): string | null {
  if (j.tournament) return `the ${j.tournament.category} tournament is being resolved: player ${j.tournament.participants[j.tournament.reveals.length]} reveals next`;
  if (tournamentDue(state)) return `stack ${j.current + 1} is empty: resolve the ${crownCategory(j)} tournament first`;
  if (j.laps) return 'no land tiles are drawn after the final tournament';
  return null;
}

export const joustsCrestsModule: ExpansionModule = {
  id: 'jousts-crests',
  maxPlayers: 6,

  setup(state) {
    addExpansionTiles(state, 'jousts-crests');
    addExpansionRiverTiles(state, 'jousts-crests');
    const o = state.setup.options?.jc ?? {};
    const pool = new Map<string, number>();
    for (const [id, p] of tiles2025().prizeTiles) pool.set(id, p.count);
    state.jc = {
      options: {
        crownSpaces: o.crownSpaces ?? DEFAULT_CROWN,
        crownStart: o.crownStart ?? 0,
        startTileToBox: o.startTileToBox ?? true,
        allowRenominate: o.allowRenominate ?? true,
      },
      stacks: [],
      current: 0,
      finalPrizes: 0,
      crown: o.crownStart ?? 0,
      prizePool: pool,
      players: state.players.map(() => ({ emblems: EMBLEM_VALUES.length, revealed: [], prizesHeld: 0, keptEmblems: [], box: [], boxHidden: 0 })),
      nominated: new Map(),
      spent: new Set(),
      statues: [],
      prizeTileIndices: new Set(),
      tournament: null,
      tournamentsDone: 0,
      laps: false,
      nominatedTurn: 0,
    };
  },

  afterSetup(state) {
    const j = jc(state);
    const start = state.setup.start;
    const river = state.setup.expansions.includes('river');
    if (!river && j.options.startTileToBox && !start.some((s) => s.tile === 'BASE_D')) {
      const d = state.supply.get('BASE_D');
      if (d) state.supply.set('BASE_D', d - 1);
    }
    let land = 0;
    for (const [id, c] of state.supply) if (!isRiverTileId(state, id)) land += c;
    for (const s of start) if (!isRiverTileId(state, s.tile) && (state.supply.get(s.tile) ?? 0) > 0) land--;
    const given = state.setup.options?.jc?.stacks;
    const { S, P } = given ?? chartFor(land, state.players.length);
    const built = buildStacks(land, S, P, chart.prizeTiles);
    if (given?.land) given.land.forEach((n, i) => { if (built.stacks[i]) built.stacks[i]!.land = n; });
    j.stacks = built.stacks;
    j.finalPrizes = built.finalPrizes;
  },

  afterTileDrawn(state, tile) {
    const j = jc(state);
    if (isRiverTileId(state, tile)) return;
    const s = j.stacks[j.current];
    if (s) s.land--;
  },

  afterMeepleLifted(state, m) {
    const j = state.jc!;
    const owner = j.nominated.get(m.id);
    if (owner === undefined) return;
    j.nominated.delete(m.id);
    j.players[owner]!.emblems++;
  },

  meepleRule(state, _player, _kind, part) {
    const t = state.board.partTile[part]!;
    if (jc(state).prizeTileIndices.has(t)) return 'no meeple may be placed on a prize tile';
    if (state.board.tiles[t]!.piece >= 0) return 'no meeple may be placed on the tournament tile or the fortress';
    return null;
  },

  commandRule(state, command: Command) {
    const j = jc(state);
    switch (command.type) {
      case 'drawTile':
        return landTileBlocked(state, j);
      case 'placeTile':
      case 'discardTile': {
        // Without a draw entered, the tile laid is the one drawn (base.ts `impliedDraw`), from the
        // current stack: only what the rules put between the draw and the placement stops it.
        const undrawn = state.turn.drawn === null;
        if (undrawn) {
          const blocked = landTileBlocked(state, j);
          if (blocked) return blocked;
        }
        const bend = tournamentTileWaiting(state) && isRiverBend(state, command.tile) && tournamentTileSpots(state).length > 0;
        if (bend) return undrawn ? `the first river bend: draw it (drawTile ${command.tile}) and place the tournament tile first, continuing the river` : 'the first river bend: place the tournament tile first, continuing the river';
        if (j.players[state.turn.player]!.prizesHeld > 0) return `player ${state.turn.player} must place their prize tile before the land tile`;
        return null;
      }
      case 'endTurn':
        if (j.players[state.turn.player]!.prizesHeld > 0) return `player ${state.turn.player} still holds a prize tile to place`;
        return null;
      case 'finishGame':
        if (j.tournament || tournamentDue(state)) return 'the final tournament has not been resolved';
        if (!j.laps) return `the game ends after the final tournament; stack ${j.current + 1} of ${j.stacks.length} is being played`;
        {
          const holder = j.players.findIndex((p) => p.prizesHeld > 0);
          if (holder >= 0) return `player ${holder} has not placed their prize tile`;
        }
        return null;
      default:
        return null;
    }
  },

  nextPlayer(state, player) {
    const j = jc(state);
    if (!j.laps) return null;
    const n = state.players.length;
    for (let k = 1; k <= n; k++) {
      const p = (player + k) % n;
      if (j.players[p]!.prizesHeld > 0) return p;
    }
    return null;
  },

  commands: {
    resolveTournament: {
      steps: ['tile'],
      decide(state) {
        const j = jc(state);
        if (j.tournament) return fail('a tournament is already being resolved');
        if (state.turn.drawn !== null) return fail('the tile is already drawn');
        if (!tournamentDue(state)) return fail(`stack ${j.current + 1} still has ${j.stacks[j.current]?.land ?? 0} land tiles: no tournament now`);
        const category = crownCategory(j);
        const order = participants(state, category);
        const started: TournamentStarted = { type: 'tournamentStarted', player: state.turn.player, category, participants: order, final: isFinalStack(j) };
        if (order.length > 0) return ok([started]);
        // Nobody to reveal: resolve at once (all prize tiles move on, the crown still advances).
        return ok([started, resolveOutcome(state, started, [])]);
      },
    },
    revealEmblem: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as RevealEmblem;
        const j = jc(state);
        const t = j.tournament;
        if (!t) return fail('no tournament is being resolved');
        const next = t.participants[t.reveals.length];
        if (c.owner !== next) return fail(`player ${next} reveals next, not player ${c.owner}`);
        const m = findMeepleAt(state, c.owner, c.at, c.on);
        if (!m) return fail(`player ${c.owner} has no meeple at ${formatPosition(c.at)} ${c.on}`);
        if (!j.nominated.has(m.id)) return fail(`player ${c.owner}'s meeple at ${formatPosition(c.at)} ${c.on} carries no emblem`);
        if (meepleCategory(state, m) !== t.category) return fail(`that meeple is not a ${t.category === 'road' ? 'traveler' : t.category === 'city' ? 'knight' : 'farmer'}: this is a ${t.category} tournament`);
        const left = unrevealedValues(j, c.owner);
        if (!left.includes(c.value)) return fail(`player ${c.owner} has no hidden emblem of value ${c.value} (still hidden: ${left.join(', ') || 'none'})`);
        const { bonus, items } = tournamentBonus(state, m, t.category);
        const revealed: EmblemRevealed = { type: 'emblemRevealed', player: c.owner, kind: m.kind, at: [m.x, m.y], on: m.on, value: c.value, bonus, items: [{ name: 'emblem', points: c.value }, ...items] };
        if (t.reveals.length + 1 < t.participants.length) return ok([revealed]);
        return ok([revealed, resolveOutcome(state, t, [...t.reveals, { player: c.owner, value: c.value, bonus, meeple: m.id }])]);
      },
    },
    placePrizeTile: {
      steps: ['tile', 'action', 'actionDone'],
      decide(state, command) {
        const c = command as PlacePrizeTile;
        const j = jc(state);
        if (state.turn.step !== 'tile' && !j.laps) return fail('prize tiles are placed before the land tile');
        const blocked = j.tournament ? landTileBlocked(state, j) : null;
        if (blocked) return fail(blocked);
        if (j.players[c.player]!.prizesHeld <= 0) return fail(`player ${c.player} holds no prize tile`);
        // The land tile drawn first is the rule (§1.3), but the companion learns the draw when that tile
        // is laid (its placement implies it), so a prize tile may be told first; only a tournament
        // due before the draw comes before it.
        if (!j.laps && state.turn.drawn === null) {
          const before = landTileBlocked(state, j);
          if (before) return fail(before);
        }
        if (!tiles2025().prizeTiles.has(c.tile)) return fail(`${c.tile} is not a prize tile`);
        if (!prizeTileLeft(j, c.tile)) return fail(`no ${c.tile} is left among the prize tiles`);
        if (!isRotation(c.rot)) return fail(`rotation ${String(c.rot)} is not 0, 90, 180 or 270`);
        const why = placementProblem(state, state.catalog.view(c.tile, quarterTurns(c.rot)), c.at[0], c.at[1]);
        if (why) return fail(`prize tile ${c.tile} cannot go to ${formatPosition(c.at)} turned ${c.rot}: ${why}`);
        const emblem = j.players[c.player]!.keptEmblems[0] ?? null;
        return ok([{ type: 'prizeTilePlaced', player: c.player, tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot, emblem }]);
      },
    },
    discardPrizeTile: {
      steps: ['tile', 'action', 'actionDone'],
      decide(state, command) {
        const c = command as DiscardPrizeTile;
        const j = jc(state);
        if (state.turn.step !== 'tile' && !j.laps) return fail('prize tiles are placed before the land tile');
        if (j.players[c.player]!.prizesHeld <= 0) return fail(`player ${c.player} holds no prize tile`);
        if (!j.laps && state.turn.drawn === null) {
          const before = landTileBlocked(state, j);
          if (before) return fail(before);
        }
        if (!prizeTileLeft(j, c.tile)) return fail(`no ${c.tile} is left among the prize tiles`);
        if (hasLegalPlacement(state, c.tile)) return fail(`prize tile ${c.tile} fits somewhere on the board, so it cannot be discarded`);
        return ok([{ type: 'prizeTileDiscarded', player: c.player, tile: c.tile, emblem: j.players[c.player]!.keptEmblems[0] ?? null }]);
      },
    },
    nominate: {
      steps: ['action'],
      decide(state, command) {
        const c = command as Nominate;
        const m = findMeepleAt(state, c.player, c.at, c.on);
        if (!m) return fail(`player ${c.player} has no meeple at ${formatPosition(c.at)} ${c.on}`);
        const why = nominationProblem(state, c.player, m);
        if (why) return fail(`cannot nominate the meeple at ${formatPosition(c.at)} ${c.on}: ${why}`);
        return ok([{ type: 'meepleNominated', player: c.player, kind: m.kind, at: [m.x, m.y], on: m.on }]);
      },
    },
    placeTournamentTile: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as PlaceTournamentTile;
        if (!tournamentTileWaiting(state)) return fail('the tournament tile is already on the board (or The River is not in play)');
        const drawn = state.turn.drawn;
        if (drawn === null || !isRiverBend(state, drawn)) return fail('the tournament tile enters when the first river bend is drawn');
        if (!isRotation(c.rot)) return fail(`rotation ${String(c.rot)} is not 0, 90, 180 or 270`);
        const cells = tournamentTilePlacement(state, c.at, c.rot);
        if (typeof cells === 'string') return fail(`the tournament tile cannot go to ${formatPosition(c.at)} turned ${c.rot}: ${cells}`);
        return ok([{ type: 'tournamentTilePlaced', player: c.player, at: [c.at[0], c.at[1]], rot: c.rot, cells }]);
      },
    },
    skipTurn: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as SkipTurn;
        const j = jc(state);
        if (!j.laps) return fail('turns are skipped only in the placement laps after the final tournament');
        if (j.players[c.player]!.prizesHeld > 0) return fail(`player ${c.player} holds a prize tile to place`);
        let next = (c.player + 1) % state.players.length;
        for (const hook of state.pipeline.nextPlayer) next = hook(state, c.player) ?? next;
        return ok([{ type: 'turnEnded', player: c.player, next }]);
      },
    },
  },

  reducers: {
    tournamentTilePlaced(state, e) {
      const s = e as TournamentTilePlaced;
      for (const c of s.cells) {
        const placed = placeOnBoard(state, c.tile, c.at[0], c.at[1], c.rot, TOURNAMENT_RIVER_PIECE);
        state.turn.placed.push(placed.index);
      }
    },
    tournamentStarted(state, e) {
      const s = e as TournamentStarted;
      jc(state).tournament = { category: s.category, participants: s.participants, reveals: [], final: s.final };
    },
    emblemRevealed(state, e) {
      const s = e as EmblemRevealed;
      const j = jc(state);
      const m = state.meeples.find((x) => x.player === s.player && x.x === s.at[0] && x.y === s.at[1] && x.on === s.on && j.nominated.has(x.id))!;
      j.nominated.delete(m.id);
      j.spent.add(m.id);
      j.players[s.player]!.revealed.push(s.value);
      j.tournament!.reveals.push({ player: s.player, value: s.value, bonus: s.bonus, meeple: m.id });
    },
    tournamentResolved(state, e) {
      const s = e as TournamentResolved;
      const j = jc(state);
      for (const p of s.prizes) j.players[p]!.prizesHeld++;
      if (s.final) j.finalPrizes -= s.prizes.length + s.leftover;
      else {
        const next = j.stacks[j.current + 1]!;
        next.prizes = 0;
        j.finalPrizes += s.leftover;
      }
      if (s.kept) j.players[s.kept.player]!.keptEmblems.push(s.kept.value);
      for (const b of s.toBox) j.players[b.player]!.box.push(b.value);
      j.crown = s.crown;
      j.tournament = null;
      j.tournamentsDone++;
      if (s.final) j.laps = true;
      else j.current++;
    },
    prizeTilePlaced(state, e) {
      const s = e as PrizeTilePlaced;
      const j = jc(state);
      const placed = placeOnBoard(state, s.tile, s.at[0], s.at[1], s.rot);
      j.prizePool.set(s.tile, j.prizePool.get(s.tile)! - 1);
      j.prizeTileIndices.add(placed.index);
      const jp = j.players[s.player]!;
      jp.prizesHeld--;
      state.turn.placed.push(placed.index);
      if (s.emblem !== null) {
        jp.keptEmblems.shift();
        const statueId = state.catalog.get(s.tile)?.statue ?? tiles2025().prizeTiles.get(s.tile)!.statue;
        const fi = placed.view.features.findIndex((f) => f.def.id === statueId);
        j.statues.push({ player: s.player, value: s.emblem, part: placed.parts[fi]!, at: [placed.x, placed.y], on: placed.view.features[fi]!.name });
      }
      if (j.laps) {
        state.turn.step = 'action';
        state.turn.tile = placed.index;
      }
    },
    prizeTileDiscarded(state, e) {
      const s = e as PrizeTileDiscarded;
      const j = jc(state);
      j.prizePool.set(s.tile, j.prizePool.get(s.tile)! - 1);
      const jp = j.players[s.player]!;
      jp.prizesHeld--;
      if (s.emblem !== null) jp.box.push(jp.keptEmblems.shift()!);
      // A lap turn whose only prize tile fits nowhere still ends like any other turn.
      if (j.laps && state.turn.step === 'tile') state.turn.step = 'actionDone';
    },
    meepleNominated(state, e) {
      const s = e as MeepleNominated;
      const j = jc(state);
      const m = state.meeples.find((x) => x.player === s.player && x.x === s.at[0] && x.y === s.at[1] && x.on === s.on && x.kind === s.kind)!;
      j.nominated.set(m.id, s.player);
      j.players[s.player]!.emblems--;
      j.nominatedTurn = state.turn.number;
    },
    emblemsCleared(state, e) {
      const s = e as EmblemsCleared;
      const j = jc(state);
      s.counts.forEach((n, p) => { j.players[p]!.boxHidden += n; });
      j.nominated.clear();
    },
  },

  finalScoring(state) {
    const j = jc(state);
    const counts = state.players.map(() => 0);
    for (const owner of j.nominated.values()) counts[owner]!++;
    const out: GameEvent[] = [{ type: 'emblemsCleared', counts }];
    for (const s of j.statues) {
      const coats = state.board.feature(s.part).pennants;
      out.push({
        type: 'scored',
        players: [s.player],
        points: STATUE_POINTS_PER_COAT * coats,
        kind: 'statue',
        feature: { at: s.at, on: s.on },
        items: [{ name: 'coats of arms', count: coats, points: STATUE_POINTS_PER_COAT * coats }],
        final: true,
      });
    }
    return out;
  },
};

/** Emblems a player has anywhere (supply, under meeples, on statues, kept, in a running tournament, box). */
export function emblemCount(state: GameState, player: number): number {
  const j = jc(state);
  const p = j.players[player]!;
  let under = 0;
  for (const o of j.nominated.values()) if (o === player) under++;
  const onStatues = j.statues.filter((s) => s.player === player).length;
  const inTournament = j.tournament?.reveals.filter((r) => r.player === player).length ?? 0;
  return p.emblems + under + onStatues + p.keptEmblems.length + inTournament + p.box.length + p.boxHidden;
}
