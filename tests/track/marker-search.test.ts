import { describe, expect, it } from 'vitest';
import { replayRecording } from '../../models/track/replay.js';

// The bundled demo: one of its four markers lies where the plane puts it in view, and in about half
// of the still scenes the whole frame does not give it. The tracker looks for markers only where
// the plane in use puts them unless it has reason to search the whole frame (calibration/markers.ts):
// a marker the whole frame did not give when last searched is no such reason. With every such marker
// a reason, 62 of the demo's 125 still scenes were looked at in regions; now 111.
const DEMO = 'tests/fixtures/recordings/demo-tower-jc';

describe('markers looked for where the plane puts them, through a whole game', () => {
  it('most still scenes of the demo search regions only, and every move is read as before', async () => {
    const r = await replayRecording(DEMO);
    const { regions, frame } = r.tracker.markerSearches;
    expect(regions + frame).toBeGreaterThan(100);
    expect(regions / (regions + frame)).toBeGreaterThan(0.8);
    expect(r.outcomes.filter((o) => o.result === 'wrong' || o.result === 'extra')).toEqual([]);
    expect(r.exact).toBe(r.cameraMoves);
    expect(r.cameraMoves).toBe(115);
    expect(r.scores).toEqual(r.truthScores);
  }, 180_000);
});
