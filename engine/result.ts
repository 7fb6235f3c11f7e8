/** Illegal moves and bad input are values, not exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; reason: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(reason: string): Result<T> {
  return { ok: false, reason };
}
