/**
 * Teach mode on the services' side (issue 30, docs/teach.md): while a teach session is open, the
 * camera's frames (the screen's camera, through the camera service's own path) come here instead of
 * to the tracker. The newest frame is read whenever the last reading is done (models/teach/read.ts);
 * a frame that shows what a frame read already shows (the same small thumbnail, within the sensor's
 * noise) is skipped. Each reading's cards join the session (models/teach/session.ts): a new frame adds
 * the tiles laid since, a tile moved keeps its card.
 *
 * A card the table accepts is stored at once (SQLite, `taught_tiles`): the taught picture becomes its
 * type's template for the tracker and an exemplar for the model (services/tiles/enrolled.ts), so
 * nothing taught is lost when the camera is unplugged, the session closed or the app quit. A card
 * answered again replaces its picture's answer; a discarded card that was taught is untaught.
 */
import sharp from 'sharp';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import type { Edition, TileType } from '../../../engine/catalog/types.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { PHOTO_EXPANSIONS, photoCandidates, SHOWN_PX, type PhotoExpansion } from '../../../models/photo/read.js';
import type { TileRecognizer } from '../../../models/runner.js';
import { outlineNote, TeachSession, type SessionCard } from '../../../models/teach/session.js';
import { boxCounts } from '../../../models/teach/counts.js';
import type { TaughtImportResult, TaughtTypeView, TeachCardView, TeachChoice, TeachCoverage, TeachUnknownType, TeachView } from '../../contract/teach.js';
import type { CameraService } from '../camera/camera-service.js';
import type { GameSession } from '../session/session.js';
import type { Store } from '../store/store.js';
import { BOARD_PICTURE_SOURCE } from '../tiles/enrolled.js';
import { exportTaught, importTaught } from './taught-file.js';

export interface TeachServiceOptions {
  readonly store: Store;
  readonly session: GameSession;
  /** Where the frames come from (absent: no frames; the table can still manage its taught tiles). */
  readonly camera?: CameraService;
  /** The recognition model, loaded on the first frame read (default: the committed model). */
  readonly recognizer?: () => Promise<TileRecognizer>;
}

type Turn = 0 | 90 | 180 | 270;

/**
 * A thumbnail this small and grey is enough to tell a frame that shows nothing new: at 960 px across
 * one thumbnail pixel averages 24 × 24 frame pixels (sensor noise and JPEG vanish), and a tile laid
 * since covers some 20 of them.
 */
const THUMB_W = 40, THUMB_H = 30;
/**
 * Two frames show the same table when at most SAME_PIXELS thumbnail pixels differ by more than
 * SAME_GREY grey levels, after the mean difference (the camera's exposure) is taken out. (A mean
 * difference was first tried: three tiles laid since moved it by only ~3 levels, within noise.)
 */
const SAME_GREY = 20;
const SAME_PIXELS = 3;
/** Thumbnails of frames read, kept to skip a frame that shows a table read already. */
const THUMBS_KEPT = 12;
const NOTICES = 6;
/** Card pictures go to the screen this big (the stored picture keeps SHOWN_PX). */
const CARD_PX = 160;
/** Taught pictures are stored as JPEG at this quality: a template's detail survives, the file stays small. */
const STORE_QUALITY = 92;

