/**
 * LAN pairing: the code a second screen types, the limits on guessing it, and the screens paired.
 *
 * Guessing (docs/app.md, "Threat model", has the arithmetic): an 8-digit code, replaced every 10
 * minutes and after each pairing; per client address, after 3 wrong codes each next try waits
 * 1 s, 2 s, 4 s … up to 10 minutes; in all, after 5 wrong codes every address waits likewise up to
 * 60 s; and after 20 failed attempts in all (wrong codes, or tries made while told to wait) pairing
 * is locked until the main screen allows it again (which also shows a new code). A pairing or the
 * main screen's lifting clears the counts.
 *
 * Paired screens are kept in the store (setting `pairing.screens`: an id, when, from where, and the
 * SHA-256 of the token, never the token), so they survive a restart; `pairing.screenMoves` is the
 * main screen's choice whether second screens may enter moves.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { PairedScreen, PairingInfo } from '../contract/api.js';
import type { Store } from '../services/store/store.js';
import { sameSecret } from './net.js';

export const CODE_DIGITS = 8;
export const CODE_LIFETIME_MS = 10 * 60_000;
/** Wrong codes from one address before it must wait, and its longest wait. */
export const ADDRESS_FREE_TRIES = 3;
export const ADDRESS_MAX_WAIT_MS = 10 * 60_000;
/** Wrong codes in all before every address must wait, and the longest wait. */
export const ALL_FREE_TRIES = 5;
export const ALL_MAX_WAIT_MS = 60_000;
/** Failed attempts in all (wrong, or made while told to wait) that lock pairing until the main screen lifts it. */
export const LOCK_AFTER_FAILURES = 20;

const SCREENS_KEY = 'pairing.screens';
const MOVES_KEY = 'pairing.screenMoves';

const storedScreens = z.array(z.object({ id: z.string().max(40), hash: z.string().regex(/^[0-9a-f]{64}$/), pairedAt: z.string().max(40), address: z.string().max(80) }).strict()).max(1000);
type StoredScreen = z.infer<typeof storedScreens>[number];

export type Attempt = { ok: true; token: string; screenId: string } | { ok: false; error: string };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** 1 s, 2 s, 4 s … after `free` wrong codes, at most `max`. */
function wait(wrong: number, free: number, max: number): number {
  return wrong < free ? 0 : Math.min(max, 1000 * 2 ** (wrong - free));
}


export interface PairingDeskOptions {
  /** Where paired screens and the moves setting are kept (null: in memory only). */
  readonly store: Store | null;
  readonly now?: () => number;
}

export class PairingDesk {
  private readonly now: () => number;
  private current = '';
  private expires = 0;
  private readonly addresses = new Map<string, { wrong: number; until: number }>();
  private wrongInAll = 0;
  private untilInAll = 0;
  private failures = 0;
  private locked = false;
  private screens: StoredScreen[] = [];
  private moves = false;
  private readonly unpairListeners = new Set<(screenId: string) => void>();
  /** Addresses of screens connected now (kept by the server), for the list. */
  connected: (screenId: string) => boolean = () => false;

  constructor(private readonly o: PairingDeskOptions) {
    this.now = o.now ?? Date.now;
    if (o.store) {
      const s = storedScreens.safeParse(o.store.setting(SCREENS_KEY) ?? []);
      // A damaged value pairs nobody (screens pair again) rather than letting a malformed entry in.
      this.screens = s.success ? s.data : [];
      this.moves = o.store.setting(MOVES_KEY) === true;
    }
    this.renew();
  }

  /** The code on the main screen now (a new one once the old has expired). */
  get code(): string {
    if (this.now() >= this.expires) this.renew();
    return this.current;
  }

  get screenMoves(): boolean {
    return this.moves;
  }

  info(role: 'main' | 'screen' | null): Omit<PairingInfo, 'lan' | 'urls'> {
    const main = role === 'main';
    const code = this.code;
    return {
      code: main ? code : null,
      expiresAt: main ? new Date(this.expires).toISOString() : null,
      locked: main ? this.locked : false,
      screens: main ? this.screens.map((s): PairedScreen => ({ id: s.id, pairedAt: s.pairedAt, address: s.address, connected: this.connected(s.id) })) : [],
      screenMoves: this.moves,
    };
  }

  attempt(address: string, code: string): Attempt {
    if (this.locked) return { ok: false, error: `pairing is locked after ${LOCK_AFTER_FAILURES} failed attempts: the main screen can allow it again (Games → Second screens)` };
    const now = this.now();
    const a = this.addresses.get(address) ?? { wrong: 0, until: 0 };
    this.addresses.set(address, a);
    if (now < a.until || now < this.untilInAll) {
      this.fail();
      const mine = now < a.until;
      const s = Math.ceil((Math.max(mine ? a.until : 0, this.untilInAll) - now) / 1000);
      return { ok: false, error: `too many wrong codes ${mine ? 'from this address' : 'on this network'}: try again in ${s} s` };
    }
    if (!sameSecret(code, this.code)) {
      a.wrong++;
      this.wrongInAll++;
      a.until = now + wait(a.wrong, ADDRESS_FREE_TRIES, ADDRESS_MAX_WAIT_MS);
      this.untilInAll = now + wait(this.wrongInAll, ALL_FREE_TRIES, ALL_MAX_WAIT_MS);
      this.fail();
      return { ok: false, error: 'wrong pairing code' };
    }
    const token = randomBytes(24).toString('hex');
    const screenId = randomBytes(6).toString('hex');
    this.screens = [...this.screens, { id: screenId, hash: hashOf(token), pairedAt: new Date(now).toISOString(), address: address.slice(0, 80) }];
    this.save();
    this.clearCounts();
    // One code, one screen: the next screen reads a new one.
    this.renew();
    return { ok: true, token, screenId };
  }

  /** The paired screen a token belongs to, or null. */
  screenFor(token: string): string | null {
    if (!/^[0-9a-f]{48}$/.test(token)) return null;
    const h = hashOf(token);
    return this.screens.find((s) => sameSecret(s.hash, h))?.id ?? null;
  }

  /** The main screen lifts a lock-out (or clears the waits): counts cleared, a new code. */
  allow(): void {
    this.clearCounts();
    this.locked = false;
    this.renew();
  }

  unpair(screenId: string): boolean {
    if (!this.screens.some((s) => s.id === screenId)) return false;
    this.screens = this.screens.filter((s) => s.id !== screenId);
    this.save();
    for (const l of this.unpairListeners) l(screenId);
    return true;
  }

  setScreenMoves(on: boolean): void {
    this.moves = on;
    this.o.store?.saveSetting(MOVES_KEY, on);
  }

  onUnpair(l: (screenId: string) => void): () => void {
    this.unpairListeners.add(l);
    return () => this.unpairListeners.delete(l);
  }

  private fail(): void {
    if (++this.failures >= LOCK_AFTER_FAILURES) this.locked = true;
  }

  private clearCounts(): void {
    this.addresses.clear();
    this.wrongInAll = 0;
    this.untilInAll = 0;
    this.failures = 0;
  }

  private renew(): void {
    this.current = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    this.expires = this.now() + CODE_LIFETIME_MS;
  }

  private save(): void {
    this.o.store?.saveSetting(SCREENS_KEY, this.screens);
  }
}
