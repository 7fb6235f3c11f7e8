/** The operations (contract/api.ts) carried out on the services; both transports call these. */
import type { Result } from '../../../engine/result.js';
import type { OperationArgs, OperationName, OperationResults, PairingInfo, Reply } from '../../contract/api.js';
import { setupFromNewGame } from '../../contract/setup.js';
import type { CameraService } from '../camera/camera-service.js';
import { CameraSetup } from '../camera/camera-setup.js';
import type { DemoService } from '../demo/demo-service.js';
import { placements, tileChoices } from '../session/entry.js';
import type { GameSession } from '../session/session.js';
import { PhotoReader } from '../tiles/photo-reader.js';
import { TableWords, withoutGame } from '../session/words.js';
import type { Store } from '../store/store.js';
import type { TeachService } from '../teach/teach-service.js';

export interface Services {
  readonly session: GameSession;
  readonly store: Store;
  /** LAN pairing as this caller may see and change it (the code and the screens only for the main screen). */
  readonly pairing: PairingControl;
  /** The camera and tracker (absent: no camera operations). */
  readonly camera?: CameraService;
  /** The demo game ("Watch a demo game"; absent: no demo operations). */
  readonly demo?: DemoService;
  /** The photo reader (absent: one made here, its model loaded on the first photo). */
  readonly photos?: PhotoReader;
  /** Teach mode and the table's taught tiles (absent: no teach operations). */
  readonly teach?: TeachService;
}

/** LAN pairing for one caller (server/pairing.ts behind it, or `lanOff`). */
export interface PairingControl {
  info(): PairingInfo;
  allow(): Reply<PairingInfo>;
  unpair(screenId: string): Reply<PairingInfo>;
  screenMoves(on: boolean): Reply<PairingInfo>;
}

/** Pairing where LAN access is off: nothing to pair, nothing to allow. */
export function lanOff(urls: readonly string[]): PairingControl {
  const off = { ok: false, error: 'LAN access is off: there are no second screens' } as const;
  return {
    info: () => ({ lan: false, code: null, expiresAt: null, locked: false, screens: [], screenMoves: false, urls }),
    allow: () => off,
    unpair: () => off,
    screenMoves: () => off,
  };
}

const noCamera = { ok: false, error: 'the camera service is not running' } as const;
const noDemo = { ok: false, error: 'the demo game is not available here' } as const;
const noTeach = { ok: false, error: 'teach mode is not running in this app' } as const;

const version = (a: { version: number }) => ({ version: a.version });

/**
 * Every operation answers at once except those that run the model (reading a photo; the camera's
 * view of a cell for a tile the table names) and importing taught tiles (images checked).
 */
type Answer<K extends OperationName> = K extends 'readTilePhoto' | 'taughtImport' | 'cameraTilesFitting' | 'cameraTurnsSeen' ? Promise<Reply<OperationResults[K]>> : Reply<OperationResults[K]>;
type Handlers = { [K in OperationName]: (...args: OperationArgs<K>) => Answer<K> };

