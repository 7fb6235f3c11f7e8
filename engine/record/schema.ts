/** record@1 (../spec/game-record.md plus the extensions in docs/record-format.md), validated with zod. */
import { z } from 'zod';

const int = z.number().int();
export const xy = z.tuple([int, int]);
const rot = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);
export const meepleKind = z.enum(['normal', 'big', 'abbot']);

export const expansionId = z.enum(['base', 'river', 'abbot', 'inns-cathedrals', 'tower', 'jousts-crests', 'siege-defense']);

const item = z.object({ name: z.string(), count: int.optional(), points: int }).passthrough();

export const scoreEvent = z
  .object({
    players: z.array(int),
    points: int,
    kind: z.string(),
    at: xy.optional(),
    on: z.string().optional(),
    items: z.array(item).optional(),
  })
  .passthrough();

const capture = z
  .object({ player: int, at: xy, on: z.string(), meeple: meepleKind.optional(), exchangeFor: meepleKind.optional() })
  .passthrough();

export const action = z.union([
  z.object({ meeple: meepleKind, on: z.string() }).strict(),
  z.object({ towerPiece: xy, capture: capture.optional() }).strict(),
  z.object({ meeple: meepleKind, tower: xy }).strict(),
  z.object({ returnAbbot: xy }).strict(),
]);

// Jousts & Crests and Siege & Defense (docs/record-format.md).
const post = z.enum(['knights', 'travelers', 'monks']);
const reveal = z.object({ player: int, at: xy, on: z.string(), value: int }).strict();
const removal = z.object({ player: int, at: xy, on: z.string(), meeple: meepleKind.optional() }).strict();
const siegeStep = z.object({ post, removals: z.array(removal).optional() }).strict();
const prizeTile = z.union([
  z.object({ tile: z.string(), at: xy, rot }).strict(),
  z.object({ tile: z.string(), discarded: z.literal(true) }).strict(),
]);
const tournament = z.object({ reveals: z.array(reveal) }).strict();
const tournamentExpect = z
  .object({
    ranking: z.array(z.object({ player: int, value: int }).strict()).optional(),
    prizes: z.array(int).optional(),
    kept: int.nullable().optional(),
  })
  .strict();

export const ransom = z.object({ payer: int, prisonerOf: int, meeple: meepleKind.optional() }).passthrough();

export const turn = z
  .object({
    player: int,
    tile: z.string().nullable(),
    at: xy.optional(),
    rot: rot.optional(),
    discarded: z.string().optional(),
    action: action.nullable().optional(),
    ransoms: z.array(ransom).optional(),
    tournament: z.union([tournament, z.array(tournament).min(1)]).optional(),
    siege: z.array(siegeStep).optional(),
    prizeTiles: z.array(prizeTile).optional(),
    tournamentTile: z.object({ at: xy, rot }).strict().optional(),
    nominate: z.object({ at: xy, on: z.string() }).strict().optional(),
    post: z.object({ post, space: z.enum(['row', 'meeple']) }).strict().optional(),
    skip: z.literal(true).optional(),
    expect: z.object({ events: z.array(scoreEvent).optional(), tournament: tournamentExpect.optional() }).passthrough().optional(),
  })
  .passthrough()
  .superRefine((t, ctx) => {
    if (t.tile !== null && (t.at === undefined || t.rot === undefined)) {
      ctx.addIssue({ code: 'custom', message: `tile ${t.tile} needs "at" and "rot"` });
    }
  });

export const rules = z
  .object({
    tinyCity: z.union([z.literal(4), z.literal(2)]).optional(),
    innCathedralIncomplete: z.enum(['zero', 'normal']).optional(),
    farmers: z.boolean().optional(),
    towerCapture: z.enum(['mandatory', 'optional']).optional(),
  })
  .passthrough();

export const tileSet = z
  .object({
    edition: z.enum(['C1', 'C2', 'C3']).optional(),
    riverStartTile: z.enum(['box', 'stack']).optional(),
  })
  .strict();

export const gameRecord = z
  .object({
    format: z.literal('record@1'),
    expansions: z.array(expansionId).min(1),
    rules: rules.optional(),
    tileSet: tileSet.optional(),
    players: z.array(z.object({ name: z.string(), color: z.string() }).passthrough()).min(2),
    start: z.array(z.object({ tile: z.string(), at: xy, rot, piece: z.string().optional() }).passthrough()).min(1).optional(),
    options: z
      .object({
        jc: z
          .object({
            crownSpaces: z.array(z.enum(['road', 'city', 'field'])).min(1).optional(),
            crownStart: int.min(0).optional(),
            startTileToBox: z.boolean().optional(),
            allowRenominate: z.boolean().optional(),
            stacks: z.object({ S: int.min(1), P: int.min(0), land: z.array(int.min(0)).min(1).optional() }).strict().optional(),
          })
          .strict()
          .optional(),
        sd: z.object({ rowBase: z.tuple([int.min(1), int.min(1)]).optional() }).strict().optional(),
      })
      .strict()
      .optional(),
    turns: z.array(turn),
    expect: z
      .object({ final: z.array(int).optional(), finalEvents: z.array(scoreEvent).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

export type GameRecord = z.infer<typeof gameRecord>;
export type RecordTurn = z.infer<typeof turn>;
export type RecordScoreEvent = z.infer<typeof scoreEvent>;
export type RecordAction = z.infer<typeof action>;

/** A zod problem as one line naming where it is (`turns[12].rot`, turn 13). */
export function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  const m = /^turns\[(\d+)\]/.exec(path);
  const where = m ? `turn ${Number(m[1]) + 1} (${path})` : path || 'record';
  return `${where}: ${issue.message}`;
}

export type ParseResult = { ok: true; record: GameRecord } | { ok: false; reason: string };

export function parseRecord(input: unknown): ParseResult {
  const r = gameRecord.safeParse(input);
  if (r.success) return { ok: true, record: r.data };
  return { ok: false, reason: r.error.issues.slice(0, 5).map(describeIssue).join('; ') };
}

export function parseRecordText(text: string): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `not valid JSON: ${(e as Error).message}` };
  }
  return parseRecord(json);
}
