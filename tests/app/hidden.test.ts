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
import { gameView } from '../../electron/services/session/view.js';
import type { GameView } from '../../electron/contract/snapshot.js';
import type { ExpansionId } from '../../engine/catalog/types.js';
import type { GameEvent } from '../../engine/game/events.js';
import { makeSetup } from '../../engine/game/setup.js';
import { randomGame } from '../../engine/sim/random-game.js';

const REVIEWED_PUBLIC_FIELDS = [
  'actions', 'board', 'canRedo', 'canUndo', 'expansions', 'finished', 'gameId', 'jc', 'lastScoring', 'lit', 'log', 'meepleSpots',
  'meeples', 'next', 'players', 'reminders', 'rules', 'scores', 'sd', 'supply', 'tileNames', 'tilesLeft', 'towers', 'turn',
];
const REVIEWED_PLAYER_FIELDS = ['byKind', 'color', 'floors', 'name', 'prisoners', 'score', 'supply'];
const REVIEWED_TURN_FIELDS = ['drawn', 'number', 'player', 'step'];
// Jousts & Crests and Siege & Defense (view-2025.ts): every key, at every depth, reviewed as public.
const REVIEWED_JC_FIELDS = [
  'allowRenominate', 'crown', 'current', 'finalPrizes', 'laps', 'nominable', 'nominated', 'players', 'prizeTypes', 'stacks', 'statues',
  'tournament', 'tournamentDue', 'tournamentsDone',
];
const REVIEWED_JC_DEEP_FIELDS = [
  ...REVIEWED_JC_FIELDS, 'at', 'bonus', 'box', 'boxHidden', 'category', 'count', 'emblems', 'final', 'keptEmblems', 'kind', 'land', 'next',
  'nextMeeples', 'on', 'participants', 'player', 'prizes', 'prizesHeld', 'reveals', 'revealed', 'spaces', 'tile', 'value', 'x', 'y',
];
const REVIEWED_SD_FIELDS = ['attack', 'counterAttack', 'pending', 'postOption', 'posts', 'rowLength'];
const REVIEWED_SD_DEEP_FIELDS = [
  ...REVIEWED_SD_FIELDS, 'catapult', 'kind', 'name', 'on', 'post', 'removers', 'row', 'space', 'targets', 'x', 'y',
];

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
    expect(Object.keys(g.turn).sort()).toEqual(REVIEWED_TURN_FIELDS);
    expect(g.jc).toBeNull();
    expect(g.sd).toBeNull();
    const keys = keysDeep(g);
    for (const k of keys) expect(k).not.toMatch(/emblem|secret|hidden|order|stack|deck/i);
    // The box's remaining tiles are counted by type, never in the order they will be drawn.
    expect(g.supply.every((x) => Object.keys(x).sort().join() === 'count,tile')).toBe(true);
    store.close();
  });

  it.each([1, 2, 3])('Jousts & Crests + Siege & Defense, random game %i: only reviewed fields, and no emblem value before its reveal', (seed) => {
    const expansions: ExpansionId[] = ['base', 'abbot', 'tower', 'jousts-crests', 'siege-defense'];
    const players = ['red', 'blue', 'green'].slice(0, 2 + (seed % 2)).map((color, i) => ({ name: `P${i}`, color }));
    const setup = makeSetup({ expansions, players });
    let reveals = 0;
    let checked = 0;
    const game = randomGame(setup, seed, {
      nominateRate: 0.9,
      onCommand: (g) => {
        const v: GameView = gameView(1, g);
        // What the table has seen turned up so far: every value on screen must be among these.
        const seen = players.map(() => [] as number[]);
        for (const h of g.history) for (const e of h.events as readonly GameEvent[]) if (e.type === 'emblemRevealed') seen[e.player]!.push(e.value);
        reveals = seen.flat().length;
        const jc = v.jc!;
        const sd = v.sd!;
        expect(Object.keys(jc).sort()).toEqual(REVIEWED_JC_FIELDS);
        expect(Object.keys(sd).sort()).toEqual(REVIEWED_SD_FIELDS);
        for (const k of keysDeep(jc)) expect(REVIEWED_JC_DEEP_FIELDS).toContain(k);
        for (const k of keysDeep(sd)) expect(REVIEWED_SD_DEEP_FIELDS).toContain(k);
        jc.players.forEach((p, i) => {
          // Revealed values stay face up (box, statue keeper, statues); each was revealed by that player.
          const shown = [...p.revealed].sort();
          expect(shown).toEqual([...seen[i]!].sort());
          for (const x of [...p.keptEmblems, ...p.box]) expect(seen[i]).toContain(x);
        });
        for (const st of jc.statues) expect(seen[st.player]).toContain(st.value);
        for (const r of jc.tournament?.reveals ?? []) expect(seen[r.player]).toContain(r.value);
        // A nominated meeple is shown as carrying an emblem, never with a value.
        for (const n of jc.nominated) expect(Object.keys(n).sort()).toEqual(['kind', 'on', 'player', 'x', 'y']);
        checked++;
      },
    });
    expect(game.state.finished).toBe(true);
    expect(reveals).toBeGreaterThan(0);
    expect(checked).toBe(game.commands.length);
  });
});
