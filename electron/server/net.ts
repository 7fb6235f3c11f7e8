/** Small checks every socket of the app makes on who is connecting. */
import { timingSafeEqual } from 'node:crypto';

/** A connection from this machine. */
export const isLoopback = (addr: string | undefined) => addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1';

/** Compares a secret without telling, by the time it takes, how much of it was right. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
