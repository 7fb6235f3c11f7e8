/**
 * Where a tile's figure spots are drawn: one group per feature (the kinds of figure that may stand on
 * it side by side), each at the spot the tile's drawing gives the feature, moved as little as needed
 * so that no two spots overlap and every spot lies on the tile. Features drawn around one point (an
 * enclosed field and its garden, a cloister's field) would otherwise share it; pushed away blindly,
 * a spot could land on the next cell, where the pointer going to click it leaves the tile shown.
 */

/** Board units between the spots of one group, and between any two spots. */
export const SPOT_SPACING = 22;
/**
 * How near a tile's side a spot's centre may be: a meeple's spot (radius 10) stays on its tile; a big
 * one's (12) may reach 2 units over, as the drawing's own spots for a one-side city do.
 */
const EDGE = 10;
/** The least distance between two spots' middles: no spot's circle (radius at most 12) covers another's middle. */
export const CLICK_CLEAR = 13;

export interface SpotGroup<S> {
  readonly on: string;
  readonly group: S[];
  /** The group's middle, in tile units (0..size). */
  readonly x: number;
  readonly y: number;
}

/**
 * Moves tried from a feature's own spot, nearest first: 6-unit steps up to 40 units away, so that a
 * spot stays beside its feature (moved further, it would stand on another).
 */
const MOVES: readonly (readonly [number, number])[] = (() => {
  const out: [number, number][] = [];
  for (let dx = -42; dx <= 42; dx += 6) for (let dy = -42; dy <= 42; dy += 6) if (dx * dx + dy * dy <= 40 * 40) out.push([dx, dy]);
  // Nearest first; at equal distance down before up, then right before left.
  return out.sort((a, b) => a[0] ** 2 + a[1] ** 2 - (b[0] ** 2 + b[1] ** 2) || b[1] - a[1] || b[0] - a[0]);
})();

/** The centres of a group's spots with its middle at (x, y). */
export function spotCentres(n: number, x: number, y: number): [number, number][] {
  return Array.from({ length: n }, (_, k) => [x + (k - (n - 1) / 2) * SPOT_SPACING, y] as [number, number]);
}

/**
 * `list`'s spots grouped by feature (`on`), each group placed in the list's order at the nearest
 * free place to `spotOf(on)` on a tile `size` units across.
 */
export function placeSpotGroups<S extends { readonly on: string }>(
  list: readonly S[],
  spotOf: (on: string) => readonly [number, number],
  size = 100,
): SpotGroup<S>[] {
  const groups = new Map<string, S[]>();
  for (const s of list) groups.set(s.on, [...(groups.get(s.on) ?? []), s]);
  const taken: [number, number][] = [];
  return [...groups.entries()].map(([on, group]) => {
    const half = ((group.length - 1) / 2) * SPOT_SPACING + EDGE;
    const clampX = (x: number) => Math.min(size - half, Math.max(half, x));
    const clampY = (y: number) => Math.min(size - EDGE, Math.max(EDGE, y));
    const [fx, fy] = spotOf(on);
    const clearBy = (x: number, y: number, apart: number) =>
      spotCentres(group.length, x, y).every(([sx, sy]) => taken.every(([tx, ty]) => Math.hypot(tx - sx, ty - sy) >= apart - 0.01));
    // The nearest place where the group overlaps no other spot; on a crowded tile (seven features, a
    // meeple and a big one each) the nearest where every spot's middle, where a click lands, is clear.
    const place = (apart: number): [number, number] | null => {
      for (const [dx, dy] of MOVES) {
        const x = clampX(fx + dx);
        const y = clampY(fy + dy);
        if (clearBy(x, y, apart)) return [x, y];
      }
      return null;
    };
    const at = place(SPOT_SPACING) ?? place(CLICK_CLEAR) ?? [clampX(fx), clampY(fy)];
    taken.push(...spotCentres(group.length, at[0], at[1]));
    return { on, group, x: at[0], y: at[1] };
  });
}
