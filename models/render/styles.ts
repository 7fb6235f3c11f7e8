/**
 * Art styles standing for printed editions. Training draws from TRAIN_STYLES only; HELD_OUT_STYLE is
 * never used in training so that the benchmark can measure how recognition carries over to new art.
 */
export type Texture = 'grass' | 'dots' | 'hatch' | 'plain' | 'stipple';

export interface ArtStyle {
  readonly name: string;
  readonly field: string;
  readonly fieldDark: string;
  readonly road: string;
  readonly roadEdge: string;
  readonly city: string;
  readonly cityDark: string;
  readonly roof: string;
  readonly wall: string;
  readonly river: string;
  readonly riverEdge: string;
  readonly tree: string;
  readonly shieldA: string;
  readonly shieldB: string;
  readonly outline: string;
  readonly line: number;
  readonly roadWidth: number;
  readonly wallWidth: number;
  readonly texture: Texture;
  /** Trees, bushes and houses per tile, roughly. */
  readonly decorations: number;
  /** Bevel drawn round the tile border (printed tiles show a light/dark edge). */
  readonly bevel: number;
}

export const TRAIN_STYLES: readonly ArtStyle[] = [
  {
    name: 'c3', field: '#8fbf4a', fieldDark: '#6f9d35', road: '#f1ead2', roadEdge: '#9c8f6a', city: '#d8b77c', cityDark: '#b48e55',
    roof: '#b8442f', wall: '#8a7a66', river: '#5aa7d8', riverEdge: '#2f6f9a', tree: '#3f6e2a', shieldA: '#2b55a4', shieldB: '#f3f1e8',
    outline: '#3b3020', line: 1.2, roadWidth: 8, wallWidth: 4, texture: 'grass', decorations: 5, bevel: 1.5,
  },
  {
    name: 'c2', field: '#9aa84a', fieldDark: '#7b8a36', road: '#e6dcc0', roadEdge: '#7c7057', city: '#c9a36b', cityDark: '#9b7646',
    roof: '#a5482d', wall: '#6f6453', river: '#4f8fc0', riverEdge: '#2c5b80', tree: '#4d6b2c', shieldA: '#1f4691', shieldB: '#ece6d2',
    outline: '#2a2418', line: 1.6, roadWidth: 7, wallWidth: 5, texture: 'stipple', decorations: 7, bevel: 2.5,
  },
  {
    name: 'c1', field: '#6fa83c', fieldDark: '#558a2a', road: '#f4efe0', roadEdge: '#55493a', city: '#c48a4a', cityDark: '#8f5f2e',
    roof: '#cf4b2a', wall: '#4d4238', river: '#3d8fd1', riverEdge: '#1e4f7d', tree: '#2f5a1e', shieldA: '#2148b6', shieldB: '#ffffff',
    outline: '#1a140c', line: 2.4, roadWidth: 9, wallWidth: 6, texture: 'dots', decorations: 4, bevel: 1,
  },
  {
    name: 'flat', field: '#a6c96a', fieldDark: '#8db352', road: '#ffffff', roadEdge: '#b0a890', city: '#e3c79a', cityDark: '#c6a574',
    roof: '#d0633f', wall: '#9b8e7c', river: '#7cc0ea', riverEdge: '#4b8cb8', tree: '#5f8f3c', shieldA: '#3466c2', shieldB: '#fafafa',
    outline: '#5a4e3c', line: 0.8, roadWidth: 6, wallWidth: 3, texture: 'plain', decorations: 2, bevel: 0,
  },
  {
    name: 'sketch', field: '#b7c98e', fieldDark: '#93a86a', road: '#efe6cf', roadEdge: '#6b604c', city: '#d9c3a0', cityDark: '#ad9270',
    roof: '#9d5a44', wall: '#5e554a', river: '#8fb7d0', riverEdge: '#4d7690', tree: '#5b7446', shieldA: '#3b5a99', shieldB: '#f6f0e0',
    outline: '#3f372c', line: 1.8, roadWidth: 7.5, wallWidth: 4.5, texture: 'hatch', decorations: 6, bevel: 2,
  },
];

/** Never used in training: an autumn palette with a texture no training style uses in the same way. */
export const HELD_OUT_STYLE: ArtStyle = {
  name: 'heldout-autumn', field: '#a9a65a', fieldDark: '#8c7f3e', road: '#ddd3b8', roadEdge: '#7a6549', city: '#cfa681', cityDark: '#a07a55',
  roof: '#8c3a2e', wall: '#7a6a5a', river: '#6d9bb8', riverEdge: '#3c6884', tree: '#7a5a24', shieldA: '#283f7a', shieldB: '#efe4c8',
  outline: '#2e2418', line: 1.4, roadWidth: 8.5, wallWidth: 4, texture: 'grass', decorations: 8, bevel: 2,
};

export const ALL_STYLES: readonly ArtStyle[] = [...TRAIN_STYLES, HELD_OUT_STYLE];

export function styleByName(name: string): ArtStyle {
  const s = ALL_STYLES.find((x) => x.name === name);
  if (!s) throw new Error(`unknown art style ${name} (known: ${ALL_STYLES.map((x) => x.name).join(', ')})`);
  return s;
}

/** Nudges a #rrggbb colour by up to `amount` per channel: printings and lighting never match exactly. */
export function jitterColor(hex: string, r: () => number, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => Math.max(0, Math.min(255, Math.round(c + (r() * 2 - 1) * amount))));
  return `#${ch.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