export function handlers(s: Services): Handlers {
  const photos = s.photos ?? new PhotoReader();
  // Stateless over the store and the camera service: one per caller costs nothing.
  const setup = s.camera ? new CameraSetup(s.store, s.camera) : null;
  /**
   * A refusal in the table's words (words.ts), with the places it names for the board to light: the
   * engine's reasons name ids and positions, which the screens never show. Said against the game open
   * now (a refused command changed nothing).
   */
  const refused = (reason: string): Reply<never> => {
    const state = s.session.currentGame?.state;
    if (!state) return { ok: false, error: withoutGame(reason) };
    const said = new TableWords(state).rewrite(reason);
    return { ok: false, error: said.text, places: said.places };
  };
  const reply = <T, U>(r: Result<T>, map: (v: T) => U): Reply<U> => (r.ok ? { ok: true, value: map(r.value) } : refused(r.reason));
  // Not about the game open now: New Game and import say their refusals in words themselves (the
  // session), and the tile editor speaks the catalog's own terms (segments N0…W2, tile ids).
  const exact = <T, U>(r: Result<T>, map: (v: T) => U): Reply<U> => (r.ok ? { ok: true, value: map(r.value) } : { ok: false, error: r.reason });
  return {
    snapshot: () => ({ ok: true, value: s.session.snapshot() }),
    newGame: (n) => exact(s.session.newGame(setupFromNewGame(n)), (gameId) => ({ gameId })),
    play: (c) => reply(s.session.play(c), version),
    undo: () => reply(s.session.undo(), version),
    redo: () => reply(s.session.redo(), version),
    correct: (i, c) => reply(s.session.correct(i, c), version),
    insert: (i, c) => reply(s.session.insert(i, c), version),
    importRecord: (text) => exact(s.session.importRecord(text), (v) => v),
    exportRecord: () => reply(s.session.exportRecord(), (v) => v),
    listGames: () => ({
      ok: true,
      value: s.store.games<{ players: { name: string }[] }>().map((g) => ({ id: g.id, createdAt: g.createdAt, players: g.setup.players.map((p) => p.name), final: g.final })),
    }),
    loadGame: (id) => reply(s.session.load(id), () => ({ gameId: id })),
    statistics: () => ({ ok: true, value: s.store.statistics() }),
    pairing: () => ({ ok: true, value: s.pairing.info() }),
    pairingAllow: () => s.pairing.allow(),
    unpairScreen: (id) => s.pairing.unpair(id),
    secondScreenMoves: (on) => s.pairing.screenMoves(on),
    tileTypes: () => ({ ok: true, value: s.session.editableTiles() }),
    tileChoices: () => (s.session.currentGame ? { ok: true, value: tileChoices(s.session.currentGame) } : { ok: false, error: 'no game is open' }),
    placements: (tile, as) => {
      const game = s.session.currentGame;
      if (!game) return { ok: false, error: 'no game is open' };
      const v = placements(game, tile, as);
      // Why a tile cannot be played names it by id: said in the table's words like every refusal.
      return { ok: true, value: v.problem ? { ...v, problem: new TableWords(game.state).rewrite(v.problem).text } : v };
    },
    saveTile: (def, crop, source) => exact(s.session.saveTile(def, crop, source), (v) => v),
    readTilePhoto: async (photo, options) => {
      const setup = s.session.currentGame?.state.setup;
      let only: Set<string> | undefined;
      if (options.forQuestion !== undefined) {
        const fits = s.camera ? s.camera.typesFittingQuestion(options.forQuestion) : null;
        if (!fits) return noCamera;
        if (!fits.ok) return refused(fits.reason);
        only = fits.value;
      }
      const r = await photos.read(photo, options, setup ? { edition: setup.tileSet.edition, expansions: setup.expansions } : null, s.store, s.session.catalogInPlay ?? undefined, only);
      return reply(r, (v) => v);
    },
    camera: () => (s.camera ? { ok: true, value: s.camera.view(true) } : noCamera),
    cameraUse: (kind, label) => (s.camera ? reply(s.camera.use(kind, label), (v) => v) : noCamera),
    cameraReport: (r) => (s.camera ? reply(s.camera.report(r), (v) => v) : noCamera),
    cameraAnswer: (id, answer) => (s.camera ? reply(s.camera.answer(id, answer), (a) => (a ? version(a) : null)) : noCamera),
    cameraTilesFitting: async (id) => {
      if (!s.camera) return noCamera;
      const fits = s.camera.typesFittingQuestion(id);
      const game = s.session.currentGame;
      if (!fits.ok) return refused(fits.reason);
      const choices = game ? tileChoices(game).filter((c) => fits.value.has(c.tile)) : [];
      // The camera's likeliest first; those it cannot weigh (no picture, a 2025 tile unpictured) after, as listed.
      const seen = await s.camera.typesSeen(id);
      const rank = new Map((seen.ok ? seen.value : []).map((t, i) => [t, i]));
      return { ok: true, value: [...choices].sort((a, b) => (rank.get(a.tile) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.tile) ?? Number.MAX_SAFE_INTEGER)) };
    },
    cameraTurnsSeen: async (id, tile) => (s.camera ? reply(await s.camera.turnsSeen(id, tile), (v) => v) : noCamera),
    cameraAskEverything: (on) => (s.camera ? { ok: true, value: s.camera.askEverything(on) } : noCamera),
    cameraPictureBoard: () => (s.camera ? reply(s.camera.pictureBoardNow(), (v) => v) : noCamera),
    cameraStartPieceCorners: (corners) => (s.camera ? reply(s.camera.startPieceCorners(corners), (v) => v) : noCamera),
    cameraFindStartPiece: () => (s.camera ? reply(s.camera.findStartPiece(), (v) => v) : noCamera),
    cameraFrame: (bytes) => (s.camera ? reply(s.camera.frame(bytes), () => null) : noCamera),
    cameraSetup: () => (setup ? { ok: true, value: setup.view() } : noCamera),
    cameraChoose: (choice) => (setup ? reply(setup.choose(choice), (v) => v) : noCamera),
    cameraSheet: (name) => (setup ? reply(setup.sheet(name), (v) => v) : noCamera),
    cameraProfileSave: (name) => (setup ? reply(setup.save(name), (v) => v) : noCamera),
    cameraProfileUse: (name) => (setup ? reply(setup.use(name), (v) => v) : noCamera),
    cameraProfileDelete: (name) => (setup ? reply(setup.remove(name), (v) => v) : noCamera),
    demoStart: (o) => (s.demo ? reply(s.demo.start(o.pace), (v) => v) : noDemo),
    demoStop: () => (s.demo ? reply(s.demo.stop(), (v) => v) : noDemo),
    // The screen polls: nothing is built when it holds the latest version.
    teach: (known) => (s.teach ? { ok: true, value: known === s.teach.version ? null : s.teach.view() } : noTeach),
    teachStart: (choice) => (s.teach ? reply(s.teach.start(choice), (v) => v) : noTeach),
    teachStop: () => (s.teach ? { ok: true, value: s.teach.stop() } : noTeach),
    teachLook: () => (s.teach ? reply(s.teach.look(), (v) => v) : noTeach),
    teachAcceptSure: () => (s.teach ? reply(s.teach.acceptSure(), (v) => v) : noTeach),
    teachPick: (card, k) => (s.teach ? reply(s.teach.pick(card, k), (v) => v) : noTeach),
    teachName: (card, tile, rotation) => (s.teach ? reply(s.teach.name(card, tile, rotation), (v) => v) : noTeach),
    teachDiscard: (card) => (s.teach ? reply(s.teach.discard(card), (v) => v) : noTeach),
    teachRetake: (tile) => (s.teach ? reply(s.teach.retake(tile), (v) => v) : noTeach),
    teachCoverage: (choice) => (s.teach ? reply(s.teach.coverageOf(choice), (v) => v) : noTeach),
    taughtTiles: () => (s.teach ? { ok: true, value: s.teach.taughtTypes() } : noTeach),
    taughtDelete: (tile) => (s.teach ? reply(s.teach.deleteType(tile), (v) => v) : noTeach),
    taughtExport: () => (s.teach ? { ok: true, value: s.teach.exportFile() } : noTeach),
    taughtImport: async (text) => (s.teach ? reply(await s.teach.importFile(text), (v) => v) : noTeach),
  };
}

/** Runs one operation; an exception (a bug or I/O) becomes an error reply rather than a crash. */
export function invoke<K extends OperationName>(h: Handlers, op: K, args: OperationArgs<K>): Reply<OperationResults[K]> | Promise<Reply<OperationResults[K]>> {
  const failed = (e: unknown): Reply<OperationResults[K]> => ({ ok: false, error: `${op} failed: ${(e as Error).message}` });
  try {
    const r = (h[op] as (...a: OperationArgs<K>) => Reply<OperationResults[K]> | Promise<Reply<OperationResults[K]>>)(...args);
    return r instanceof Promise ? r.catch(failed) : r;
  } catch (e) {
    return failed(e);
  }
}
