/**
 * Seeded random legal playouts: a bot that draws tiles from the supply and picks uniformly among the
 * legal moves. Used by property tests and benchmarks; deterministic for a seed.
 */
import type { TileCatalog } from '../catalog/registry.js';
import type { Command } from '../game/commands.js';
import { rng } from './rng.js';
import { defaultCatalog } from '../game/engine.js';
import { Game } from '../game/game.js';
import { legalActions } from '../game/legal.js';
import { breaksARule, tileProblem, type Placement } from '../game/placement.js';
import { fitsHole, type Hole } from '../features/board.js';
import { ROTATIONS } from '../geometry/segments.js';
import type { GameSetup } from '../game/setup.js';
import type { GameState } from '../game/state.js';
import {
  playDefencePost, playLap, playTournamentTile, playNomination, playPrizeTiles, playSiege, playTournament, usesDraw,
} from './expansion-steps.js';

export { rng } from './rng.js';

export interface RandomGameOptions {
  /** Chance to take an action (meeple, tower, abbot) when one is legal. */
  readonly actionRate?: number;
  /** Chance to pay a ransom when one is possible. */
  readonly ransomRate?: number;
  /** Stop after this many turns (the rest of the supply stays unplayed). */
  readonly maxTurns?: number;
  readonly catalog?: TileCatalog;
  /** Run final scoring at the end (default true). */
  readonly finish?: boolean;
  /** Chance to nominate (Jousts & Crests) and to send a meeple to a defence post (Siege & Defense). */
  readonly nominateRate?: number;
  readonly postRate?: number;
  /** Called after every accepted command, e.g. to check invariants along the way. */
  readonly onCommand?: (game: Game, command: Command) => void;
}

/** Draws a tile the rules allow now, weighted by how many are left (rejection sampling). */
export function drawTile(state: GameState, random: () => number): string | null {
  const supply = state.supply;
  const total = supply.total;
  if (total <= 0) return null;
  // The usual case, without building the weight lists: the first tile drawn is allowed.
  let r = random() * total;
  let chosen = -1;
  for (let j = 0; j < supply.size; j++) {
    const n = supply.countAt(j);
    if (n <= 0) continue;
    chosen = j;
    if ((r -= n) < 0) break;
  }
  const first = supply.idAt(chosen);
  if (!tileProblem(state, state.catalog.get(first)!)) return first;
  const ids: string[] = [];
  const weights: number[] = [];
  let left = 0;
  for (let j = 0; j < supply.size; j++) {
    const n = supply.countAt(j);
    if (n <= 0) continue;
    ids.push(supply.idAt(j));
    weights.push(j === chosen ? 0 : n);
    if (j !== chosen) left += n;
  }
  while (left > 0) {
    r = random() * left;
    let i = 0;
    while (i < ids.length - 1 && (r -= weights[i]!) >= 0) i++;
    if (!tileProblem(state, state.catalog.get(ids[i]!)!)) return ids[i]!;
    left -= weights[i]!;
    weights[i] = 0;
  }
  return null;
}

/** Scratch list for randomPlacement (one per process: the random player is not re-entered). */
const holeList: Hole[] = [];

/**
 * A random legal placement: holes in random order, rotations in random order, the first that fits.
 * Cheaper than listing every placement, and just as legal.
 */
export function randomPlacement(state: GameState, tileId: string, random: () => number): Placement | null {
  const holes = holeList;
  const all = state.board.holeList();
  const count = all.length;
  for (let i = 0; i < count; i++) holes[i] = all[i]!;
  const rules = state.pipeline.placementRules;
  const views = state.catalog.views(tileId);
  for (let n = count; n > 0; n--) {
    const i = Math.floor(random() * n);
    const hole = holes[i]!;
    holes[i] = holes[n - 1]!;
    const q0 = Math.floor(random() * 4);
    for (let k = 0; k < 4; k++) {
      const q = (q0 + k) % 4;
      const view = views[q]!;
      if (!fitsHole(view, hole)) continue;
      if (breaksARule(state, rules, view, hole.x, hole.y)) continue;
      return { at: [hole.x, hole.y], rot: ROTATIONS[q]! };
    }
  }
  return null;
}

function pick<T>(xs: readonly T[], random: () => number): T {
  return xs[Math.floor(random() * xs.length)]!;
}

export function randomGame(setup: GameSetup, seed: number, options: RandomGameOptions = {}): Game {
  const random = rng(seed);
  const started = Game.start(setup, options.catalog ?? defaultCatalog());
  if (!started.ok) throw new Error(`random game setup: ${started.reason}`);
  const game = started.value;
  const actionRate = options.actionRate ?? 0.7;
  const ransomRate = options.ransomRate ?? 0.3;
  const play = (c: Command) => {
    const r = game.play(c);
    if (!r.ok) throw new Error(`random game (seed ${seed}) made an illegal move ${JSON.stringify(c)}: ${r.reason}`);
    options.onCommand?.(game, c);
  };
  const current = () => game.state;
  const draws = usesDraw(game.state);
  let turns = 0;
  while (turns < (options.maxTurns ?? Infinity)) {
    playTournament(current, play, random);
    if (game.state.jc?.laps) {
      if (!playLap(current, play, random)) break;
      turns++;
      continue;
    }
    const state = game.state;
    const player = state.turn.player;
    const ransoms = legalActions(state, { ransoms: true });
    if (ransoms.length > 0 && random() < ransomRate) play(pick(ransoms, random));
    const tile = drawTile(state, random);
    if (!tile) break;
    if (draws) {
      play({ type: 'drawTile', player, tile });
      playSiege(current, play, random);
      playPrizeTiles(current, play, random);
      playTournamentTile(current, play, random);
    }
    const spot = randomPlacement(game.state, tile, random);
    if (!spot) {
      play({ type: 'discardTile', player, tile });
      continue;
    }
    play({ type: 'placeTile', player, tile, at: spot.at, rot: spot.rot });
    if (draws) playNomination(current, play, random, options.nominateRate ?? 0.5);
    const actions = legalActions(game.state, { actions: true });
    if (actions.length > 0 && random() < actionRate) play(pick(actions, random));
    if (draws) playDefencePost(current, play, random, options.postRate ?? 0.5);
    play({ type: 'endTurn', player });
    turns++;
  }
  if (options.finish ?? true) play({ type: 'finishGame' });
  return game;
}
