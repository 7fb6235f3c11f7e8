import { describe, expect, it } from 'vitest';
import { makeSetup } from '../../engine/game/setup.js';
import { FAR_MODEL, readModelInfo } from '../../models/runner.js';
import { Tracker } from '../../models/track/tracker.js';

// The far camera's model reads tiles only on cells under 30 px of a print it learnt (docs/tracking.md),
// and a figure's kind on any print (cell-reader.ts `withFarKinds`): a table of another print without
// big followers does not pay for loading it. That it reads no tile of another print:
// tests/track/model-leads.test.ts.
describe("the far camera's model", () => {
  const players = [{ name: 'Ann', color: 'red' }, { name: 'Ben', color: 'blue' }] as const;
  const learnt = readModelInfo(FAR_MODEL).printEditions ?? [];

  it('learnt the first-edition print, and no other (what the cases below stand on)', () => {
    expect(learnt).toEqual(['C1']);
  });

  it('is loaded for a table of a print it learnt', async () => {
    const t = await Tracker.create({ setup: makeSetup({ players, tileSet: { edition: 'C1' } }), style: 'c3' });
    expect(t.farRecognizer).not.toBeNull();
    expect(t.farRecognizer!.info.printEditions).toContain('C1');
  });

  it('is not loaded for a table of another print without big followers, nor when the tracker is told to read without it', async () => {
    for (const edition of ['C2', 'C3'] as const) {
      const t = await Tracker.create({ setup: makeSetup({ players, tileSet: { edition } }), style: 'c3' });
      expect(t.farRecognizer, edition).toBeNull();
      expect(t.recognizer, edition).not.toBeNull();
    }
    for (const expansions of [['base'], ['base', 'inns-cathedrals']] as const) {
      const off = await Tracker.create({ setup: makeSetup({ players, expansions: [...expansions], tileSet: { edition: 'C1' } }), style: 'c3', useFarModel: false });
      expect(off.farRecognizer, expansions.join()).toBeNull();
    }
  });

  it('is loaded for its kind head where big followers play (Inns & Cathedrals), on any print', async () => {
    expect(readModelInfo(FAR_MODEL).meepleKinds).toEqual(['normal', 'big', 'abbot']);
    for (const edition of ['C2', 'C3'] as const) {
      const t = await Tracker.create({ setup: makeSetup({ players, expansions: ['base', 'inns-cathedrals'], tileSet: { edition } }), style: 'c3' });
      expect(t.farRecognizer, edition).not.toBeNull();
    }
  });
});
