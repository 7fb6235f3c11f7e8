/** Builds the public view of a game (see electron/contract/snapshot.ts), field by field. */
import { decide } from '../../../engine/game/engine.js';
import type { Scored } from '../../../engine/game/events.js';
import type { Game } from '../../../engine/game/game.js';
import type { GameState } from '../../../engine/game/state.js';
import { explain } from '../../../engine/scoring/explain.js';
import type { OrientedTile } from '../../../engine/geometry/oriented.js';
import type { GameView, PlaceView, ScoreView, TileView } from '../../contract/snapshot.js';
import { describeCommand, describeEvent } from './describe.js';
import { jcView, sdView } from './view-2025.js';
import { TableWords } from './words.js';
import { tileWordsAll } from '../../../engine/catalog/tile-words.js';
import { reminders } from '../../../engine/game/reminders.js';
import { legalActions } from '../../../engine/game/legal.js';

function featureTiles(state: GameState, s: Scored): ScoreView['feature'] {
  if (!s.feature) return null;
  const [x, y] = s.feature.at;
  const part = state.board.partAt(x, y, s.feature.on);
  const tiles: [number, number][] = [];
  if (part !== undefined) {
    const seen = new Set<number>();
    for (const i of state.board.feature(part).tiles) {
      if (seen.has(i)) continue;
      seen.add(i);
      const t = state.board.tiles[i]!;
      tiles.push([t.x, t.y]);
    }
  }
  return { at: [x, y], on: s.feature.on, tiles };
}

function scoreView(state: GameState, s: Scored): ScoreView {
  return { players: [...s.players], points: s.points, kind: s.kind, text: explain(s), final: s.final, feature: featureTiles(state, s) };
}

function remindersView(state: GameState, w: TableWords): Pick<GameView, 'reminders' | 'next' | 'lit'> {
  const rs = reminders(state);
  const said = rs.map((r) => w.rewrite(r.text));
  const lit = new Map<string, PlaceView>();
  for (const p of said.flatMap((x) => x.places)) lit.set(`${p.x},${p.y},${p.on}`, p);
  return { reminders: said.map((x) => x.text), lit: [...lit.values()], next: rs.map((r) => ({ what: r.what, who: [...r.who], required: r.required })) };
}

/** The game's tile types in words, distinct where two would read the same (one map per catalog and boxes). */
const namesCache = new WeakMap<object, Map<string, Readonly<Record<string, string>>>>();
function tileNames(state: GameState): Readonly<Record<string, string>> {
  const key = [...state.setup.expansions].sort().join(',');
  let byBoxes = namesCache.get(state.catalog);
  if (!byBoxes) namesCache.set(state.catalog, (byBoxes = new Map()));
  let names = byBoxes.get(key);
  if (!names) {
    const types = state.setup.expansions.flatMap((x) => state.catalog.ofExpansion(x));
    names = Object.fromEntries(tileWordsAll(types));
    byBoxes.set(key, names);
  }
  return names;
}

/** The figure spots on the tile the turn has just placed (each figure kind the rules allow there). */
export function meepleSpots(state: GameState): GameView['meepleSpots'] {
  if (state.turn.step !== 'action' || state.turn.tile < 0) return [];
  const tile = state.board.tiles[state.turn.tile];
  if (!tile) return [];
  const out: { kind: string; on: string }[] = [];
  for (const kind of state.pipeline.figures.keys()) {
    for (const f of tile.view.features) {
      if (decide(state, { type: 'placeMeeple', player: state.turn.player, kind, on: f.name }).ok) out.push({ kind, on: f.name });
    }
  }
  return out;
}

export function gameView(gameId: number, game: Game): GameView {
  const state = game.state;
  const w = new TableWords(state);
  const supply = [...state.supply].filter(([, n]) => n > 0).map(([tile, count]) => ({ tile, count })).sort((a, b) => a.tile.localeCompare(b.tile));
  const tilesLeft = supply.reduce((n, s) => n + s.count, 0);
  const scores: ScoreView[] = [];
  let lastScoring: ScoreView[] = [];
  // Where the tile of each move's turn lies: a figure's place names a feature of it.
  let tileThisTurn: readonly [number, number] | null = null;
  const log = game.history.map((h, index) => {
    const c = h.command;
    if (c.type === 'placeTile' || c.type === 'placePrizeTile' || c.type === 'placeTournamentTile') tileThisTurn = c.at;
    const move = describeCommand(c, w, tileThisTurn);
    const events = h.events.map((e) => describeEvent(e, w)).filter((t) => t !== null);
    if (c.type === 'endTurn' || c.type === 'skipTurn') tileThisTurn = null;
    const turnScores = h.events.filter((e): e is Scored => e.type === 'scored').map((s) => scoreView(state, s));
    scores.push(...turnScores);
    if (turnScores.length) lastScoring = turnScores;
    return {
      index,
      command: h.command,
      text: move.text,
      events: events.map((e) => e.text),
      places: [...move.places, ...events.flatMap((e) => e.places)],
    };
  });
  return {
    gameId,
    expansions: [...state.setup.expansions],
    rules: { ...state.setup.rules },
    players: state.players.map((p, i) => ({
      name: state.setup.players[i]!.name,
      color: state.setup.players[i]!.color,
      score: p.score,
      byKind: { ...p.byKind },
      supply: { ...p.supply },
      floors: p.floors,
      prisoners: p.prisoners.map((q) => ({ owner: q.owner, kind: q.kind })),
    })),
    turn: { number: state.turn.number, player: state.turn.player, step: state.turn.step, drawn: state.turn.drawn },
    finished: state.finished,
    tilesLeft,
    supply,
    board: state.board.tiles.map((t) => tileView(t.view, t.x, t.y)),
    meeples: state.meeples.map((m) => ({ player: m.player, kind: m.kind, x: m.x, y: m.y, on: m.on })),
    towers: [...state.towers.values()].map((t) => ({ x: t.x, y: t.y, height: t.height, top: t.top ? { player: t.top.player, kind: t.top.kind } : null })),
    log,
    scores,
    lastScoring,
    ...remindersView(state, w),
    tileNames: tileNames(state),
    meepleSpots: meepleSpots(state),
    actions: game.state.finished ? [] : legalActions(state, { ransoms: true, actions: true }).filter((c) => c.type !== 'placeMeeple'),
    canUndo: game.canUndo(),
    canRedo: game.canRedo(),
    jc: jcView(state),
    sd: sdView(state),
  };
}

/** A tile as laid (or as a reading would lay it), in board frame: what the screens draw. */
export function tileView(v: OrientedTile, x: number, y: number): TileView {
  return {
    tile: v.tile.id,
    x,
    y,
    rot: v.rot,
    terrain: [...v.terrain],
    features: v.features.map((f) => ({
      name: f.name, kind: f.def.kind, segments: [...f.segments], pennants: f.def.pennants, inn: f.def.inn, cathedral: f.def.cathedral,
    })),
    lake: v.tile.riverLake,
  };
}
