/**
 * Hidden information: the snapshot is what every screen (and every paired phone) receives, so each
 * field in it was reviewed as public. A new field fails here until it is reviewed and listed; with
 * Jousts & Crests, emblem values must only appear after their reveal event.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { loadRecord } from './helpers/records.js';

const REVIEWED_PUBLIC_FIELDS = [
  'board', 'canRedo', 'canUndo', 'expansions', 'finished', 'gameId', 'lastScoring', 'log', 'meepleSpots',
  'meeples', 'players', 'reminders', 'rules', 'scores', 'supply', 'tilesLeft', 'towers', 'turn',
];
const REVIEWED_PLAYER_FIELDS = ['byKind', 'color', 'floors', 'name', 'prisoners', 'score', 'supply'];

function keysDeep(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) keysDeep(x, out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.add(k), keysDeep(x, out));
  return out;
}

describe('hidden information stays off the screens', () => {
  it('a snapshot holds only reviewed public fields, and no emblem value or draw order', () => {
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-hidden-')), 'c.sqlite'));
    const s = new GameSession(store);
    s.importRecord(JSON.stringify(loadRecord('g083-base-tower-4p.json')));
    const g = s.snapshot().game!;
    expect(Object.keys(g).sort()).toEqual(REVIEWED_PUBLIC_FIELDS);
    for (const p of g.players) expect(Object.keys(p).sort()).toEqual(REVIEWED_PLAYER_FIELDS);
    const keys = keysDeep(g);
    for (const k of keys) expect(k).not.toMatch(/emblem|secret|hidden|order|stack|deck/i);
    // The box's remaining tiles are counted by type, never in the order they will be drawn.
    expect(g.supply.every((x) => Object.keys(x).sort().join() === 'count,tile')).toBe(true);
    store.close();
  });
});
