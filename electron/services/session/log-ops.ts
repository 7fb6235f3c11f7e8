/** The operations a game's log records. Replaying them in order on a fresh Game rebuilds it exactly. */
import { z } from 'zod';
import { commandSchema } from '../../contract/commands.js';

export const logOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('play'), command: commandSchema }),
  z.object({ op: z.literal('undo') }),
  z.object({ op: z.literal('redo') }),
  z.object({ op: z.literal('correct'), index: z.number().int().min(0), command: commandSchema.nullable() }),
  z.object({ op: z.literal('insert'), index: z.number().int().min(0), command: commandSchema }),
]);

export type LogOp = z.infer<typeof logOpSchema>;
