/**
 * The click entry's state (issue 29): the tile picked, where it may go and the turn shown there, the
 * tower chosen for a floor, the meeple chosen for a reveal. Nothing here touches the game until a
 * command is sent; Esc drops it all. The engine answers every legality question (the snapshot's
 * meepleSpots and actions, the placements operation), so the screens only light what it allows.
 */
import type { Command } from '../../../engine/game/commands.js';
import type { FigureSpotView, PlacementsView, TileChoice, TilePlacement } from '../../../electron/contract/entry.js';
import type { GameView, TileView } from '../../../electron/contract/snapshot.js';
import { api, app, run } from './app-state.svelte.js';
import { camera } from './camera.svelte.js';

export type PickAs = 'land' | 'prize' | 'tournament';

export const entry = $state<{
  /** The game's tile types (fetched once per game). */
  choices: readonly TileChoice[];
  choicesFor: number;
  pick: { tile: string; as: PickAs } | null;
  placements: PlacementsView | null;
  /** What the placements answer is for: version, tile and kind. */
  placementsFor: string;
  /** The lit cell under the pointer, and the one clicked (the tile waits there for a second click or Enter). */
  hover: string | null;
  chosen: string | null;
  /** The turn shown per cell (an index into that cell's legal turns). */
  turn: Record<string, number>;
  /** The tower chosen for a floor ("x,y"). */
  tower: string | null;
  /** The nominated meeple whose emblem is being turned up. */
  reveal: { x: number; y: number; on: string } | null;
  /** Several things a click could mean (which prisoner comes back, nominate or take back…): the table picks one. */
  options: readonly Target[] | null;
  help: boolean;
  /** A command (and the end of turn that may follow it) is on its way. */
  busy: boolean;
  /** The next turn's tile, picked while this turn could still end (the pick ended it): applied once that turn wants its tile. */
  nextPick: { tile: string; after: number } | null;
  /** Turn key the state above belongs to: a new turn or step drops it. */
  stepKey: string;
}>({
  choices: [],
  choicesFor: -1,
  pick: null,
  placements: null,
  placementsFor: '',
  hover: null,
  chosen: null,
  turn: {},
  tower: null,
  reveal: null,
  options: null,
  help: false,
  busy: false,
  nextPick: null,
  stepKey: '',
});

export const cellKey = (x: number, y: number) => `${x},${y}`;

/** Esc: backs out of a half-entered turn; the game is not touched. */
export function backOut(): void {
  entry.pick = null;
  entry.placements = null;
  entry.placementsFor = '';
  entry.hover = null;
  entry.chosen = null;
  entry.turn = {};
  entry.tower = null;
  entry.reveal = null;
  entry.options = null;
}

/** Which kind of tile the step wants: the tournament tile, a prize tile, or the land tile. */
export function wanted(game: GameView): PickAs | null {
  if (game.finished || game.turn.step !== 'tile') return null;
  const due = (w: string) => game.next.some((n) => n.what === w);
  if (due('placeTournamentTile')) return 'tournament';
  if (due('placePrizeTile')) return 'prize';
  if (due('placeTile') || due('drawTile')) return 'land';
  return null;
}

/** The tile the camera read or proposed for this turn, if any (preselected in the picker). */
function cameraTile(): string | null {
  for (const p of camera.view?.proposals ?? []) {
    const c = p.readings[0]?.command;
    if (c?.type === 'placeTile') return c.tile;
  }
  return null;
}

/** Keeps the entry in step with the game: a new step drops what was half entered and picks what is known. */
export function follow(game: GameView): void {
  const key = `${game.gameId}:${game.turn.number}:${game.turn.player}:${game.turn.step}:${game.turn.drawn ?? ''}:${wanted(game)}`;
  if (key !== entry.stepKey) {
    entry.stepKey = key;
    backOut();
  }
  const want = wanted(game);
  const next = entry.nextPick;
  if (next && game.turn.number !== next.after && want === 'land') {
    entry.nextPick = null;
    if (game.supply.some((s) => s.tile === next.tile)) entry.pick = { tile: next.tile, as: 'land' };
  }
  if (!entry.pick && want === 'tournament') entry.pick = { tile: 'JC-TOURNAMENT-RIVER', as: 'tournament' };
  if (!entry.pick && want === 'land') {
    const known = game.turn.drawn ?? cameraTile();
    if (known && game.supply.some((s) => s.tile === known)) entry.pick = { tile: known, as: 'land' };
  }
  if (entry.choicesFor !== game.gameId) {
    entry.choicesFor = game.gameId;
    void run(api().tileChoices()).then((c) => {
      if (c) entry.choices = c;
    });
  }
}

