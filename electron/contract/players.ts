/**
 * The players of a game, one rule for every way a game comes in: New Game, an imported record, and
 * (through the record) a loaded game. Colours come from the palette the screens can draw: a colour is
 * put into styles and SVG fills, so anything else (`red;position:fixed;inset:0`) must never reach
 * them. Names are bounded and distinct (the scoreboard, the audit and statistics tell players apart
 * by name).
 */
import { z } from 'zod';
import { isPlayerColour, PLAYER_COLOURS } from './palette.js';

export const MAX_NAME_LENGTH = 40;

const colour = z.string().refine(isPlayerColour, {
  message: `a colour from the palette (${PLAYER_COLOURS.join(', ')})`,
});

export const playerSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'a player needs a name')
      .max(MAX_NAME_LENGTH, `a name of at most ${MAX_NAME_LENGTH} characters`)
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'a name without control characters'),
    color: colour,
  })
  .strict();

/** The seats in order: 2 to 6 players, no colour and no name twice (names compared without case). */
export const playersSchema = z
  .array(playerSchema)
  .min(2, 'at least 2 players')
  .max(6, 'at most 6 players')
  .superRefine((players, ctx) => {
    const seen = new Map<string, number>();
    players.forEach((p, i) => {
      const j = seen.get(`c:${p.color}`);
      if (j !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'color'], message: `players ${j + 1} and ${i + 1} (${players[j]!.name} and ${p.name}) share the colour ${p.color}: each player needs a colour of their own` });
      else seen.set(`c:${p.color}`, i);
      const key = `n:${p.name.toLocaleLowerCase()}`;
      const k = seen.get(key);
      if (k !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `players ${k + 1} and ${i + 1} share the name ${p.name}: each player needs a name of their own` });
      else seen.set(key, i);
    });
  });
