/**
 * The click entry's questions (issue 29): tileChoices and placements answer from the engine, shaped
 * for the screens; both are open to second screens (reading only); the snapshot lists the other
 * legal actions; a redo after a new move is refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import { Game } from '../../engine/game/game.js';
import { legalPlacements } from '../../engine/game/placement.js';
import { parseArgs } from '../../electron/contract/api.js';
import { refusedFor } from '../../electron/contract/roles.js';
import { placements, tileChoices } from '../../electron/services/session/entry.js';
import { gameView } from '../../electron/services/session/view.js';
import { loadRecord, recordCommands, setupFromRecord } from './helpers/records.js';

const record = loadRecord('g101-base-river-abbot-ic-tower-2p.json');
const commands = recordCommands(record);

function gameAfter(n: number): Game {
  const g = Game.replay(setupFromRecord(record), commands.slice(0, n));
  if (!g.ok) throw new Error(g.reason);
  return g.value;
}

describe('the click entry’s questions', () => {
  it('tileChoices: every tile type of the supply, named in words and by box, drawn at rest', () => {
    const game = gameAfter(0);
    const choices = tileChoices(game);
    expect(new Set(choices.map((c) => c.tile))).toEqual(new Set(game.state.supply.keys()));
    for (const c of choices) {
      expect(c.words).not.toMatch(/\b(BASE|IC|TOWER|RIVER|ABBOT)_/);
      expect(c.words).not.toMatch(/\b[NESW][012]\b/);
      expect(c.view.terrain).toHaveLength(12);
    }
    expect(new Set(choices.map((c) => c.expansion))).toEqual(new Set(['Base game', 'The River', 'Inns & Cathedrals', 'The Tower']));
  });

  it('placements: the engine’s legal placements grouped by cell, each turn drawn as it would lie', () => {
    // A turn well into the game, at its tile step.
    const at = commands.findIndex((c, i) => i > 60 && c.type === 'placeTile');
    const game = gameAfter(at);
    const c = commands[at]!;
    if (c.type !== 'placeTile') throw new Error('expected a tile');
    const answer = placements(game, c.tile, 'land');
    const legal = legalPlacements(game.state, c.tile);
    expect(answer.problem).toBeNull();
    const flat = answer.cells.flatMap((cell) => cell.turns.map((t) => `${cell.x},${cell.y}@${t.rot}`)).sort();
    expect(flat).toEqual(legal.map((p) => `${p.at[0]},${p.at[1]}@${p.rot}`).sort());
    // The recorded placement is among them, drawn at its cell.
    const cell = answer.cells.find((k) => k.x === c.at[0] && k.y === c.at[1])!;
    const turn = cell.turns.find((t) => t.rot === c.rot)!;
    expect(turn.cells[0]).toMatchObject({ tile: c.tile, x: c.at[0], y: c.at[1], rot: c.rot });
    // Turns come in order, each once.
    for (const k of answer.cells) expect(k.turns.map((t) => t.rot)).toEqual([...new Set(k.turns.map((t) => t.rot))].sort((a, b) => a - b));
  });

  it('placements: each turn carries the figure spots the tile would offer so laid, as the snapshot would list them after it', () => {
    // Every tile of the record with a figure placed on it: the spot used is offered on its turn, and
    // each turn's spots equal the snapshot's after that placement; the game is not touched by asking.
    const laid = commands.flatMap((c, i) => (c.type === 'placeTile' && commands[i + 1]?.type === 'placeMeeple' ? [i] : [])).slice(0, 12);
    expect(laid.length).toBe(12);
    for (const at of laid) {
      const game = gameAfter(at);
      const c = commands[at]!;
      const figure = commands[at + 1]!;
      if (c.type !== 'placeTile' || figure.type !== 'placeMeeple') throw new Error('expected a tile and a figure');
      const before = game.events.length;
      const answer = placements(game, c.tile, 'land');
      expect(game.events.length).toBe(before);
      const turn = answer.cells.find((k) => k.x === c.at[0] && k.y === c.at[1])!.turns.find((t) => t.rot === c.rot)!;
      expect(turn.spots).toContainEqual({ kind: figure.kind, on: figure.on });
      expect(game.play(c).ok).toBe(true);
      expect(turn.spots).toEqual(gameView(1, game).meepleSpots);
    }
  });

  it('placements: a tile with none left says why; arguments are checked like every operation’s', () => {
    const game = gameAfter(0);
    const gone = [...game.state.catalog.ofExpansion('base')].find((t) => !game.state.supply.get(t.id))
      ?? { id: 'RIVER_SPRING_NONE' };
    const answer = placements(game, gone.id, 'land');
    expect(answer.cells).toEqual([]);
    expect(answer.problem).toBeTruthy();
    expect(parseArgs('placements', ['BASE_A; drop', 'land'])).toEqual({ ok: false, error: 'Where the tile may go: a catalog tile id' });
    expect(parseArgs('placements', ['BASE_A', 'anywhere']).ok).toBe(false);
    expect(refusedFor('screen', 'placements', false)).toBeNull();
    expect(refusedFor('screen', 'tileChoices', false)).toBeNull();
  });

  it('the snapshot lists the tower floors, captures, closings, abbot returns and ransoms the engine allows', () => {
    const i = commands.findIndex((c) => c.type === 'placeTowerFloor' && c.capture);
    expect(i).toBeGreaterThan(0);
    const view = gameView(1, gameAfter(i));
    expect(view.actions).toContainEqual(commands[i]);
    expect(view.actions.every((c) => ['placeTowerFloor', 'closeTower', 'returnAbbot', 'payRansom', 'endTurn'].includes(c.type))).toBe(true);
  });

  it('a redo after a new move is refused, saying why', () => {
    const game = gameAfter(10);
    expect(game.undo().ok).toBe(true);
    expect(game.play(commands[9]!).ok).toBe(true);
    const r = game.redo();
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^nothing to redo: a new move was entered after the undo/);
    expect(gameAfter(0).redo()).toEqual({ ok: false, reason: 'nothing to redo' });
  });
});
