/**
 * What may be done now: every legal meeple spot on the tile just placed, and every legal action of
 * the current step as a ready command. The recognizer uses these to reject impossible readings; the
 * random player and the reminders use them too.
 */
import type { MeepleKind, PlacedTile } from '../features/board.js';
import { meepleAllowed } from '../expansions/base.js';
import { meeplesInReach } from '../expansions/tower.js';
import type { Command } from './commands.js';
import { decide, gateProblem } from './engine.js';
import type { GameState, Prisoner } from './state.js';

export interface MeepleSpot {
  readonly kind: MeepleKind;
  /** The feature's name on the tile (segment, CLOISTER, GARDEN, or catalog id of an enclosed field). */
  readonly on: string;
  readonly featureKind: string;
  readonly at: readonly [number, number];
}

/** Every feature of the tile just placed where each of the player's figures may stand. */
export function legalMeepleSpots(state: GameState): MeepleSpot[] {
  const out: MeepleSpot[] = [];
  forEachMeepleSpot(state, (kind, t, i) => {
    const f = t.view.features[i]!;
    out.push({ kind, on: f.name, featureKind: f.def.kind, at: [t.x, t.y] });
  });
  return out;
}

/** Calls `found` with each figure kind and feature index of the tile just placed where it may stand. */
function forEachMeepleSpot(state: GameState, found: (kind: MeepleKind, t: PlacedTile, feature: number) => void): void {
  if (state.turn.step !== 'action') return;
  const t = state.board.tiles[state.turn.tile];
  if (!t) return;
  const player = state.turn.player;
  for (const kind of state.pipeline.figures.keys()) {
    if (state.players[player]!.supply[kind] <= 0) continue; // none in supply: every spot is refused
    for (let i = 0; i < t.parts.length; i++) if (meepleAllowed(state, player, kind, t.parts[i]!)) found(kind, t, i);
  }
}

/** The tower actions open to the active player (floors with each possible capture, closing a tower). */
function towerActions(state: GameState): Command[] {
  const player = state.turn.player;
  const out: Command[] = [];
  const me = state.players[player]!;
  const optional = state.setup.rules.towerCapture === 'optional';
  for (const tower of state.towers.values()) {
    if (tower.top) continue;
    const at = [tower.x, tower.y] as const;
    if (me.floors > 0) {
      const reach = meeplesInReach(state, tower.x, tower.y, tower.height + 1);
      if (reach.length === 0 || optional) out.push({ type: 'placeTowerFloor', player, at });
      for (const m of reach) {
        const capture = { player: m.player, at: [m.x, m.y] as const, on: m.on, kind: m.kind };
        const kinds = m.player !== player ? prisonerKinds(state.players[m.player]!.prisoners, player) : [];
        if (kinds.length > 1) for (const k of kinds) out.push({ type: 'placeTowerFloor', player, at, capture: { ...capture, exchangeFor: k } });
        else out.push({ type: 'placeTowerFloor', player, at, capture });
      }
    }
    if (tower.height >= 1) {
      for (const kind of ['normal', 'big'] as const) {
        if (state.pipeline.figures.has(kind) && me.supply[kind] > 0) out.push({ type: 'closeTower', player, kind, at });
      }
    }
  }
  return out;
}

/** The kinds of `owner`'s meeples among these prisoners, each once, in the order first held. */
function prisonerKinds(prisoners: readonly Prisoner[], owner: number): MeepleKind[] {
  const kinds: MeepleKind[] = [];
  for (const p of prisoners) if (p.owner === owner && !kinds.includes(p.kind)) kinds.push(p.kind);
  return kinds;
}

/** Which kinds of command `legalActions` lists (all by default). */
export interface ActionKinds {
  /** Ransoms (The Tower), open in any step. */
  readonly ransoms?: boolean;
  /** The action step's meeples, tower floors and abbot returns. */
  readonly actions?: boolean;
  readonly endTurn?: boolean;
}

const BY_CONSTRUCTION = new Set<Command['type']>(['placeMeeple', 'placeTowerFloor', 'closeTower']);

const ALL_KINDS: ActionKinds = { ransoms: true, actions: true, endTurn: true };

/**
 * Every legal command of the current step except tile placement (see legalPlacements for that);
 * `kinds` narrows the list, sparing the checks of commands the caller does not want (ending the turn
 * is checked by working out its scoring).
 */
export function legalActions(state: GameState, kinds: ActionKinds = ALL_KINDS): Command[] {
  if (state.finished) return [];
  const player = state.turn.player;
  const out: Command[] = [];
  if (kinds.ransoms && !state.turn.ransomPaid && state.players[player]!.score >= 3) {
    state.players.forEach((holder, i) => {
      for (const kind of prisonerKinds(holder.prisoners, player)) out.push({ type: 'payRansom', player, prisonerOf: i, kind });
    });
  }
  if (kinds.actions && state.turn.step === 'action') {
    forEachMeepleSpot(state, (kind, t, i) => out.push({ type: 'placeMeeple', player, kind, on: t.view.features[i]!.name }));
    if (state.pipeline.commands.has('placeTowerFloor')) out.push(...towerActions(state));
    if (state.pipeline.commands.has('returnAbbot')) {
      for (const m of state.meeples) {
        if (m.player === player && m.kind === 'abbot') out.push({ type: 'returnAbbot', player, at: [m.x, m.y] });
      }
    }
  }
  if (kinds.endTurn && state.turn.step !== 'tile') out.push({ type: 'endTurn', player });
  // Meeple spots, tower floors and closing meeples are legal by construction (meepleAllowed, the
  // tower's reach, an open tower with a floor and a figure in supply); the rest still goes through
  // the command's own checks.
  return out.filter((c) => (BY_CONSTRUCTION.has(c.type) ? gateProblem(state, c) === null : decide(state, c).ok));
}
