/**
 * The player colours the screens can draw (no zod here: the renderer imports it). A colour goes into
 * styles and SVG fills, so a value outside this list must never reach them (contract/players.ts
 * refuses it at every way in; `drawableColour` guards what is drawn).
 */
export const PLAYER_COLOURS = ['red', 'blue', 'green', 'yellow', 'black', 'pink', 'grey', 'white', 'purple', 'orange'] as const;
export type PlayerColour = (typeof PLAYER_COLOURS)[number];

export function isPlayerColour(c: unknown): c is PlayerColour {
  return typeof c === 'string' && (PLAYER_COLOURS as readonly string[]).includes(c);
}

/** A colour safe to draw: the palette's, or grey for one that is not (a game stored before the palette rule). */
export function drawableColour(c: string): PlayerColour {
  return isPlayerColour(c) ? c : 'grey';
}
