/**
 * The table beside a camera, as a recorded game's own record plays it: what the players do next,
 * given the ground truth (the recording's commands), the game as the companion holds it, and the
 * camera's open questions. The table enters what no camera can see, answers the picker from the
 * truth (the true reading when it is among the top 3, else reject and enter it by hand), enters a move
 * the camera could not read, and takes back a move the camera committed wrongly. The demo game
 * (demo-service.ts) plays it; the camera tests play it as their table.
 */
import type { Command } from '../../../engine/game/commands.js';
import { sameMove } from '../../../models/track/same-move.js';

/**
 * The moves a camera reads (models/scene/generate.ts `CAMERA_READ`, which loads OpenCV and the
 * renderer: not at the app's start).
 */
const CAMERA_READ = new Set(['placeTile', 'placePrizeTile', 'placeMeeple']);

export type TableStep =
  | { readonly do: 'done' }
  | { readonly do: 'wait' }
  | { readonly do: 'enter'; readonly command: Command; readonly missed: boolean }
  | { readonly do: 'answer'; readonly id: number; readonly answer: 'best' | 0 | 1; readonly command: Command }
  | { readonly do: 'reject'; readonly id: number }
  | { readonly do: 'undo'; readonly wrong: Command };

export interface TableSees {
  /** The companion's game, command by command. */
  readonly history: readonly Command[];
  /** The camera's open readings, best first then the runners-up. */
  readonly open: readonly { readonly id: number; readonly readings: readonly Command[] }[];
  /** Can the camera still read the next move (it reads now, and the move's visit is not over)? */
  readonly cameraMayRead: boolean;
  /**
   * Does the camera say it reads the figure on the new tile once the table nominates or ends the turn
   * (CameraView `figureWaits`)? The table then ends the turn rather than enter the figure itself.
   */
  readonly figureWaits?: boolean;
}

export const isCameraMove = (c: Command) => CAMERA_READ.has(c.type);

type Same = (a: Command, b: Command) => boolean;

/** How much of the truth the companion's game already holds. */
export function agreed(truth: readonly Command[], history: readonly Command[], same: Same = sameMove): number {
  let k = 0;
  while (k < history.length && k < truth.length && same(history[k]!, truth[k]!)) k++;
  return k;
}

export function nextStep(truth: readonly Command[], sees: TableSees, same: Same = sameMove): TableStep {
  const k = agreed(truth, sees.history, same);
  if (sees.history.length > k) {
    // The end of the turn the table entered as the camera said (`figureWaits`) is not wrong while the
    // camera may still put the figure in before it.
    const last = sees.history.at(-1)!;
    const end = truth[k + 1];
    const figureToCome = sees.cameraMayRead && sees.history.length === k + 1 && truth[k]?.type === 'placeMeeple' && end?.type === 'endTurn' && same(last, end);
    return figureToCome ? { do: 'wait' } : { do: 'undo', wrong: last };
  }
  const next = truth[k];
  const question = sees.open[0];
  let early = false;
  if (question) {
    const i = next ? question.readings.findIndex((r) => same(r, next)) : -1;
    if (i >= 0) return { do: 'answer', id: question.id, answer: i === 0 ? 'best' : ((i - 1) as 0 | 1), command: next! };
    // A tile the camera saw before its turn (the move before it went unread): the table enters what
    // came first by hand and leaves the question for its turn.
    early = truth.slice(k + 1).some((t) => isCameraMove(t) && question.readings.some((r) => same(r, t)));
    if (!early) return { do: 'reject', id: question.id };
  }
  if (!next) return { do: 'done' };
  if (!isCameraMove(next)) return { do: 'enter', command: next, missed: false };
  const after = truth[k + 1];
  if (sees.figureWaits && next.type === 'placeMeeple' && after?.type === 'endTurn' && !early) return { do: 'enter', command: after, missed: false };
  return sees.cameraMayRead && !early ? { do: 'wait' } : { do: 'enter', command: next, missed: true };
}

export { manifestWithoutDraws, withoutImpliedDraws } from '../../../models/track/implied-draws.js';