export class TeachService {
  private teach: TeachSession | null = null;
  /**
   * The open teach's edition; the expansions the model reads (`expansions`) and those whose tiles the
   * table names, card by card (`named`: the 2025 boxes, whose print the model has never been shown).
   */
  private choice: { edition: Edition; expansions: PhotoExpansion[]; named: string[] } | null = null;
  private newest: { bytes: Uint8Array; seq: number } | null = null;
  private seq = 0;
  private readSeq = 0;
  private forced = false;
  private reading = false;
  private thumbs: Uint8Array[] = [];
  private counts = { received: 0, read: 0, skipped: 0 };
  private notices: { text: string; error: boolean }[] = [];
  private changes = 1;
  /** Each accepted card's stored picture. */
  private readonly stored = new Map<number, { rowId: number; tileId: string; alpha: Uint8Array | null }>();
  /** How each accepted card was answered: said at once (its picture is stored in the background). */
  private readonly how = new Map<number, string>();
  /** Card pictures for the screen (JPEG data URLs), made once per picture. */
  private readonly shown = new WeakMap<Uint8Array, string>();
  private readonly retakes = new Set<string>();
  private recognizer: Promise<TileRecognizer> | null = null;
  private readonly catalog = TileCatalog.standard();
  private readonly listeners = new Set<() => void>();
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly o: TeachServiceOptions) {
    o.camera?.onChange(() => {
      if (this.teach) this.changed();
    });
  }

  // ── the session ──

  /** Opens a teach session (closing one open): the frames from now on are read for tiles. */
  start(choice: TeachChoice | null): Result<TeachView> {
    const setup = this.o.session.currentGame?.state.setup;
    const c = choice ?? (setup ? { edition: setup.tileSet.edition, expansions: [...setup.expansions] } : null);
    if (!c) return fail('teach: no edition and expansions given, and no game is set up to take them from');
    const { readable: expansions, named } = this.split(c);
    if (expansions.length === 0)
      return fail(
        named.length
          ? `teach: choose the base game too: the camera reads its tiles (and those of ${PHOTO_EXPANSIONS.filter((e) => e !== 'base').join(', ')}) and finds those of ${named.join(', ')} for the table to name`
          : `teach: the camera cannot be taught tiles of ${c.expansions.join(', ')} (it reads ${PHOTO_EXPANSIONS.join(', ')})`,
      );
    if (photoCandidates(c.edition, expansions).length === 0) return fail(`teach: no tile type of ${c.edition} in ${expansions.join(', ')}`);
    // The box's counts: a table teaches one box (each type at most its printed copies). While tiles
    // the model cannot read may lie among those laid, it reads them as some type it knows, sure or
    // not: no card is sure then.
    this.choice = { edition: c.edition, expansions, named };
    this.teach = new TeachSession(boxCounts(this.types(this.choice), c.edition), { unreadable: named.length > 0 });
    this.stored.clear();
    this.how.clear();
    this.thumbs = [];
    this.newest = null;
    this.readSeq = this.seq;
    this.counts = { received: 0, read: 0, skipped: 0 };
    this.notices = [];
    if (named.length)
      this.notice(`${named.join(', ')}: the camera cannot read these tiles yet. It finds them; name each one (N), or describe it in the tile editor (E). No card is sure while they may be among the tiles laid: each is confirmed by the table`, false);
    this.o.camera?.tapFrames((bytes) => this.frame(bytes));
    // The model and OpenCV load while the table lays its tiles out, not on the first frame.
    void this.loadRecognizer().catch(() => undefined);
    void import('../../../calibration/cv.js').then((m) => m.loadCv()).catch(() => undefined);
    this.changed();
    return ok(this.view());
  }

  private loadRecognizer(): Promise<TileRecognizer> {
    this.recognizer ??= this.o.recognizer?.() ?? import('../../../models/runner.js').then((m) => m.TileRecognizer.load(m.DEFAULT_MODEL, 1));
    return this.recognizer;
  }

  /** Closes the session: its open cards go; what was taught stays. */
  stop(): TeachView {
    this.teach = null;
    this.choice = null;
    this.newest = null;
    this.o.camera?.tapFrames(null);
    this.changed();
    return this.view();
  }

  /** A frame from the camera (true: taken, the tracker does not get it). */
  frame(bytes: Uint8Array): boolean {
    if (!this.teach) return false;
    this.newest = { bytes, seq: ++this.seq };
    this.counts.received++;
    void this.pump();
    return true;
  }

  /** The table asks for the newest frame to be read now, even if it shows what was read. */
  look(): Result<TeachView> {
    if (!this.teach) return fail('teach: no teach session is open');
    if (!this.newest) return fail('teach: no frame from the camera yet');
    this.forced = true;
    this.readSeq = this.newest.seq - 1;
    void this.pump();
    return ok(this.view());
  }

  private async pump(): Promise<void> {
    if (this.reading) return;
    const teach = this.teach, choice = this.choice, f = this.newest;
    if (!teach || !choice || !f || f.seq === this.readSeq) return;
    this.reading = true;
    this.changed();
    try {
      this.readSeq = f.seq;
      const thumb = await thumbnail(f.bytes);
      if (!thumb) {
        this.notice(`frame ${f.seq}: not an image the camera could decode; skipped`, true);
        return;
      }
      if (!this.forced && this.thumbs.some((t) => same(t, thumb))) {
        this.counts.skipped++;
        return;
      }
      this.forced = false;
      const recognizer = await this.loadRecognizer();
      const { readTeachFrame } = await import('../../../models/teach/read.js');
      const r = await readTeachFrame(recognizer, f.bytes, { edition: choice.edition, expansions: choice.expansions, sides: teach.sides });
      if (this.teach !== teach) return; // closed or started again meanwhile
      this.counts.read++;
      this.thumbs.push(thumb);
      if (this.thumbs.length > THUMBS_KEPT) this.thumbs.shift();
      if (!r.ok) this.notice(`frame ${f.seq} not read: ${r.reason}`, true);
      else {
        const m = teach.addFrame(r.value);
        if (m.added.length || m.moved.length) this.notice(`frame ${f.seq}: ${m.added.length} new tile${m.added.length === 1 ? '' : 's'}${m.moved.length ? `, ${m.moved.length} moved` : ''}`, false);
      }
    } catch (e) {
      this.notice(`frame ${f.seq} not read: ${(e as Error).message}`, true);
      if (/model|onnx/i.test((e as Error).message)) this.recognizer = null;
    } finally {
      this.reading = false;
      this.changed();
    }
    // A newer frame came while this one was read.
    if (this.newest && this.newest.seq !== this.readSeq) void this.pump();
  }

  // ── the table's answers ──

  acceptSure(): Result<TeachView> {
    const teach = this.open();
    if (!teach.ok) return teach;
    const ids = teach.value.acceptAllSure();
    return this.answered(ids, 'a sure reading accepted');
  }

  pick(cardId: number, k: number): Result<TeachView> {
    const teach = this.open();
    if (!teach.ok) return teach;
    try {
      teach.value.pick(cardId, k);
    } catch (e) {
      return fail(`teach: ${(e as Error).message}`);
    }
    return this.answered([cardId], k === 0 ? 'its best reading accepted' : `its reading ${k + 1} picked`);
  }

  name(cardId: number, tileId: string, rotation: Turn): Result<TeachView> {
    const teach = this.open();
    if (!teach.ok) return teach;
    if (!this.catalog.has(tileId)) return fail(`teach: ${tileId} is no tile type this app knows`);
    try {
      teach.value.correct(cardId, tileId, rotation);
    } catch (e) {
      return fail(`teach: ${(e as Error).message}`);
    }
    return this.answered([cardId], 'named by the table');
  }

  discard(cardId: number): Result<TeachView> {
    const teach = this.open();
    if (!teach.ok) return teach;
    try {
      teach.value.discard(cardId);
    } catch (e) {
      return fail(`teach: ${(e as Error).message}`);
    }
    this.how.delete(cardId);
    const was = this.stored.get(cardId);
    if (was) {
      this.o.store.deleteTaughtTiles([was.rowId]);
      this.stored.delete(cardId);
      this.o.camera?.tablePicturesChanged();
      // Its type's other copies may have lost the copy that showed what lay over them.
      const teach = this.teach!, edition = this.choice!.edition;
      this.work = this.work.then(() => this.store(teach, edition, [], new Set([was.tileId]), ''));
    }
    this.changed();
    return ok(this.view());
  }

  /** The next picture taught of `tileId` replaces its taught pictures (the old ones stay until then). */
  retake(tileId: string): Result<TeachView> {
    if (!this.catalog.has(tileId)) return fail(`teach: ${tileId} is no tile type this app knows`);
    this.retakes.add(tileId);
    this.changed();
    return ok(this.view());
  }

  private open(): Result<TeachSession> {
    return this.teach ? ok(this.teach) : fail('teach: no teach session is open');
  }

  /** Stores the pictures of cards just answered (replacing what a card taught before). */
  private answered(ids: readonly number[], how: string): Result<TeachView> {
    const teach = this.teach!;
    for (const id of ids) if (teach.get(id).state === 'accepted') this.how.set(id, how);
    // The types the answers touch: each card's new one, and the one it was taught as before.
    const types = new Set<string>();
    for (const id of ids) {
      const c = teach.get(id);
      if (c.state === 'accepted' && c.tileId) types.add(c.tileId);
      const before = this.stored.get(id)?.tileId;
      if (before) types.add(before);
    }
    // The session's now: stored even if the table closes it meanwhile.
    const edition = this.choice!.edition;
    this.work = this.work.then(() => this.store(teach, edition, ids, types, how));
    this.changed();
    return ok(this.view());
  }

  /**
   * Stores the pictures of the cards `ids`, then again those of `types`' other copies whose part left
   * out changed (a figure or a hand found over one copy by the others: models/teach/covered.ts). A
   * picture with a part left out is stored as PNG, the part transparent; a whole one as JPEG.
   */
  private async store(teach: TeachSession, edition: string, ids: readonly number[], types: ReadonlySet<string>, how: string): Promise<void> {
    // Only the types touched are compared: every answer would otherwise compare the whole box's copies again.
    const taught = teach.taught(types);
    const fresh = taught.filter((t) => ids.includes(t.cardId));
    const again = taught.filter((t) => !ids.includes(t.cardId) && this.stored.has(t.cardId) && !sameMask(this.stored.get(t.cardId)!.alpha, t.alpha));
    for (const t of [...fresh, ...again]) {
      try {
        const raw = { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 3 as const } };
        const image = t.alpha
          ? await sharp(t.cropRgb, raw).joinChannel(Buffer.from(t.alpha), { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 1 } }).png().toBuffer()
          : await sharp(t.cropRgb, raw).jpeg({ quality: STORE_QUALITY }).toBuffer();
        const before = this.stored.get(t.cardId);
        const drop = before ? [before.rowId] : [];
        if (this.retakes.has(t.tileId) && ids.includes(t.cardId)) {
          drop.push(...this.o.store.taughtTiles(t.tileId).map((x) => x.id));
          this.retakes.delete(t.tileId);
        }
        if (drop.length) this.o.store.deleteTaughtTiles(drop);
        const rowId = this.o.store.addTaughtTile({ tileId: t.tileId, rot: t.rotation, edition, how: this.how.get(t.cardId) ?? how, image, mime: t.alpha ? 'image/png' : 'image/jpeg' });
        this.stored.set(t.cardId, { rowId, tileId: t.tileId, alpha: t.alpha });
      } catch (e) {
        this.notice(`card ${t.cardId} (${t.tileId}) could not be stored: ${(e as Error).message}`, true);
      }
    }
    this.o.camera?.tablePicturesChanged();
    this.changed();
  }

  // ── what the table taught ──

  taughtTypes(): TaughtTypeView[] {
    const byType = new Map<string, TaughtTypeView['pictures'][number][]>();
    for (const t of this.o.store.taughtTiles()) {
      const list = byType.get(t.tileId) ?? [];
      list.push({ id: t.id, createdAt: t.createdAt, edition: t.edition, how: t.how, rotation: t.rot, picture: `data:${t.mime};base64,${t.image.toString('base64')}` });
      byType.set(t.tileId, list);
    }
    return [...byType].map(([tileId, pictures]) => {
      const type = this.catalog.get(tileId);
      return { tileId, name: type?.name ?? tileId, expansion: type?.expansion ?? 'unknown', pictures };
    });
  }

  deleteType(tileId: string): Result<TaughtTypeView[]> {
    const ids = this.o.store.taughtTiles(tileId).map((t) => t.id);
    if (ids.length === 0) return fail(`taught tiles: ${tileId} has no taught picture`);
    this.o.store.deleteTaughtTiles(ids);
    for (const [card, s] of this.stored) if (ids.includes(s.rowId)) { this.stored.delete(card); this.how.delete(card); }
    this.o.camera?.tablePicturesChanged();
    this.changed();
    return ok(this.taughtTypes());
  }

  exportFile(): { fileName: string; text: string; tiles: number } {
    const file = exportTaught(this.o.store);
    return { fileName: `taught-tiles-${file.exportedAt.slice(0, 10)}.json`, text: JSON.stringify(file), tiles: file.tiles.length };
  }

  async importFile(text: string): Promise<Result<TaughtImportResult>> {
    const r = await importTaught(this.o.store, text, this.catalog);
    if (r.ok && r.value.added > 0) {
      this.o.camera?.tablePicturesChanged();
      this.changed();
    }
    return r;
  }

  /** Coverage of a choice, or (null) of the game in progress's edition and expansions, else the open teach's. */
  coverageOf(c: TeachChoice | null): Result<TeachCoverage> {
    if (c) return ok(this.coverage(c));
    const setup = this.o.session.currentGame?.state.setup;
    if (setup) return ok(this.coverage({ edition: setup.tileSet.edition, expansions: [...setup.expansions] }));
    if (this.choice) return ok(this.coverage({ edition: this.choice.edition, expansions: [...this.choice.expansions, ...this.choice.named] }));
    return fail('teach: no game and no teach to count the tile types of');
  }

  /** For an edition and expansions: how many tile types are taught, pictured from a board, unknown. */
  coverage(c: TeachChoice): TeachCoverage {
    const { readable, named } = this.split(c);
    const ids = new Set(this.types({ edition: c.edition, expansions: readable, named }).map((t) => t.id));
    const { taught, board } = this.knownTypeIds();
    let nTaught = 0, nPictured = 0;
    for (const id of ids) {
      if (taught.has(id)) nTaught++;
      else if (board.has(id)) nPictured++;
    }
    return { edition: c.edition, expansions: [...c.expansions], types: ids.size, taught: nTaught, pictured: nPictured, unknown: ids.size - nTaught - nPictured, namedOnly: named };
  }

  /** The expansions of a choice the model reads, and those whose tiles (of that edition) the table names. */
  private split(c: TeachChoice): { readable: PhotoExpansion[]; named: string[] } {
    const readable = c.expansions.filter((e): e is PhotoExpansion => (PHOTO_EXPANSIONS as readonly string[]).includes(e));
    const named = c.expansions.filter((e) => !(PHOTO_EXPANSIONS as readonly string[]).includes(e) && this.catalog.ofExpansion(e).some((t) => (t.counts[c.edition] ?? 0) > 0));
    return { readable, named };
  }

  /** A teach's tile types: those the model reads, then those the table names. */
  private types(choice: { edition: Edition; expansions: readonly PhotoExpansion[]; named: readonly string[] }): TileType[] {
    return [
      ...photoCandidates(choice.edition, choice.expansions),
      ...choice.named.flatMap((e) => this.catalog.ofExpansion(e).filter((t) => (t.counts[choice.edition] ?? 0) > 0)),
    ];
  }

  /** The types with a taught picture, and those pictured from an earlier game's board. */
  private knownTypeIds(): { taught: ReadonlySet<string>; board: ReadonlySet<string> } {
    return { taught: this.o.store.taughtTypeIds(), board: this.o.store.exemplarTypeIds(BOARD_PICTURE_SOURCE) };
  }

  /** The teach's tile types the camera knows neither by a taught picture nor by a board's. */
  private unknownTypes(choice: { edition: Edition; expansions: readonly PhotoExpansion[]; named: readonly string[] }): TeachUnknownType[] {
    const { taught, board } = this.knownTypeIds();
    return this.types(choice)
      .filter((t) => !taught.has(t.id) && !board.has(t.id))
      .map((t) => ({ tileId: t.id, name: t.name, copies: t.counts[choice.edition] ?? 0, segments: t.segments, features: t.features }));
  }

  // ── the view ──

  view(): TeachView {
    const cam = this.o.camera?.view();
    const choice = this.choice;
    const candidates = choice ? this.types(choice).map((t) => ({ id: t.id, name: t.name, expansion: t.expansion })) : [];
    return {
      version: this.changes,
      open: this.teach !== null,
      edition: choice?.edition ?? null,
      expansions: choice ? [...choice.expansions, ...choice.named] : [],
      namedOnly: choice?.named ?? [],
      camera: { source: cam?.source ?? 'none', status: cam?.status ?? 'off', message: cam?.message ?? (this.o.camera ? null : 'the camera service is not running') },
      reading: this.reading,
      frames: { ...this.counts },
      cards: (this.teach?.cards ?? []).map((c) => this.cardView(c)),
      candidates,
      retake: [...this.retakes],
      notices: [...this.notices].reverse(),
      coverage: choice ? this.coverage({ edition: choice.edition, expansions: [...choice.expansions, ...choice.named] }) : null,
      unknown: choice && this.teach ? this.unknownTypes(choice) : [],
    };
  }

  private cardView(c: SessionCard): TeachCardView {
    const reading = (tileId: string, rotation: Turn, confidence: number) => {
      const t = this.catalog.get(tileId);
      return { tileId, name: t?.name ?? tileId, rotation, confidence, segments: t?.segments ?? [], features: t?.features ?? [] };
    };
    return {
      id: c.id,
      state: c.state,
      why: c.why,
      picture: c.cropRgb ? (this.shown.get(c.cropRgb) ?? null) : null,
      readings: c.readings.map((r) => reading(r.tileId, r.rotation, r.confidence)),
      sure: this.teach?.isSure(c) ?? false,
      outlineNote: outlineNote(c),
      answer: c.state === 'accepted' && c.tileId && c.rotation !== null ? { tileId: c.tileId, name: this.catalog.get(c.tileId)?.name ?? c.tileId, rotation: c.rotation, how: this.how.get(c.id) ?? '' } : null,
      corners: c.corners.map((p) => [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10] as const),
    };
  }

  private notice(text: string, error: boolean): void {
    this.notices.push({ text, error });
    if (this.notices.length > NOTICES) this.notices.shift();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.changes++;
    // Card pictures for the screen, made before the view is next asked for.
    const missing = (this.teach?.cards ?? []).filter((c) => c.cropRgb && !this.shown.has(c.cropRgb));
    if (missing.length) this.work = this.work.then(() => this.showPictures(missing));
    for (const l of this.listeners) l();
  }

  private async showPictures(cards: readonly SessionCard[]): Promise<void> {
    for (const c of cards) {
      const rgb = c.cropRgb;
      if (!rgb || this.shown.has(rgb)) continue;
      const jpeg = await sharp(rgb, { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 3 } }).resize(CARD_PX, CARD_PX).jpeg({ quality: 85 }).toBuffer();
      this.shown.set(rgb, `data:image/jpeg;base64,${jpeg.toString('base64')}`);
    }
    this.changes++;
    for (const l of this.listeners) l();
  }

  /** Rises with every change: a screen holding this version has the view. */
  get version(): number {
    return this.changes;
  }

  /** Resolves once the frame being read and the answers being stored are done (tests, shutdown). */
  async settled(): Promise<void> {
    for (;;) {
      const w = this.work;
      await w;
      while (this.reading) await new Promise((r) => setTimeout(r, 10));
      if (w === this.work && !this.reading) return;
    }
  }

  async close(): Promise<void> {
    this.teach = null;
    this.o.camera?.tapFrames(null);
    await this.settled();
  }
}

async function thumbnail(bytes: Uint8Array): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await sharp(bytes).greyscale().resize(THUMB_W, THUMB_H, { fit: 'fill' }).raw().toBuffer());
  } catch {
    return null;
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let mean = 0;
  for (let i = 0; i < a.length; i++) mean += a[i]! - b[i]!;
  mean /= a.length;
  let differ = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]! - mean) > SAME_GREY && ++differ > SAME_PIXELS) return false;
  return true;
}

/** Whether two pictures leave out the same pixels (null: none). */
function sameMask(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
