/**
 * The demo game a newcomer watches ("Watch a demo game"): the bundled recording's game set up and
 * played by itself, the camera reading its frames and the recording's own record answering for the
 * table. Plain data, built by services/demo/demo-service.ts and carried in the camera view.
 */
import { z } from 'zod';

/** How fast the demo plays: the recording's frame rate times `pace`, and the table answers as much faster. */
export const demoStartSchema = z.object({ pace: z.number().min(0.25).max(100).optional() }).strict();
export type DemoStart = z.infer<typeof demoStartSchema>;

export type DemoState = 'off' | 'playing' | 'stopped' | 'finished';

export interface DemoView {
  readonly state: DemoState;
  /** The game the demo set up (null: none yet). */
  readonly gameId: number | null;
  readonly pace: number;
  /** What the demo's table did, oldest first (the last few): "Demo table: P1 ends the turn". */
  readonly lines: readonly string[];
  /** Tiles of the recorded game; of them read by the camera (sure, or confirmed in its picker) and entered by the demo's table. */
  readonly tiles: number;
  readonly tilesFromCamera: number;
  readonly tilesByTable: number;
  /** The camera's questions the table answered from the record, and readings it took back as wrong. */
  readonly answered: number;
  readonly takenBack: number;
  /** Why the demo stopped by itself, or cannot start. */
  readonly problem: string | null;
}

export const DEMO_OFF: DemoView = { state: 'off', gameId: null, pace: 1, lines: [], tiles: 0, tilesFromCamera: 0, tilesByTable: 0, answered: 0, takenBack: 0, problem: null };
