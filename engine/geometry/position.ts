/** Board positions: [x, y], x east, y south. Packed into one integer key for fast maps. */
export type Position = readonly [number, number];

const OFFSET = 1 << 14;
const SPAN = 1 << 15;

export function posKey(x: number, y: number): number {
  return (x + OFFSET) * SPAN + (y + OFFSET);
}

export function keyX(key: number): number {
  return Math.floor(key / SPAN) - OFFSET;
}

export function keyY(key: number): number {
  return (key % SPAN) - OFFSET;
}

export function formatPosition(p: Position): string {
  return `[${p[0]}, ${p[1]}]`;
}

/** The 8 positions around a tile, orthogonal and diagonal. */
export const RING8: readonly (readonly [number, number])[] = [
  [-1, -1], [0, -1], [1, -1],
  [-1, 0], [1, 0],
  [-1, 1], [0, 1], [1, 1],
];