/** Fetches where the picked tile may go (again after every change of the game). */
export function loadPlacements(version: number): void {
  const p = entry.pick;
  if (!p) return;
  // A land tile that must be drawn first lights nothing until it is.
  const key = `${version}|${p.tile}|${p.as}`;
  if (key === entry.placementsFor) return;
  entry.placementsFor = key;
  // Until the answer comes nothing is lit: the cells lit for another tile, or before the last move,
  // would take a click the rules then refuse.
  entry.placements = null;
  void api().placements(p.tile, p.as).then((r) => {
    if (entry.placementsFor !== key) return;
    entry.placements = r.ok ? r.value : { cells: [], problem: r.error };
  });
}

export function placementAt(key: string | null): TilePlacement | undefined {
  if (!key) return undefined;
  return entry.placements?.cells.find((c) => cellKey(c.x, c.y) === key);
}

/**
 * The tile as it would lie at the cell shown (chosen first, else hovered), at its shown turn, with
 * the figure spots it would offer there (numbered for the keys 1–9).
 */
export function ghost(): { key: string; cells: readonly TileView[]; turns: number; turn: number; spots: (FigureSpotView & { n: number })[] } | null {
  const key = entry.chosen ?? entry.hover;
  const at = placementAt(key);
  if (!key || !at) return null;
  const k = (entry.turn[key] ?? 0) % at.turns.length;
  const shown = at.turns[k]!;
  return { key, cells: shown.cells, turns: at.turns.length, turn: k, spots: (shown.spots ?? []).map((s, i) => ({ ...s, n: i + 1 })) };
}

/** R, the wheel, a right click: the next (or previous) legal turn at the cell shown. */
export function cycle(step = 1): boolean {
  const g = ghost();
  if (!g || g.turns < 2) return false;
  entry.turn = { ...entry.turn, [g.key]: (g.turn + step + g.turns) % g.turns };
  return true;
}

/** Places the picked tile where the ghost shows it. */
export async function placeShown(game: GameView): Promise<boolean> {
  const g = ghost();
  const p = entry.pick;
  const at = placementAt(g?.key ?? null);
  if (!g || !p || !at) return false;
  const rot = at.turns[g.turn]!.rot as 0 | 90 | 180 | 270;
  const player = game.turn.player;
  const c: Command =
    p.as === 'tournament' ? { type: 'placeTournamentTile', player, at: [at.x, at.y], rot }
    : p.as === 'prize' ? { type: 'placePrizeTile', player, tile: p.tile, at: [at.x, at.y], rot }
    : { type: 'placeTile', player, tile: p.tile, at: [at.x, at.y], rot };
  // A land tile on which no figure may stand, with nothing else to do, ends the turn too.
  if (c.type === 'placeTile') return actThenEnd(c);
  return play(c);
}

/**
 * A figure spot clicked on the tile shown: the tile is laid there at its shown turn and the figure
 * on that spot — the whole turn in one click (the turn then ends by itself when nothing may follow).
 */
export async function placeWithFigure(game: GameView, spot: FigureSpotView): Promise<boolean> {
  const g = ghost();
  const p = entry.pick;
  const at = placementAt(g?.key ?? null);
  if (!g || !p || p.as !== 'land' || !at) return false;
  const rot = at.turns[g.turn]!.rot as 0 | 90 | 180 | 270;
  const player = game.turn.player;
  // Busy across both commands, so that nothing reads the half-done turn as finished.
  entry.busy = true;
  try {
    if (!(await play({ type: 'placeTile', player, tile: p.tile, at: [at.x, at.y], rot }))) return false;
    return await actThenEnd({ type: 'placeMeeple', player, kind: spot.kind as 'normal' | 'big' | 'abbot', on: spot.on });
  } finally {
    entry.busy = false;
  }
}

/**
 * Whether the picker offers the next turn's tile now: the tile is laid and nothing the rules require
 * is left but the end of the turn (a figure, a tower floor, an abbot are options).
 */
export function nextTileEnds(game: GameView): boolean {
  if (game.finished || (game.turn.step !== 'action' && game.turn.step !== 'actionDone')) return false;
  return game.next.some((n) => n.what === 'endTurn') && game.next.every((n) => n.what === 'endTurn' || !n.required);
}

/**
 * The next turn's tile picked while this turn may still end: at a table the next player's draw means
 * this player did nothing more, so the pick ends the turn (Ctrl+Z takes that back) and waits for the
 * next turn's tile step.
 */
