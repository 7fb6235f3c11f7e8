/** The engine's commands as zod schemas: what crosses IPC, WebSocket and the store's log is checked here. */
import { z } from 'zod';
import type { Command } from '../../engine/game/commands.js';

const int = z.number().int();
const xy = z.tuple([int, int]).readonly();
const rot = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);
const player = int.min(0).max(9);
const kind = z.enum(['normal', 'big', 'abbot']);
const featureName = z.string().regex(/^[A-Za-z0-9_]{1,40}$/, 'a spot on the tile (a road, city, field, cloister…)');
const post = z.enum(['knights', 'travelers', 'monks']);
const tileId = z.string().regex(/^[A-Za-z0-9_\-]{1,40}$/, 'a tile of the game');

export const commandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('placeTile'), player, tile: tileId, at: xy, rot }).strict(),
  z.object({ type: z.literal('discardTile'), player, tile: tileId }).strict(),
  z.object({ type: z.literal('placeMeeple'), player, kind, on: featureName }).strict(),
  z.object({ type: z.literal('endTurn'), player }).strict(),
  z.object({ type: z.literal('finishGame') }).strict(),
  z
    .object({
      type: z.literal('placeTowerFloor'),
      player,
      at: xy,
      capture: z.object({ player, at: xy, on: featureName, kind: kind.optional(), exchangeFor: kind.optional() }).strict().optional(),
    })
    .strict(),
  z.object({ type: z.literal('closeTower'), player, kind, at: xy }).strict(),
  z.object({ type: z.literal('payRansom'), player, prisonerOf: player, kind }).strict(),
  z.object({ type: z.literal('returnAbbot'), player, at: xy }).strict(),
  z.object({ type: z.literal('drawTile'), player, tile: tileId }).strict(),
  z.object({ type: z.literal('resolveTournament'), player }).strict(),
  z.object({ type: z.literal('revealEmblem'), owner: player, at: xy, on: featureName, value: int.min(0).max(9) }).strict(),
  z.object({ type: z.literal('placeTournamentTile'), player, at: xy, rot }).strict(),
  z.object({ type: z.literal('placePrizeTile'), player, tile: tileId, at: xy, rot }).strict(),
  z.object({ type: z.literal('discardPrizeTile'), player, tile: tileId }).strict(),
  z.object({ type: z.literal('nominate'), player, at: xy, on: featureName }).strict(),
  z.object({ type: z.literal('skipTurn'), player }).strict(),
  z.object({ type: z.literal('resolveSiegeSymbol'), player, post }).strict(),
  z.object({ type: z.literal('removeMeepleForAttack'), owner: player, at: xy, on: featureName, kind: kind.optional() }).strict(),
  z.object({ type: z.literal('placeAtDefencePost'), player, post, space: z.enum(['row', 'meeple']) }).strict(),
]);

// The schema and the engine's type must describe the same thing.
type Parsed = z.infer<typeof commandSchema>;
export const sameShape: [Parsed] extends [Command] ? ([Command] extends [Parsed] ? true : false) : false = true;
