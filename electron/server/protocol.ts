/** WebSocket messages, checked with zod before anything acts on them. */
import { z } from 'zod';

export const clientMessage = z.object({
  id: z.number().int().min(0),
  op: z.string().min(1).max(40),
  args: z.array(z.unknown()).max(4).default([]),
}).strict();

export type ClientMessage = z.infer<typeof clientMessage>;

export type ServerMessage =
  | { readonly id: number | null; readonly ok: true; readonly value: unknown }
  | { readonly id: number | null; readonly ok: false; readonly error: string }
  | { readonly push: 'snapshot'; readonly snapshot: unknown }
  | { readonly push: 'camera'; readonly camera: unknown };

/** Close codes a client can act on. */
export const CLOSE_NOT_PAIRED = 4401;
export const CLOSE_TOO_MANY_ERRORS = 4400;