export async function pickNext(game: GameView, tile: string): Promise<boolean> {
  entry.busy = true;
  try {
    entry.nextPick = { tile, after: game.turn.number };
    if (await endTurn(game)) return true;
    entry.nextPick = null;
    return false;
  } finally {
    entry.busy = false;
  }
}

/** A click on a board cell: the first click puts the tile there, a second click on it places it. */
export async function clickCell(game: GameView, x: number, y: number): Promise<void> {
  const key = cellKey(x, y);
  if (!placementAt(key)) return;
  if (entry.chosen === key) {
    await placeShown(game);
    return;
  }
  entry.chosen = key;
}

export async function play(c: Command, done?: string): Promise<boolean> {
  return (await run(api().play(c), done)) !== null;
}

/** Ends the turn. */
export function endTurn(game: GameView): Promise<boolean> {
  return play({ type: 'endTurn', player: game.turn.player });
}

/**
 * After the turn's action (figure, floor, abbot), or a land tile on which nothing may be done: when
 * nothing else may follow in the turn (no figure spot, no legal tower, abbot or ransom action, the
 * engine's next steps only the end of the turn), the turn ends too, as in the digital games.
 */
export async function actThenEnd(c: Command): Promise<boolean> {
  entry.busy = true;
  try {
    if (!(await play(c))) return false;
    const s = await run(api().snapshot());
    const g = s?.game;
    if (!g || g.finished || g.turn.step === 'tile') return true;
    if (!app.snapshot || s.version >= app.snapshot.version) app.snapshot = s;
    // A ransom the player cannot pay yet is only a reminder; one they can pay is among the actions.
    const quiet = g.meepleSpots.length === 0 && g.actions.length === 0 && g.next.every((n) => n.what === 'endTurn' || n.what === 'counterAttack' || n.what === 'payRansom');
    if (quiet && (await endTurn(g))) {
      // The new turn is shown before the entry says it is done (its push may come later).
      const after = await run(api().snapshot());
      if (after && (!app.snapshot || after.version >= app.snapshot.version)) app.snapshot = after;
    }
    return true;
  } finally {
    entry.busy = false;
  }
}

/** The figure spots of the tile just placed, numbered for the keys 1–9, in the snapshot's order. */
export function spots(game: GameView): { kind: string; on: string; n: number }[] {
  if (game.turn.step !== 'action') return [];
  return game.meepleSpots.map((s, i) => ({ ...s, n: i + 1 }));
}

/** The tile just placed (the figure spots are on it). */
export function placedTile(game: GameView): TileView | undefined {
  return game.turn.step === 'action' ? game.board.at(-1) : undefined;
}

/** A figure kind in words. */
export function figureWord(kind: string): string {
  return kind === 'normal' ? 'meeple' : kind === 'big' ? 'big meeple' : kind;
}

/** What lies at a spot of a tile, in words ("a city", "a road", "a field"). */
export function featureWord(tile: TileView | undefined, on: string): string {
  const SEG = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];
  const i = SEG.indexOf(on);
  const f = tile?.features.find((x) => x.name === on || (i >= 0 && x.segments.includes(i)));
  return f?.kind ?? 'tile';
}


/** Something a click on the board may do, in words. */
export interface Target {
  readonly label: string;
  readonly act: () => unknown;
  /** The click does it at once (nothing else to choose). */
  readonly direct?: boolean;
}

const same = (a: readonly [number, number], x: number, y: number) => a[0] === x && a[1] === y;

/** Runs the one thing a click means, or asks which when it means several. */
export function choose(targets: readonly Target[] | undefined): void {
  if (!targets?.length) return;
  if (targets.length === 1) void targets[0]!.act();
  else entry.options = targets;
}

