/**
 * Issue 28, part 4: one set of rules for every way a game comes in. New Game and an imported record
 * are held to the same player rules (palette colours, bounded distinct names); a refusal says what
 * and where, and stores nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../electron/contract/api.js';
import { drawableColour } from '../../electron/contract/palette.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { ORACLE } from './helpers/records.js';

const record = JSON.parse(readFileSync(join(ORACLE, 'g001-base-2p.json'), 'utf8')) as { players: { name: string; color: string }[] };
const withPlayers = (players: { name: string; color: string }[]) => JSON.stringify({ ...record, players });

function session(): { s: GameSession; store: Store } {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-rules-')), 'r.sqlite'));
  return { s: GameSession.resume(store), store };
}

describe('an imported record meets the rules New Game meets', () => {
  it('refuses a colour outside the palette, naming the player and the palette', () => {
    const { s, store } = session();
    const r = s.importRecord(withPlayers([{ name: 'A', color: 'red;position:fixed;inset:0;z-index:99' }, record.players[1]!]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^the record cannot be imported: player 1's colour: a colour from the palette \(red, blue/);
    expect(store.games()).toHaveLength(0);
    store.close();
  });

  it('refuses two players with one colour or one name, saying which', () => {
    const { s, store } = session();
    const sameColour = s.importRecord(withPlayers([{ name: 'A', color: 'red' }, { name: 'B', color: 'red' }]));
    expect(sameColour.ok).toBe(false);
    if (!sameColour.ok) expect(sameColour.reason).toMatch(/^the record cannot be imported: player 2's colour: players 1 and 2 \(A and B\) share the colour red: each player needs a colour of their own$/);
    const sameName = s.importRecord(withPlayers([{ name: 'Ada', color: 'red' }, { name: 'ada ', color: 'blue' }]));
    expect(sameName.ok).toBe(false);
    if (!sameName.ok) expect(sameName.reason).toMatch(/^the record cannot be imported: player 2's name: players 1 and 2 share the name ada: each player needs a name of their own$/);
    expect(store.games()).toHaveLength(0);
    store.close();
  });

  it('refuses a name over the length limit (a 5 MB name was stored before)', () => {
    const { s, store } = session();
    const r = s.importRecord(withPlayers([{ name: 'x'.repeat(1000), color: 'red' }, record.players[1]!]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^the record cannot be imported: player 1's name: a name of at most 40 characters/);
    expect(parseArgs('importRecord', [withPlayers([{ name: 'x'.repeat(5_000_000), color: 'red' }, record.players[1]!])])).toEqual({ ok: false, error: 'The import: a record over 2 MB' });
    // The record as it is still imports.
    expect(s.importRecord(JSON.stringify(record)).ok).toBe(true);
    store.close();
  });
});

describe('New Game', () => {
  const game = (players: { name: string; color: string }[]) => parseArgs('newGame', [{ players, expansions: ['base'] }]);
  it('refuses duplicate names as it refuses duplicate colours, and colours off the palette', () => {
    expect(game([{ name: 'Ada', color: 'red' }, { name: 'ADA', color: 'blue' }])).toEqual({ ok: false, error: "New game: player 2's name: players 1 and 2 share the name ADA: each player needs a name of their own" });
    expect(game([{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'red' }])).toEqual({ ok: false, error: "New game: player 2's colour: players 1 and 2 (Ada and Bo) share the colour red: each player needs a colour of their own" });
    expect(game([{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'cyan' }]).ok).toBe(false);
    expect(game([{ name: 'Ada\u0007', color: 'red' }, { name: 'Bo', color: 'blue' }]).ok).toBe(false);
    expect(game([{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }]).ok).toBe(true);
  });
});

describe('what the screens draw', () => {
  it('draws a colour from the palette only (a game stored before the rule shows grey)', () => {
    expect(drawableColour('red')).toBe('red');
    expect(drawableColour('red;position:fixed')).toBe('grey');
  });
});
