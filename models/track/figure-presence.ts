/**
 * Whether a figure stands on a new tile is read from the strength its best spot's fit needs (the
 * tracker's step 7): below `unseen` no figure, from `seen` a figure, between the two the table is
 * asked. Data, by the player's colour where the tuning recordings measured a colour apart; every
 * other colour keeps the tracker's thresholds (set on c1/c2: seen figures 0.43–1.12, bare tiles 0.3).
 */

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

/** The thresholds for a player's colour: its own entry, else `otherwise` (the tracker's, set on c1/c2). */
export function figurePresence(colour: string | undefined, otherwise: { readonly unseen: number; readonly seen: number }): { readonly unseen: number; readonly seen: number } {
  return (colour !== undefined ? BY_COLOUR[colour] : undefined) ?? otherwise;
}
