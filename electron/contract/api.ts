/**
 * The operations a screen may ask for, one function each, with the schema of their arguments. The
 * same table checks Electron IPC (main/ipc.ts) and WebSocket messages (server/), and types the
 * preload API and the renderer's Backend.
 */
import { z } from 'zod';
import type { GameRecord } from '../../engine/record/schema.js';
import { cameraChoiceSchema, profileNameSchema, type CameraSetupView } from './camera-setup.js';
import { cameraAnswerSchema, cameraFrameSchema, cameraReportSchema, cameraSourceSchema, type CameraView } from './camera.js';
import { commandSchema } from './commands.js';
import { placementsArgs, type PlacementsView, type TileChoice } from './entry.js';
import { demoStartSchema, type DemoView } from './demo.js';
import { photoReadOptionsSchema, photoSchema, type PhotoReadView } from './photos.js';
import { newGameSchema } from './setup.js';
import type { PlaceView, Snapshot } from './snapshot.js';
import { teachArgs, type TaughtImportResult, type TaughtTypeView, type TeachCoverage, type TeachView } from './teach.js';
import { argumentIssueWords } from './issue-words.js';
import { cropSchema, tileDefinitionSchema, type EditableTile, type SavedTile } from './tiles.js';

const index = z.number().int().min(0).max(100_000);
export const MAX_RECORD_CHARS = 2_000_000;

export const operationArgs = {
  snapshot: z.tuple([]),
  newGame: z.tuple([newGameSchema]),
  play: z.tuple([commandSchema]),
  undo: z.tuple([]),
  redo: z.tuple([]),
  correct: z.tuple([index, commandSchema.nullable()]),
  insert: z.tuple([index, commandSchema]),
  // The longest game in the corpus (6 players, four expansions) is 20 kB as a record: 2 MB is room for 100 of it.
  importRecord: z.tuple([z.string().max(MAX_RECORD_CHARS, 'a record over 2 MB')]),
  exportRecord: z.tuple([]),
  listGames: z.tuple([]),
  loadGame: z.tuple([z.number().int().min(1)]),
  statistics: z.tuple([]),
  pairing: z.tuple([]),
  pairingAllow: z.tuple([]),
  unpairScreen: z.tuple([z.string().min(1).max(40)]),
  secondScreenMoves: z.tuple([z.boolean()]),
  tileTypes: z.tuple([]),
  tileChoices: z.tuple([]),
  placements: placementsArgs,
  saveTile: z.tuple([tileDefinitionSchema, cropSchema.nullable(), z.enum(['camera', 'settings'])]),
  readTilePhoto: z.tuple([photoSchema, photoReadOptionsSchema]),
  camera: z.tuple([]),
  cameraUse: z.tuple([cameraSourceSchema, z.string().max(200).optional()]),
  cameraReport: z.tuple([cameraReportSchema]),
  cameraAnswer: z.tuple([z.number().int().min(1), cameraAnswerSchema]),
  /** The tile types that may lie, in some turn, at the cell of an open tile reading ("Another tile…"). */
  cameraTilesFitting: z.tuple([z.number().int().min(1)]),
  /** The turns in which a tile the table named may lie at an open tile reading's cell, the camera's likeliest first. */
  cameraTurnsSeen: z.tuple([z.number().int().min(1), z.string().regex(/^[A-Za-z0-9_\-]{1,40}$/, 'a catalog tile id')]),
  cameraAskEverything: z.tuple([z.boolean()]),
  cameraPictureBoard: z.tuple([]),
  cameraStartPieceCorners: z.tuple([z.array(z.tuple([z.number().finite(), z.number().finite()])).length(4).nullable()]),
  cameraFindStartPiece: z.tuple([]),
  cameraFrame: z.tuple([cameraFrameSchema]),
  cameraSetup: z.tuple([]),
  cameraChoose: z.tuple([cameraChoiceSchema.nullable()]),
  cameraSheet: z.tuple([z.string().min(1).max(60)]),
  cameraProfileSave: z.tuple([profileNameSchema]),
  cameraProfileUse: z.tuple([profileNameSchema]),
  cameraProfileDelete: z.tuple([profileNameSchema]),
  demoStart: z.tuple([demoStartSchema]),
  demoStop: z.tuple([]),
  // Teaching the camera the table's tiles (contract/teach.ts).
  ...teachArgs,
} as const;

