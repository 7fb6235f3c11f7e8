// The turns offered for a tile the table named at the camera's question (renderer/src/lib/named-turns.ts).
import { describe, expect, it } from 'vitest';
import { tileView } from '../../electron/services/session/view.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { CAMERA_SEES, namedTurns } from '../../renderer/src/lib/named-turns.js';

const catalog = defaultCatalog();
const turnsOf = (tile: string, rots: number[]) => rots.map((rot) => ({ rot, cells: [tileView(catalog.view(tile, rot / 90), 0, 0)], spots: [] }));

describe('the turns offered for a named tile', () => {
  it("puts the camera's likeliest turn first and names it where it is clear", () => {
    const got = namedTurns(turnsOf('BASE_W', [0, 90, 180]), [{ rot: 90, p: 0.95 }, { rot: 0, p: 0.04 }, { rot: 180, p: 0.01 }]);
    expect(got.turns.map((t) => t.rot)).toEqual([90, 0, 180]);
    expect(got.cameraSees).toBe(90);
    // Unsure: ordered, not named.
    const unsure = namedTurns(turnsOf('BASE_W', [0, 90, 180]), [{ rot: 180, p: CAMERA_SEES - 0.01 }, { rot: 0, p: 0.01 }, { rot: 90, p: 0.1 }]);
    expect(unsure.turns.map((t) => t.rot)).toEqual([180, 90, 0]);
    expect(unsure.cameraSees).toBeNull();
  });

  it('draws turns that look alike once, their probabilities together (a straight road)', () => {
    const got = namedTurns(turnsOf('BASE_U', [0, 90, 180, 270]), [{ rot: 90, p: 0.46 }, { rot: 270, p: 0.46 }, { rot: 0, p: 0.04 }, { rot: 180, p: 0.04 }]);
    expect(got.turns.map((t) => t.rot)).toEqual([90, 0]);
    expect(got.cameraSees).toBe(90);
  });

  it('keeps turn order without the camera, and names nothing for a tile that fits one way', () => {
    expect(namedTurns(turnsOf('BASE_W', [0, 90, 270]), null)).toMatchObject({ turns: [{ rot: 0 }, { rot: 90 }, { rot: 270 }], cameraSees: null });
    expect(namedTurns(turnsOf('BASE_W', [270]), [{ rot: 270, p: 1 }]).cameraSees).toBeNull();
  });
});
