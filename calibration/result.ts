/** Results instead of exceptions for everything the camera or the user can get wrong. */
export type Result<T, E = CalibrationError> = { ok: true; value: T } | { ok: false; error: E };

export type CalibrationErrorKind =
  | 'empty-input'
  | 'not-an-image'
  | 'truncated-image'
  | 'bad-frame'
  | 'no-markers'
  | 'too-few-markers'
  | 'degenerate-points'
  | 'start-piece-not-found'
  | 'no-board-corners'
  | 'too-few-views'
  | 'frame-size-mismatch'
  | 'invalid-profile'
  | 'no-tiles-found';

export interface CalibrationError {
  kind: CalibrationErrorKind;
  /** One sentence a person at the table can act on: what was wrong and where. */
  message: string;
}

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = (kind: CalibrationErrorKind, message: string): Result<never> => ({
  ok: false,
  error: { kind, message },
});
