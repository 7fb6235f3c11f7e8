/**
 * The table beside a camera (services/demo/demo-table.ts `nextStep`) when the camera says it reads a
 * figure after the turn's nomination (Jousts & Crests, CameraView `figureWaits`): it ends the turn
 * instead of entering the figure, and does not take that end of the turn back while the camera may
 * still put the figure in before it.
 */
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { nextStep } from '../../electron/services/demo/demo-table.js';

const tile: Command = { type: 'placeTile', player: 0, tile: 'BASE_D', at: [1, 0], rot: 0 };
const figure: Command = { type: 'placeMeeple', player: 0, kind: 'normal', on: 'R1' };
const end: Command = { type: 'endTurn', player: 0 };
const truth = [tile, figure, end];

describe('the table when a figure waits for a nomination', () => {
  it('ends the turn when the camera says it reads the figure then, else enters the figure itself', () => {
    expect(nextStep(truth, { history: [tile], open: [], cameraMayRead: false, figureWaits: true })).toEqual({ do: 'enter', command: end, missed: false });
    expect(nextStep(truth, { history: [tile], open: [], cameraMayRead: false })).toEqual({ do: 'enter', command: figure, missed: true });
  });

  it('waits while the camera may still put the figure in before that end of the turn; takes it back once it cannot', () => {
    expect(nextStep(truth, { history: [tile, end], open: [], cameraMayRead: true })).toEqual({ do: 'wait' });
    expect(nextStep(truth, { history: [tile, end], open: [], cameraMayRead: false })).toEqual({ do: 'undo', wrong: end });
    // The figure went in before the end: nothing left to do.
    expect(nextStep(truth, { history: [tile, figure, end], open: [], cameraMayRead: true })).toEqual({ do: 'done' });
    // Another wrong move is taken back even while the camera reads.
    const other: Command = { type: 'placeMeeple', player: 0, kind: 'normal', on: 'C1' };
    expect(nextStep(truth, { history: [tile, other], open: [], cameraMayRead: true })).toEqual({ do: 'undo', wrong: other });
  });
});
