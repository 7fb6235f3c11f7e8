/** A new game as a screen asks for it, validated before the engine sees it. */
import { z } from 'zod';
const tournamentCategory = z.enum(['road', 'city', 'field']);
/** The engine's default crown track (JC-A2), for checking a start index given without spaces. */
const DEFAULT_CROWN_SPACES = ['road', 'city', 'field'] as const;
import { expansionId } from '../../engine/record/schema.js';
import { playersSchema } from './players.js';
import { DEFAULT_RULES, DEFAULT_TILE_SET, defaultStart, makeSetup, type GameSetup } from '../../engine/game/setup.js';

export const newGameSchema = z
  .object({
    players: playersSchema,
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
    /** Jousts & Crests and Siege & Defense setup options (docs/jousts-crests-siege-defense.md); unset: the defaults. */
    options: z
      .object({
        jc: z
          .object({
            crownSpaces: z.array(tournamentCategory).min(1, 'the crown needs at least one space').max(12),
            crownStart: z.number().int().min(0),
            startTileToBox: z.boolean(),
            allowRenominate: z.boolean(),
            stacks: z
              .object({
                S: z.number().int().min(1, 'at least one land stack').max(12),
                P: z.number().int().min(0).max(6),
                land: z.array(z.number().int().min(0)).optional(),
              })
              .strict(),
          })
          .partial()
          .strict()
          .optional(),
        sd: z.object({ rowBase: z.tuple([z.number().int().min(1).max(12), z.number().int().min(1).max(12)]) }).partial().strict().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const jc = s.options?.jc;
    if (jc?.crownStart !== undefined && jc.crownStart >= (jc.crownSpaces ?? DEFAULT_CROWN_SPACES).length) {
      ctx.addIssue({ code: 'custom', path: ['options', 'jc', 'crownStart'], message: 'the crown starts on a space the crown track does not have' });
    }
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
    ...(n.options ? { options: n.options } : {}),
  });
}
