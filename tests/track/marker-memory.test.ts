import { describe, expect, it } from 'vitest';
import { afterSearch, passedOver, WHOLE_FRAME_AGAIN, type MarkersMissed } from '../../models/track/marker-memory.js';

// The plane puts markers 0–3 in view; the whole frame gave 1, 2 and 3.
const inView = () => [0, 1, 2, 3];

describe('what the tracker remembers of the markers the whole frame missed', () => {
  it('a whole-frame search remembers the markers in view it did not give, and starts counting again', () => {
    expect(afterSearch(null, 'frame', [1, 2, 3], inView)).toEqual({ ids: [0], scenes: 0 });
    expect(afterSearch({ ids: [3], scenes: 7 }, 'frame', [0, 1, 2, 3], inView)).toEqual({ ids: [], scenes: 0 });
  });

  it('a search in regions counts the scene and forgets a marker it found (uncovered)', () => {
    const memory: MarkersMissed = { ids: [0, 3], scenes: 2 };
    expect(afterSearch(memory, 'regions', [1, 2, 3], () => { throw new Error('the regions search does not ask what is in view'); })).toEqual({ ids: [0], scenes: 3 });
  });

  it('the missed markers are passed over by a plane on three markers or more, and not once WHOLE_FRAME_AGAIN scenes went by', () => {
    let memory = afterSearch(null, 'frame', [1, 2, 3], inView);
    const passed: number[][] = [];
    for (let scene = 0; scene <= WHOLE_FRAME_AGAIN; scene++) {
      passed.push([...passedOver(memory, 3)]);
      memory = afterSearch(memory, 'regions', [1, 2, 3], inView);
    }
    expect(passed.slice(0, WHOLE_FRAME_AGAIN)).toEqual(Array.from({ length: WHOLE_FRAME_AGAIN }, () => [0]));
    // The tenth scene in regions searches the whole frame again.
    expect(passed[WHOLE_FRAME_AGAIN]).toEqual([]);
    expect(afterSearch(memory, 'frame', [1, 2, 3], inView)).toEqual({ ids: [0], scenes: 0 });
  });

  it('a plane on two markers passes over none: the whole frame may give a third it put off', () => {
    const memory = afterSearch(null, 'frame', [1, 2], inView);
    expect(passedOver(memory, 3)).toEqual([0, 3]);
    expect(passedOver(memory, 2)).toEqual([]);
    expect(passedOver(null, 4)).toEqual([]);
  });
});
