/** The New Game screen's Jousts & Crests and Siege & Defense options, as the contract checks and passes them on. */
import { describe, expect, it } from 'vitest';
import { newGameSchema, setupFromNewGame } from '../../electron/contract/setup.js';
import { Game } from '../../engine/game/game.js';
import { gameView } from '../../electron/services/session/view.js';

const players = [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }];

describe('new game with the 2025 expansions', () => {
  it('passes the options to the engine: crown start, stack chart override and defence-post rows', () => {
    const n = newGameSchema.parse({
      players,
      expansions: ['base', 'jousts-crests', 'siege-defense'],
      options: { jc: { crownSpaces: ['field', 'road'], crownStart: 1, allowRenominate: false, stacks: { S: 3, P: 1 } }, sd: { rowBase: [5, 6] } },
    });
    const g = Game.start(setupFromNewGame(n));
    if (!g.ok) throw new Error(g.reason);
    const v = gameView(1, g.value);
    expect(v.jc!.crown).toEqual({ spaces: ['field', 'road'], at: 1, category: 'road' });
    expect(v.jc!.allowRenominate).toBe(false);
    expect(v.jc!.stacks.length).toBe(3);
    expect(v.jc!.stacks.slice(1).map((s) => s.prizes)).toEqual([1, 1]);
    expect(v.sd!.rowLength).toBe(5);
    expect(v.sd!.posts.map((p) => p.name)).toEqual(['knights', 'travelers', 'monks']);
  });

  it('without options the engine defaults hold', () => {
    const g = Game.start(setupFromNewGame(newGameSchema.parse({ players, expansions: ['base', 'jousts-crests', 'siege-defense'] })));
    if (!g.ok) throw new Error(g.reason);
    const v = gameView(1, g.value);
    expect(v.jc!.crown.category).toBe('road');
    expect(v.sd!.rowLength).toBe(3);
  });

  it('refuses bad options, naming the field', () => {
    const bad = (options: unknown) => newGameSchema.safeParse({ players, expansions: ['base', 'jousts-crests'], options });
    const r1 = bad({ jc: { crownSpaces: ['road', 'city'], crownStart: 2 } });
    expect(r1.success).toBe(false);
    expect(r1.error!.issues[0]!.path.join('.')).toBe('options.jc.crownStart');
    expect(bad({ jc: { crownSpaces: ['castle'] } }).success).toBe(false);
    expect(bad({ jc: { stacks: { S: 0, P: 1 } } }).error!.issues[0]!.message).toContain('at least one land stack');
    expect(bad({ sd: { rowBase: [0, 4] } }).success).toBe(false);
    expect(bad({ jc: { secret: 1 } }).success).toBe(false);
  });
});
