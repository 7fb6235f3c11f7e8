/**
 * JC-A7 (rules digest §5): a won prize tile that fits nowhere. The placeholder prize tiles always
 * fit on a real board, so this scenario builds one where none can: every tile on it is a crossroads
 * (a test-only catalog tile with the base crossroads' drawing and enough copies), so every hole
 * needs a road edge, and prize tile JC-P-01 (a city and fields) has none. The digest's reading: the
 * prize tile leaves the game, and the emblem kept for its statue goes to the box and scores nothing.
 */
import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import { emblemCount } from '../../../engine/expansions/jousts-crests.js';
import type { Command } from '../../../engine/game/commands.js';
import type { GameEvent } from '../../../engine/game/events.js';
import { Game } from '../../../engine/game/game.js';
import { placementsIgnoringSupply } from '../../../engine/game/placement.js';
import { makeSetup } from '../../../engine/game/setup.js';

function crossroadsTable() {
  const catalog = TileCatalog.standard();
  const x = catalog.get('BASE_X')!;
  const added = catalog.add({ ...x, id: 'TEST_X', name: 'Crossroads (test copy)', counts: { C1: 9, C2: 9, C3: 9 } });
  if (!added.ok) throw new Error(added.reason);
  const setup = makeSetup({
    expansions: ['base', 'jousts-crests'],
    players: [{ name: 'P0', color: 'red' }, { name: 'P1', color: 'blue' }],
    start: [{ tile: 'TEST_X', at: [0, 0], rot: 0 }],
    options: { jc: { stacks: { S: 2, P: 1, land: [3, 5] }, crownSpaces: ['field'] } },
  });
  const started = Game.start(setup, catalog);
  if (!started.ok) throw new Error(started.reason);
  const game = started.value;
  const run = (c: Command): readonly GameEvent[] => {
    const r = game.play(c);
    if (!r.ok) throw new Error(`${c.type}: ${r.reason}`);
    return r.value;
  };
  const turn = (player: number, at: readonly [number, number], extra: Command[] = []) => {
    run({ type: 'drawTile', player, tile: 'TEST_X' });
    run({ type: 'placeTile', player, tile: 'TEST_X', at, rot: 0 });
    for (const c of extra) run(c);
    run({ type: 'endTurn', player });
  };
  return { game, run, turn };
}

describe('JC-A7: a prize tile that cannot be placed anywhere', () => {
  it('is discarded; its kept emblem goes to the box and scores nothing', () => {
    const { game, run, turn } = crossroadsTable();
    const s = () => game.state;
    // Player 0 puts a farmer in the north-east field of [1, 0], extends that field and nominates it.
    turn(0, [1, 0], [{ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N2' }]);
    turn(1, [1, -1]);
    turn(0, [2, 0], [{ type: 'nominate', player: 0, at: [1, 0], on: 'N2' }]);
    // Stack 1 is empty: the field tournament. Player 0 alone reveals, wins the prize tile and keeps the emblem.
    run({ type: 'resolveTournament', player: 1 });
    const resolved = run({ type: 'revealEmblem', owner: 0, at: [1, 0], on: 'N2', value: 3 });
    expect(resolved.find((e) => e.type === 'tournamentResolved')).toMatchObject({ prizes: [0], kept: { player: 0, value: 3 } });
    turn(1, [0, 1]);

    // Player 0's turn: the prize tile comes first, but every hole needs a road edge.
    expect(s().jc!.players[0]).toMatchObject({ prizesHeld: 1, keptEmblems: [3] });
    run({ type: 'drawTile', player: 0, tile: 'TEST_X' });
    expect(placementsIgnoringSupply(s(), 'JC-P-01')).toEqual([]);
    for (const [x, y] of [[0, -1], [-1, 0], [3, 0], [1, 1]] as const) {
      for (const rot of [0, 90, 180, 270] as const) {
        const tried = game.play({ type: 'placePrizeTile', player: 0, tile: 'JC-P-01', at: [x, y], rot });
        expect(tried.ok).toBe(false);
      }
    }
    const blocked = game.play({ type: 'placeTile', player: 0, tile: 'TEST_X', at: [3, 0], rot: 0 });
    expect(blocked.ok).toBe(false);
    if (!blocked.ok) expect(blocked.reason).toMatch(/must place their prize tile before the land tile/);

    const pool = s().jc!.prizePool.get('JC-P-01')!;
    const discarded = run({ type: 'discardPrizeTile', player: 0, tile: 'JC-P-01' });
    expect(discarded).toEqual([{ type: 'prizeTileDiscarded', player: 0, tile: 'JC-P-01', emblem: 3 }]);
    const j = s().jc!;
    expect(j.players[0]).toMatchObject({ prizesHeld: 0, keptEmblems: [], box: [3] });
    expect(j.prizePool.get('JC-P-01')).toBe(pool - 1);
    expect(j.statues).toEqual([]);
    expect(emblemCount(s(), 0)).toBe(5);
    expect(s().board.tiles.some((t) => t.view.tile.id === 'JC-P-01')).toBe(false);

    // The land tile goes on as usual; the game plays out (the final tournament has no one to reveal)
    // and the emblem scores nothing at the end.
    run({ type: 'placeTile', player: 0, tile: 'TEST_X', at: [3, 0], rot: 0 });
    run({ type: 'endTurn', player: 0 });
    turn(1, [4, 0]);
    turn(0, [5, 0]);
    turn(1, [6, 0]);
    run({ type: 'resolveTournament', player: 0 });
    expect(s().jc!.laps).toBe(true);
    const end = run({ type: 'finishGame' });
    expect(end.filter((e) => e.type === 'scored' && e.players.includes(0)).map((e) => (e.type === 'scored' ? e.kind : ''))).toEqual(['field']);
    expect(s().players[0]!.byKind['statue']).toBeUndefined();
    expect(s().jc!.players[0]!.box).toEqual([3]);
  });

  it('is not discarded while it fits somewhere', () => {
    const { game, run, turn } = crossroadsTable();
    turn(0, [1, 0], [{ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N2' }]);
    turn(1, [1, -1]);
    turn(0, [2, 0], [{ type: 'nominate', player: 0, at: [1, 0], on: 'N2' }]);
    run({ type: 'resolveTournament', player: 1 });
    run({ type: 'revealEmblem', owner: 0, at: [1, 0], on: 'N2', value: 3 });
    turn(1, [0, 1]);
    run({ type: 'drawTile', player: 0, tile: 'TEST_X' });
    // JC-P-03 shows roads east and west: it fits beside a crossroads, so it must be placed.
    expect(placementsIgnoringSupply(game.state, 'JC-P-03').length).toBeGreaterThan(0);
    const r = game.play({ type: 'discardPrizeTile', player: 0, tile: 'JC-P-03' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/fits somewhere on the board, so it cannot be discarded/);
  });
});
