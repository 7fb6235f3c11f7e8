/**
 * Edge segments, sides and rotations on the 12-segment model of ../catalog (see docs/engine.md).
 * Segment index i: side = i / 3 (0 N, 1 E, 2 S, 3 W), k = i % 3, listed clockwise around the tile.
 */
export type Rotation = 0 | 90 | 180 | 270;

export const SIDE_NAMES = ['N', 'E', 'S', 'W'] as const;
export const SEGMENT_NAMES = [
  'N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2',
] as const;
export type SegmentName = (typeof SEGMENT_NAMES)[number];

const SEGMENT_INDEX: Record<string, number> = Object.fromEntries(SEGMENT_NAMES.map((n, i) => [n, i]));

export function segmentIndex(name: string): number | undefined {
  return SEGMENT_INDEX[name];
}

export const ROTATIONS: readonly Rotation[] = [0, 90, 180, 270];

export function isRotation(r: unknown): r is Rotation {
  return r === 0 || r === 90 || r === 180 || r === 270;
}

/** Quarter turns clockwise. */
export function quarterTurns(rot: Rotation): number {
  return rot / 90;
}

/** A catalog-frame segment seen on a tile placed with `rot`: turning 90° clockwise moves i to i + 3. */
export function rotateSegment(i: number, rot: Rotation): number {
  return (i + 3 * quarterTurns(rot)) % 12;
}

/** Offsets of the neighbour across each side; y grows south. */
export const SIDE_DELTA: readonly (readonly [number, number])[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];