export type OperationName = keyof typeof operationArgs;
export const OPERATION_NAMES = Object.keys(operationArgs) as OperationName[];
export type OperationArgs<K extends OperationName> = z.infer<(typeof operationArgs)[K]>;

export interface GameSummary {
  readonly id: number;
  readonly createdAt: string;
  readonly players: readonly string[];
  readonly final: readonly number[] | null;
}

export interface PairedScreen {
  readonly id: string;
  readonly pairedAt: string;
  /** The address it paired from. */
  readonly address: string;
  readonly connected: boolean;
}

export interface PairingInfo {
  /** Is LAN access on (a second screen may join)? */
  readonly lan: boolean;
  /** The code a second screen types to join; only the main screen is told it. */
  readonly code: string | null;
  /** When the code is replaced by a new one (main screen only). */
  readonly expiresAt: string | null;
  /** Pairing locked after too many failed attempts, until the main screen allows it again (main screen only). */
  readonly locked: boolean;
  /** The paired second screens (main screen only; empty for others). */
  readonly screens: readonly PairedScreen[];
  /** May second screens enter moves (play, undo, redo, correct, insert, answer the camera)? */
  readonly screenMoves: boolean;
  readonly urls: readonly string[];
}

export interface OperationResults {
  snapshot: Snapshot;
  newGame: { gameId: number };
  play: { version: number };
  undo: { version: number };
  redo: { version: number };
  correct: { version: number };
  insert: { version: number };
  importRecord: { gameId: number; final: readonly number[] };
  exportRecord: GameRecord;
  listGames: readonly GameSummary[];
  loadGame: { gameId: number };
  statistics: { games: number; finished: number; players: readonly { name: string; games: number; wins: number; averageScore: number; bestScore: number }[] };
  pairing: PairingInfo;
  pairingAllow: PairingInfo;
  unpairScreen: PairingInfo;
  secondScreenMoves: PairingInfo;
  tileTypes: readonly EditableTile[];
  tileChoices: readonly TileChoice[];
  placements: PlacementsView;
  saveTile: SavedTile;
  readTilePhoto: PhotoReadView;
  camera: CameraView;
  cameraUse: CameraView;
  cameraReport: CameraView;
  cameraAnswer: { version: number } | null;
  cameraTilesFitting: readonly TileChoice[];
  cameraTurnsSeen: readonly { readonly rot: number; readonly p: number }[];
  cameraAskEverything: CameraView;
  cameraPictureBoard: CameraView;
  cameraStartPieceCorners: CameraView;
  cameraFindStartPiece: CameraView;
  cameraFrame: null;
  cameraSetup: CameraSetupView;
  cameraChoose: CameraSetupView;
  cameraSheet: CameraSetupView;
  cameraProfileSave: CameraSetupView;
  cameraProfileUse: CameraSetupView;
  cameraProfileDelete: CameraSetupView;
  demoStart: DemoView;
  demoStop: DemoView;
  teach: TeachView | null;
  teachStart: TeachView;
  teachStop: TeachView;
  teachLook: TeachView;
  teachAcceptSure: TeachView;
  teachPick: TeachView;
  teachName: TeachView;
  teachDiscard: TeachView;
  teachRetake: TeachView;
  teachCoverage: TeachCoverage;
  taughtTiles: readonly TaughtTypeView[];
  taughtDelete: readonly TaughtTypeView[];
  taughtExport: { fileName: string; text: string; tiles: number };
  taughtImport: TaughtImportResult;
}

/**
 * An answer. A refusal is in the table's words; `places` are the places on the board it speaks of
 * ("the lit road"), which the board lights while the refusal is shown.
 */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: string; places?: readonly PlaceView[] };

/** The typed API a screen holds: one async function per operation. */
export type CompanionApi = {
  [K in OperationName]: (...args: OperationArgs<K>) => Promise<Reply<OperationResults[K]>>;
};

/** Checks arguments from outside; the error names the operation and the offending argument. */
export function parseArgs<K extends OperationName>(op: K, args: unknown): Reply<OperationArgs<K>> {
  const r = operationArgs[op].safeParse(args);
  if (r.success) return { ok: true, value: r.data as OperationArgs<K> };
  const issue = r.error.issues[0]!;
  return { ok: false, error: argumentIssueWords(op, issue.path, issue.message) };
}

export function isOperation(op: unknown): op is OperationName {
  return typeof op === 'string' && Object.hasOwn(operationArgs, op);
}
