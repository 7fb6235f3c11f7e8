/**
 * Whether a figure stands on a new tile is read from the strength its best spot's fit needs (the
 * tracker's step 7): below `unseen` no figure, from `seen` a figure, between the two the table is
 * asked. Data, by the player's colour where the tuning recordings measured a colour apart.
 */

/** Every colour without its own entry (set on c1/c2: seen figures fitted 0.43–1.12, bare tiles at the 0.3 floor). */
export const FIGURE_PRESENCE_DEFAULT = { unseen: 0.38, seen: 0.45 } as const;

/**
 * A blue figure differs from the tiles' greens and browns mostly in chroma, which the camera's 4:2:0
 * subsampling halves: it fits weaker than a red one. Fourteen tuning games (seeds 7001–7005 in c1/c2,
 * 7201–7207, 7221, 7229 in c3; 1,363 readings): bare tiles under a blue hypothesis fitted at most 0.33
 * (273 readings), seen blue figures from 0.38 (0.33 once; median 0.74), so 0.38–0.45 was a band of
 * right answers sent to the table. Red on the same games: bare up to 0.35 (0.44 once), seen from 0.50:
 * the default stays.
 */
const BY_COLOUR: Readonly<Record<string, { readonly unseen: number; readonly seen: number }>> = {
  blue: { unseen: 0.355, seen: 0.375 },
};

export function figurePresence(colour: string | undefined): { readonly unseen: number; readonly seen: number } {
  return (colour !== undefined ? BY_COLOUR[colour] : undefined) ?? FIGURE_PRESENCE_DEFAULT;
}
