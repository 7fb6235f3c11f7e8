import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProposalDesk } from '../../electron/services/camera/proposals.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { loadRecord, recordCommands, setupFromRecord } from './helpers/records.js';

describe('camera proposals', () => {
  it('stay apart from the game until the rules accept them; an illegal one is refused and stays open', () => {
    const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-prop-')), 'c.sqlite'));
    const session = new GameSession(store);
    const record = loadRecord('g001-base-2p.json');
    const [first] = recordCommands(record);
    const id = session.newGame(setupFromRecord(record));
    if (!id.ok || !first || first.type !== 'placeTile') throw new Error('setup');
    const desk = new ProposalDesk(store, session);

    const wrong = { ...first, at: [7, 7] as const };
    const p1 = desk.propose('camera', { command: wrong, confidence: 0.6, alternatives: [first] });
    if (!p1.ok) throw new Error(p1.reason);
    expect(store.log(id.value)).toEqual([]);
    expect(session.snapshot().game!.board).toHaveLength(1);

    const refused = desk.accept(p1.value);
    expect(!refused.ok && refused.reason).toMatch(/the rules refuse proposal/);
    expect(desk.open()).toHaveLength(1);
    expect(store.log(id.value)).toEqual([]);

    // The table picks the second reading in the top-3 picker.
    expect(desk.accept(p1.value, 0).ok).toBe(true);
    expect(desk.open()).toHaveLength(0);
    expect(store.log(id.value)).toHaveLength(1);
    expect(session.snapshot().game!.board).toHaveLength(2);
    store.close();
  });
});
