/** The one test of "the same move" shared by the replay, the demo table and the camera tests. */
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { sameMove } from '../../models/track/same-move.js';

const tile = (id: string, at: [number, number], rot: 0 | 90 | 180 | 270): Command => ({ type: 'placeTile', player: 0, tile: id, at, rot });

describe('sameMove', () => {
  it('takes a tile turned onto its own symmetry as the same move, and no other turn', () => {
    expect(sameMove(tile('BASE_U', [1, 0], 0), tile('BASE_U', [1, 0], 180))).toBe(true); // a straight road
    expect(sameMove(tile('BASE_U', [1, 0], 0), tile('BASE_U', [1, 0], 90))).toBe(false);
    expect(sameMove(tile('BASE_C', [1, 0], 90), tile('BASE_C', [1, 0], 270))).toBe(true); // all city
    expect(sameMove(tile('BASE_D', [1, 0], 0), tile('BASE_D', [1, 0], 180))).toBe(false);
  });

  it('is never the same move at another cell, with another tile, or of another kind', () => {
    expect(sameMove(tile('BASE_C', [1, 0], 0), tile('BASE_C', [0, 1], 0))).toBe(false);
    expect(sameMove(tile('BASE_C', [1, 0], 0), tile('BASE_D', [1, 0], 0))).toBe(false);
    expect(sameMove(tile('BASE_C', [1, 0], 0), { type: 'placePrizeTile', player: 0, tile: 'BASE_C', at: [1, 0], rot: 0 } as Command)).toBe(false); // a prize tile is another move
    expect(sameMove(tile('BASE_C', [1, 0], 0), { type: 'endTurn', player: 0 })).toBe(false);
  });

  it('compares other commands field by field', () => {
    expect(sameMove({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'city:0' } as Command, { type: 'placeMeeple', player: 1, kind: 'normal', on: 'city:0' } as Command)).toBe(true);
    expect(sameMove({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'city:0' } as Command, { type: 'placeMeeple', player: 0, kind: 'normal', on: 'city:0' } as Command)).toBe(false);
  });
});
