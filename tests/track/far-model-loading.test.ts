import { describe, expect, it } from 'vitest';
import { makeSetup } from '../../engine/game/setup.js';
import { FAR_MODEL, readModelInfo } from '../../models/runner.js';
import { Tracker } from '../../models/track/tracker.js';

// The far camera's model reads tiles only on cells under 30 px of a print it learnt (docs/tracking-print.md),
// and figures on any print: on such cells all its figure heads, on larger ones its kind head
// (cell-reader.ts `figureHeads`, `withFarKinds`). Every table is of some print, so every tracker with
// the default model loads it, unless told not to. That it reads no tile of another print:
// tests/track/model-leads.test.ts; its figures on another print: tests/track/printed-art.test.ts.
describe("the far camera's model", () => {
  const players = [{ name: 'Ann', color: 'red' }, { name: 'Ben', color: 'blue' }] as const;
  const learnt = readModelInfo(FAR_MODEL).printEditions ?? [];

  it('learnt the first-edition print, and no other (what the cases below stand on)', () => {
    expect(learnt).toEqual(['C1']);
    expect(readModelInfo(FAR_MODEL).meepleKinds).toEqual(['normal', 'big', 'abbot']);
  });

  it('is loaded for a table of any print, with or without big followers', async () => {
    for (const edition of ['C1', 'C2', 'C3'] as const)
      for (const expansions of [['base'], ['base', 'inns-cathedrals']] as const) {
        const t = await Tracker.create({ setup: makeSetup({ players, expansions: [...expansions], tileSet: { edition } }), style: 'c3' });
        expect(t.farRecognizer, `${edition} ${expansions.join()}`).not.toBeNull();
        expect(t.recognizer, edition).not.toBeNull();
      }
  });

  it('is not loaded when the tracker is told to read without it', async () => {
    for (const expansions of [['base'], ['base', 'inns-cathedrals']] as const) {
      const off = await Tracker.create({ setup: makeSetup({ players, expansions: [...expansions], tileSet: { edition: 'C1' } }), style: 'c3', useFarModel: false });
      expect(off.farRecognizer, expansions.join()).toBeNull();
    }
  });
});
