/**
 * What a second screen may ask for, enforced by the server (issue 28: the UI only hid the rest, and a
 * paired screen could start games, import records, describe tiles, drive the camera). A second screen
 * views; it enters moves only when the main screen allows it (a setting under Games).
 */
import type { OperationName } from './api.js';

/**
 * Reading only. Reading a photo changes nothing either: a phone paired as a second screen photographs
 * the tile the camera asks about (answering is a move, below).
 */
const VIEW: ReadonlySet<OperationName> = new Set<OperationName>(['snapshot', 'exportRecord', 'listGames', 'statistics', 'pairing', 'tileTypes', 'camera', 'tileChoices', 'placements', 'readTilePhoto', 'cameraTilesFitting', 'cameraTurnsSeen', 'teach', 'teachCoverage', 'taughtTiles']);
/** The moves of the game in progress, when the main screen allows them. */
const MOVES: ReadonlySet<OperationName> = new Set<OperationName>(['play', 'undo', 'redo', 'correct', 'insert', 'cameraAnswer']);

export type ScreenRole = 'main' | 'screen';

/** Null when the role may; otherwise why not, in words. */
export function refusedFor(role: ScreenRole, op: OperationName, screenMoves: boolean): string | null {
  if (role === 'main' || VIEW.has(op) || (screenMoves && MOVES.has(op))) return null;
  if (MOVES.has(op)) return `${op}: refused: a second screen may not enter moves unless the main screen allows it (Games → Second screens)`;
  return `${op}: refused: a second screen may view the game${screenMoves ? ' and enter moves' : ''}; only the main screen may do this`;
}