/** What a click on each meeple may do now (by its index in game.meeples). */
export function meepleTargets(game: GameView): Map<number, Target[]> {
  const out = new Map<number, Target[]>();
  if (game.finished) return out;
  const name = (i: number) => game.players[i]?.name ?? `player ${i + 1}`;
  const add = (x: number, y: number, on: string | null, t: Target, owner?: number, kind?: string) => {
    game.meeples.forEach((m, i) => {
      if (m.x !== x || m.y !== y || (on !== null && m.on !== on) || (owner !== undefined && m.player !== owner) || (kind !== undefined && m.kind !== kind)) return;
      out.set(i, [...(out.get(i) ?? []), t]);
    });
  };
  // A floor on the chosen tower that captures this meeple (one per prisoner the capturer may take back).
  if (entry.tower) {
    for (const c of game.actions) {
      if (c.type !== 'placeTowerFloor' || !c.capture || cellKey(c.at[0], c.at[1]) !== entry.tower) continue;
      const cap = c.capture;
      const label = cap.exchangeFor ? `capture ${name(cap.player)}'s ${figureWord(cap.kind ?? 'normal')}, ${name(cap.player)} gives back your ${figureWord(cap.exchangeFor)}` : `capture ${name(cap.player)}'s ${figureWord(cap.kind ?? 'normal')}`;
      add(cap.at[0], cap.at[1], cap.on, { label, act: () => actThenEnd(c) }, cap.player, cap.kind);
    }
  }
  for (const c of game.actions) {
    if (c.type === 'returnAbbot') add(c.at[0], c.at[1], null, { label: 'take the abbot back (it scores now)', act: () => actThenEnd(c) }, c.player, 'abbot');
  }
  const jc = game.jc;
  if (jc && game.turn.step === 'action') {
    for (const n of jc.nominable) add(n.x, n.y, n.on, { label: 'slide an emblem under it (nominate)', act: () => play({ type: 'nominate', player: game.turn.player, at: [n.x, n.y], on: n.on }) }, game.turn.player);
  }
  const t = jc?.tournament;
  if (t && t.next !== null) {
    for (const s of t.nextMeeples) add(s.x, s.y, s.on, { label: 'turn up its emblem', act: () => (entry.reveal = { x: s.x, y: s.y, on: s.on }) }, t.next);
  }
  const attack = game.sd?.attack;
  if (attack && attack.removers.length) {
    const owner = attack.removers[0]!;
    for (const tg of attack.targets) {
      add(tg.x, tg.y, tg.on, { label: `${name(owner)} takes it off the board`, act: () => play({ type: 'removeMeepleForAttack', owner, at: [tg.x, tg.y], on: tg.on, kind: tg.kind as 'normal' | 'big' | 'abbot' }) }, owner, tg.kind);
    }
  }
  return out;
}

/** What a click on a tower may do (by "x,y"). */
export function towerTargets(game: GameView): Map<string, Target[]> {
  const out = new Map<string, Target[]>();
  for (const tw of game.towers) {
    const key = cellKey(tw.x, tw.y);
    const here = game.actions.filter((c) => (c.type === 'placeTowerFloor' || c.type === 'closeTower') && same(c.at, tw.x, tw.y));
    if (!here.length) continue;
    const plainOnly = here.length === 1 && here[0]!.type === 'placeTowerFloor' && !here[0]!.capture;
    out.set(key, [{ label: 'add a floor', direct: plainOnly, act: () => (plainOnly ? actThenEnd(here[0]!) : (entry.tower = key)) }]);
  }
  return out;
}

/** The choices for the chosen tower that are not a meeple to click: a floor capturing nobody, closing it. */
export function towerChoices(game: GameView): Target[] {
  if (!entry.tower) return [];
  const out: Target[] = [];
  for (const c of game.actions) {
    if ((c.type !== 'placeTowerFloor' && c.type !== 'closeTower') || cellKey(c.at[0], c.at[1]) !== entry.tower) continue;
    if (c.type === 'placeTowerFloor' && !c.capture) out.push({ label: 'Add the floor, capturing nobody', act: () => actThenEnd(c) });
    if (c.type === 'closeTower') out.push({ label: `Close the tower with a ${figureWord(c.kind)}`, act: () => actThenEnd(c) });
  }
  return out;
}

/** Jousts & Crests, Siege & Defense: the picked tile is the one drawn, from the stack the rules say. */
export function drawPicked(game: GameView): Promise<boolean> {
  const p = entry.pick;
  if (!p || p.as !== 'land') return Promise.resolve(false);
  return play({ type: 'drawTile', player: game.turn.player, tile: p.tile });
}

/** A tile type in words (the picker's names), never its id. */
export function tileName(tile: string | null | undefined): string {
  if (!tile) return '';
  return entry.choices.find((c) => c.tile === tile)?.words ?? 'a tile';
}

/** A meeple on the board in words: "Ada's meeple on a city". */
export function meepleWords(game: GameView, s: { x: number; y: number; on: string }, owner?: number): string {
  const m = game.meeples.find((q) => q.x === s.x && q.y === s.y && q.on === s.on && (owner === undefined || q.player === owner));
  const t = game.board.find((q) => q.x === s.x && q.y === s.y);
  const who = m ? `${game.players[m.player]?.name ?? ''}'s ` : '';
  return `${who}${figureWord(m?.kind ?? 'normal')} on a ${featureWord(t, s.on)}`;
}

/** Labels made distinct by a number where two would read the same. */
export function distinct(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const l of labels) total.set(l, (total.get(l) ?? 0) + 1);
  return labels.map((l) => {
    if (total.get(l)! < 2) return l;
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    return `${l} (${n})`;
  });
}
