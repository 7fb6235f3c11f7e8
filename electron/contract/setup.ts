/** A new game as a screen asks for it, validated before the engine sees it. */
import { z } from 'zod';
import { expansionId } from '../../engine/record/schema.js';
import { DEFAULT_RULES, DEFAULT_TILE_SET, defaultStart, makeSetup, type GameSetup } from '../../engine/game/setup.js';

export const newGameSchema = z
  .object({
    players: z
      .array(z.object({ name: z.string().trim().min(1, 'a player needs a name').max(40), color: z.string().regex(/^[a-z]{2,12}$/, 'a colour name') }).strict())
      .min(2, 'at least 2 players')
      .max(6, 'at most 6 players'),
    expansions: z.array(expansionId).min(1),
    rules: z
      .object({
        tinyCity: z.union([z.literal(4), z.literal(2)]),
        innCathedralIncomplete: z.enum(['zero', 'normal']),
        farmers: z.boolean(),
        towerCapture: z.enum(['mandatory', 'optional']),
      })
      .partial()
      .strict()
      .optional(),
    tileSet: z.object({ edition: z.enum(['C1', 'C2', 'C3']), riverStartTile: z.enum(['box', 'stack']) }).partial().strict().optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const colours = s.players.map((p) => p.color);
    if (new Set(colours).size !== colours.length) ctx.addIssue({ code: 'custom', path: ['players'], message: 'two players share a colour' });
  });

export type NewGame = z.infer<typeof newGameSchema>;

/** Seating order is the order of `players`: the first seat plays first. */
export function setupFromNewGame(n: NewGame): GameSetup {
  const expansions = n.expansions.includes('base') ? n.expansions : ['base' as const, ...n.expansions];
  const tileSet = { ...DEFAULT_TILE_SET, ...n.tileSet };
  return makeSetup({
    players: n.players,
    expansions,
    rules: { ...DEFAULT_RULES, ...n.rules },
    tileSet,
    start: defaultStart(expansions, tileSet.edition),
  });
}
