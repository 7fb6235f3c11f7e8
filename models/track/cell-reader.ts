/**
 * Reading a hole that changed: every legal (tile, turn) matched against the cell's crop (a figure
 * on it allowed for), look-alikes merged or compared where they differ, the issue-4 model's reading
 * fused in, and how far the drawings and the table's pictures may be trusted on this table's art.
 * docs/tracking.md, "Reading a new tile".
 */
import sharp from 'sharp';
import type { Homography } from '../../calibration/geometry.js';
import type { Frame } from '../../calibration/frame.js';
import type { GameState } from '../../engine/game/state.js';
import type { TileCatalog } from '../../engine/catalog/registry.js';
import { placementProblem, tileProblem } from '../../engine/game/placement.js';
import { keyX, keyY } from '../../engine/geometry/position.js';
import { ROTATIONS, type Rotation } from '../../engine/geometry/segments.js';
import { sameUpToSymmetry } from '../classes.js';
import { decodeReading, type Decoded } from '../decode.js';
import type { Enrollment } from '../enroll.js';
import type { CropReading, TileRecognizer } from '../runner.js';
import { decodeWithSecondLook } from '../second-look.js';
import { modelReadsCell, type ChangedCell } from './cell-crops.js';
import { edgesAlone } from './edges-alone.js';
import type { FigureReader } from './figures.js';
import { FIT_TRUSTED, templateFit, type Reading } from './reading.js';
import { CROP_PX, PICTURE_MARGIN, differenceMask, maskedLumaDistance, matchTemplate, pictureDetailMasks, type CellCrop, type TileTemplates } from './templates.js';

/**
 * Look-alike readings (`byDetail`): within this factor of the best distance, differing in at most this
 * many template pixels (a quarter of the cell); reading.ts weighs them by the detail.
 */
const DETAIL_CLOSE = 1.5;
const DETAIL_MAX_PX = (CROP_PX * CROP_PX) / 4;
/**
 * The stricter gate for a reading by the table's picture where unpictured types compete (`fitOf`):
 * in full up to 0.02, fading out by FIT_TRUSTED. Right readings by pictures (c3 tuning games
 * 7107–7109, pictures from game 7110's board) fit at median 0.0063, never above 0.0192.
 */
const PICTURE_FIT_TRUSTED = 0.02;
/**
 * An unpictured legal type competes with a reading by a picture (`fitOf`, the stricter gate) when
 * its terrain at its turn differs from the reading's on at most this many of the twelve edge
 * segments: one side's worth (a city cap for a field, a road added on up to three sides, or none: a
 * pennant, a garden). Types further apart are not taken for each other by a picture: on the
 * first-edition taught row (tuning) the gate held no tile of such a type; on the second edition it
 * left right readings by taught pictures to the table wherever any type was untaught.
 */
const LOOKALIKE_SEGMENTS = 3;
/**
 * How well the laid tiles' own drawings must fit them for the drawings to be trusted at all
 * (`noteArtFit`): in full up to ART_FIT_TRUSTED, not from ART_FIT_UNTRUSTED. Drawn tables (styles
 * c1, c2, c3; tuning seeds 7001, 7004, 7107, 7108, 7201) fit at median 0.008–0.014, never above 0.0162;
 * the first-edition print (seed 7401, training material) from 0.028 (the start tile alone) to 0.068.
 * On print the drawings' best fit passes FIT_TRUSTED for wrong types as often as for right ones.
 */
const ART_FIT_TRUSTED = 0.02;
const ART_FIT_UNTRUSTED = 0.026;
/**
 * Where the model leads (the drawings do not describe the table), its confidence is raised to this
 * power: on first-edition print at 1280×960 (tuning seeds 7401–7403, 30 turns, 90 tiles) its four
 * wrong leads said 0.90–0.99 and 52 of its right ones 0.995 or more; 0.995^20 ≈ 0.905 commits.
 */
const MODEL_LEADS_SHARPNESS = 20;
/**
 * Below 30 px per cell, on print of the edition the model was trained on (`ModelInfo.printEditions`)
 * where the drawings are not the table's art, the model leads as above, its confidence raised to this
 * power: on first-edition print at 640×480 (20–28 px per cell; games 9201–9202, training material) at
 * the 20th power it committed 147 tiles right and 3 wrong, each read at 0.995–0.996, a road's end or a
 * pennant off; at the 40th 144 right and none wrong (0.9975^40 ≈ 0.905 commits), and none wrong on
 * games 7401, 7402 and 9203 (199 right). On the second edition, never trained on, the same rule
 * committed 4 wrong of 404 tiles at 640×480 (1.0 %, at 0.94–1.00 after the 40th power): below 30 px
 * the model's word on a print it has not learnt is no commit (docs/tracking-print.md, "Below 30 px on a
 * print the model knows").
 */
const SMALL_CELL_LEADS_SHARPNESS = 40;
/**
 * Where the far camera's model reads the small cell (`farModel`), its confidence is raised to this
 * power instead. Chosen on a copy of the print the model never saw, as a real table's tiles are: a far
 * model trained on one scan set of the first edition (c1-jcz) reading first games drawn from the other
 * (c1-wiki; games 9201–9205, 7401, 7402 at 640×480, 707 tiles; scripts/far-calibration.ts) read 705
 * right and said 0.72 of its 2 wrong readings (pennant twins); in the tracker at the 5th power (0.980
 * commits alone, 0.923 where the drawings agree: `AGREEMENT_EASES`) it committed 674 tiles, none
 * wrong (644 at the 20th). The committed model learnt both scan sets, and is surer of a wrong twin on
 * them (up to 0.96): at the 5th power it committed 691 and 682 of the same games drawn from each, none
 * wrong.
 */
const FAR_MODEL_LEADS_SHARPNESS = 5;
/**
 * Below 30 px, where the model leads and the drawings' best reading is its own (two witnesses, however
 * loosely the drawings fit the print), its confidence is raised to this fraction of the power (the
 * 10th). On the first-edition games 9201–9203, 7401, 7402 at 640×480 (training material) tiles
 * committed 343 → 351 of 505, none wrong; at an eighth of the power 353, none wrong; at a twentieth 356
 * and 2 wrong. From 30 px the drawings' agreement stays no evidence: a quarter of the 20th power there
 * changed nothing on the first-edition games at 1280×960 and committed one more tile wrong on the
 * second edition's (answers learnt: 0 → 1 of 202; docs/tracking.md).
 */
const AGREEMENT_EASES = 4;
/**
 * Below the model's 30 px per cell it is asked only about a reading by the table's own picture of a
 * type the table has taught (its copies enrolled as exemplars), and only a reading this sure counts.
 * Agreeing, it answers the fit gate's doubt (is this tile the pictured type at all: dense print fits
 * its own picture loosely at 25 px) but not a look-alike's — which twin, by the detail comparison or
 * the stricter gate (`stricterGate`), nor the fit gate's where a twin is legal there at all: at 25 px
 * it sees a garden or a pennant no better than the templates, and on second-edition recordings
 * agreed with BASE_E for a BASE_E_G and with BASE_P for a BASE_O. Disagreeing about
 * at least a side's worth of the tile's edges (`SMALL_CELL_VETO_SEGMENTS`), it sends the reading to
 * the table; smaller disagreements — a mark, a road's end — are left to the templates: on the
 * first-edition taught row (tuning, 25 px per cell) the model's 9 sure disagreements were 7 pennants
 * and one road's end where the picture was right, and one tile with other sides where it was wrong.
 */
const SMALL_CELL_SURE = 0.95;
const SMALL_CELL_VETO_SEGMENTS = 3;
/**
 * Where the edges alone name one legal move and the model's constrained reading is that move
 * (`byEdges`), the edges' probability among the legal moves' distinct edges is raised to this power:
 * 0.9999999^1000000 ≈ 0.905 commits. Chosen on the first-edition games 9203–9205, 7401, 7402
 * (training material, 505 tiles) read as an unlearnt print: by the drawings-only model (its segment
 * head reads the second edition's edges at 93 %, the committed model's at 99.5 %) wrong edges were
 * read at up to 0.999946 at 640×480 and 0.984 at 1280×960, and at this bar 30 and 77 tiles were
 * committed by them, none wrong; by the committed model told the print is not its own (640×480),
 * wrong edges at up to 0.997, and 93 committed, none wrong.
 */
const EDGES_ALONE_SHARPNESS = 1_000_000;
/** Among several changed holes, the one new tile is fitted by a tile template at least this much better than the others. */
const LONE_FIT = 0.5;
/**
 * Cell size (px) at which the far camera's model reads a figure's kind on a cell the default model
 * reads (`withFarKinds`): the middle of the 18–32 px it was trained on.
 */
const FAR_KIND_CELL_PX = 25;

/** Of the twelve edge segments, on how many two readings (each at its turn) show different terrain. */
function segmentsDiffering(catalog: TileCatalog, a: Pick<Reading, 'tile' | 'q'>, b: Pick<Reading, 'tile' | 'q'>): number {
  const ta = catalog.view(a.tile, a.q).terrain, tb = catalog.view(b.tile, b.q).terrain;
  let n = 0;
  for (let i = 0; i < ta.length; i++) if (ta[i] !== tb[i]) n++;
  return n;
}

/** The far camera's constrained reading of a new tile at a cell, and its confidence before any power (`TrackerOptions.onFarRead`). */
export interface FarRead {
  readonly x: number;
  readonly y: number;
  readonly tile: string;
  readonly rot: Rotation;
  readonly confidence: number;
}

export class CellReader {
  /** The best fit of the drawings to this table's laid tiles over the game's still scenes (Infinity before any: no evidence; `noteArtFit`). */
  artFit = Infinity;
  /** A still scene's laid tiles and their drawings, not matched yet (`noteArtFit`). */
  private pendingArtFit: { crop: CellCrop; tpl: CellCrop }[] | null = null;

  constructor(
    private readonly templates: TileTemplates,
    private readonly figures: FigureReader,
    private readonly model: TileRecognizer | null,
    /** The table's enrolled exemplars (they may grow while the game runs). */
    private readonly enrollment?: Enrollment,
    /** The far camera's model (runner.ts FAR_MODEL): reads cells under 30 px on a print it learnt, where the model leads. */
    readonly farModel: TileRecognizer | null = null,
    private readonly onFarRead?: (read: FarRead) => void,
  ) {}

  /** Every legal (tile, turn) at the cell, best first. */
  read(state: GameState, now: CellCrop, x: number, y: number, onlyDrawn = false): Reading[] {
    const ids = new Set<string>();
    for (const [id, n] of state.supply) if (n > 0) ids.add(id);
    // Prize tiles only while the player holds one (Jousts & Crests): then only they.
    const prizes = (state.jc?.players[state.turn.player]?.prizesHeld ?? 0) > 0;
    if (prizes) {
      ids.clear();
      for (const [id, n] of state.jc!.prizePool) if (n > 0) ids.add(id);
    } else if (state.turn.drawn !== null && onlyDrawn) {
      // The table showed the drawn tile (games with a draw step) and one new tile is in view: the
      // engine takes no other, so the camera reads only where and how it lies. With several new
      // tiles at once (a still scene missed) any of them may be another turn's: all types are read.
      ids.clear();
      ids.add(state.turn.drawn);
    }
    const readings: Reading[] = [];
    for (const id of ids) {
            const tile = state.catalog.get(id);
      if (!tile || !this.templates.has(id)) continue;
      if (!prizes && tileProblem(state, tile)) continue;
      for (let q = 0; q < 4; q++) {
        if (placementProblem(state, state.catalog.view(id, q), x, y)) continue;
        // Turns that are one reading to the rules (a symmetric tile) still differ in drawing and in
        // where a figure stands: the better-fitting turn stands for them.
        const match = matchTemplate(now, this.templates.get(id, q)!);
        const twin = readings.findIndex((r) => r.tile === id && sameUpToSymmetry(tile, r.q, q));
        if (twin >= 0) {
          if (match.d < readings[twin]!.d) readings[twin] = { tile: id, q, d: match.d, match };
          continue;
        }
        readings.push({ tile: id, q, d: match.d, match });
      }
    }
    readings.sort((a, b) => a.d - b.d);
    // A figure standing on the new tile hides part of it: the leading readings are scored with the
    // best figure hypothesis too, so a meeple does not push the right tile down the list.
    for (const r of readings.slice(0, 4)) {
      const withFigure = this.figures.hypotheses(now, r, state);
      if (withFigure.length) r.d = Math.min(r.d, withFigure[0]!.d);
    }
    readings.sort((a, b) => a.d - b.d);
    // Look-alikes (identical drawings) are one reading to a camera: keep the tile the table says was
    // drawn when it is among them, else the one with most copies left.
    const merged: Reading[] = [];
    const byLook = new Map<string, Reading>();
    const prefer = (r: Reading) => (r.tile === state.turn.drawn ? 1e6 : 0) + (state.supply.get(r.tile) ?? 0);
    for (const r of readings) {
      const look = this.templates.look(r.tile, r.q);
      const seen = byLook.get(look);
      if (!seen) { byLook.set(look, r); merged.push(r); continue; }
      if (prefer(r) > prefer(seen)) { merged[merged.indexOf(seen)] = r; byLook.set(look, r); }
    }
    return this.byPictureDetail(state, now, this.byDetail(now, merged));
  }

  /**
   * Twins the table has pictured both of (a pennant or a garden the one difference; the same terrain
   * on every edge segment) fit a tile about equally as whole pictures: a card cut a millimetre off
   * costs its picture more than the mark does. When the best reading by a picture has such a twin
   * close behind (within DETAIL_CLOSE), the two are compared again only where their pictures differ
   * (`pictureDetailMasks`), in luma, and re-ranked and weighed by that (`readingConfidence`).
   */
  private byPictureDetail(state: GameState, now: CellCrop, readings: Reading[]): Reading[] {
    const top = readings[0];
    if (!top || top.detail !== undefined || !this.templates.fromPicture(top.tile)) return readings;
    const twin = readings.find((r) => r !== top && r.d < top.d * DETAIL_CLOSE && this.templates.fromPicture(r.tile) && r.tile !== top.tile && segmentsDiffering(state.catalog, top, r) === 0);
    if (!twin) return readings;
    // A symmetric twin's turns are one reading to the rules, but its mark is not symmetric (BASE_F's
    // pennant lies on one side of its city): the whole-tile fit may have kept the turn whose mark is
    // on the other side. So the two are compared wherever their pictures differ at any turn both may
    // lie at (the twins' print is one illustration, a mark added: compared turn for turn), each at its
    // best turn.
    const turnsOf = (r: Reading) => { const tile = state.catalog.get(r.tile)!; return [0, 1, 2, 3].filter((q) => sameUpToSymmetry(tile, r.q, q)); };
    const where = new Uint8Array(CROP_PX * CROP_PX);
    const common = turnsOf(top).filter((q) => turnsOf(twin).includes(q));
    for (const [qa, qb] of common.length > 0 ? common.map((q) => [q, q] as const) : [[top.q, twin.q] as const]) {
      const masks = pictureDetailMasks(this.templates.get(top.tile, qa)!, this.templates.get(twin.tile, qb)!);
      if (masks) for (let i = 0; i < where.length; i++) if (masks.a[i] || masks.b[i]) where[i] = 1;
    }
    if (!where.includes(1)) return readings;
    const detailOf = (r: Reading) => Math.min(...turnsOf(r).map((q) => {
      const tpl = this.templates.get(r.tile, q)!;
      return maskedLumaDistance(now, tpl, q === r.q ? r.match : matchTemplate(now, tpl), where);
    }));
    top.detail = detailOf(top);
    twin.detail = detailOf(twin);
    if (process.env.TRACK_DEBUG) console.error(`picture twins ${top.tile}/${top.q} ${top.detail.toFixed(5)} ${twin.tile}/${twin.q} ${twin.detail.toFixed(5)}`);
    const pair = [top, twin].sort((a, b) => a.detail! - b.detail!);
    return [...pair, ...readings.filter((r) => r !== top && r !== twin)];
  }

  /**
   * Drawings that differ in a small detail only (the Jousts & Crests prize tiles share their city and
   * field and differ by a mark a few pixels wide at 25–40 px per tile) are told apart poorly by the
   * whole-tile distance, whose noise they all share: the readings close to the best are compared again
   * only where their templates differ, in luma (the camera's chroma is half resolution), re-ranked by
   * that, and weighed by it (`readingConfidence`).
   */
  private byDetail(now: CellCrop, readings: Reading[]): Reading[] {
    const close = readings.filter((r) => r.d < readings[0]!.d * DETAIL_CLOSE);
    if (close.length < 2) return readings;
    const tpls = close.map((r) => this.templates.get(r.tile, r.q)!);
    const mask = differenceMask(tpls[0]!, tpls.slice(1), 12);
    if (mask.reduce((a, b) => a + b, 0) > DETAIL_MAX_PX) return readings;
    close.forEach((r, i) => { r.detail = maskedLumaDistance(now, tpls[i]!, r.match, mask); });
    close.sort((a, b) => a.detail! - b.detail!);
    return [...close, ...readings.filter((r) => r.detail === undefined)];
  }

  /**
   * With a drawn tile (games with a draw step), the one changed hole is read as the drawn tile only:
   * any tile lying there would be taken for it. Another legal type whose drawing fits the cell far
   * better (by DETAIL_CLOSE, the factor `loneNewTile` asks of the drawn tile too) and looks different
   * says the tile there is not the drawn one. Only types drawn the same way compete: a picture of
   * the print fits a crop of another printed tile better than that tile's drawing does (`fitOf`).
   * Which tile it is the templates may not say (over a cell with a hand on it an all-field tile
   * fitted best), so only the drawn tile is named to the table.
   */
  notTheDrawnTile(state: GameState, now: CellCrop, x: number, y: number, drawnReadings: readonly Reading[]): boolean {
    const drawn = state.turn.drawn;
    if (drawn === null || (state.jc?.players[state.turn.player]?.prizesHeld ?? 0) > 0) return false;
    const mine = drawnReadings[0];
    const picture = this.templates.fromPicture(drawn);
    const best = this.read(state, now, x, y).find((r) => this.templates.fromPicture(r.tile) === picture);
    if (process.env.TRACK_DEBUG) console.error(`drawn ${drawn} at (${x},${y}): ${mine ? mine.d.toFixed(4) : '-'}; best of all ${best ? `${best.tile}/${best.q} ${best.d.toFixed(4)}` : '-'}`);
    if (!mine || !best || mine.tile !== drawn || best.tile === drawn) return false;
    if (this.templates.look(best.tile, best.q) === this.templates.look(mine.tile, mine.q)) return false;
    return mine.d > best.d * DETAIL_CLOSE;
  }

  /**
   * Several holes changed, and one is a tile where the others are not (a new tile beside holes that
   * took a shadow, a sliver of it or a figure's edge): a tile template fits it at least twice as well
   * as any fits the others, and the drawn tile fits it about as well as any type. That one is the new
   * tile, read first and with the drawn tile only; the others are read after it as before, with every
   * type (a second new tile, a still scene missed, may fit only once the first is down; skipping them
   * cost the camera service's missed-still-frame test three more moves by hand). When no hole stands
   * out so, or the drawn tile does not fit the one that does, all are read as before.
   */
  loneNewTile(state: GameState, changed: ChangedCell[]): { hole: ChangedCell; best: number } | null {
    if (changed.length < 2 || state.turn.drawn === null) return null;
    const fits = changed
      .filter((h) => state.board.holes.has(h.key))
      .map((h) => ({ h, best: this.read(state, h.now, keyX(h.key), keyY(h.key))[0]?.d ?? Infinity }))
      .sort((a, b) => a.best - b.best);
    const [top, next] = fits;
    if (!top || !next || !(top.best < LONE_FIT * next.best)) return null;
    const x = keyX(top.h.key), y = keyY(top.h.key);
    const drawn = this.read(state, top.h.now, x, y, true)[0];
    if (!drawn || drawn.d > top.best * DETAIL_CLOSE) return null;
    return { hole: top.h, best: top.best };
  }

  /**
   * The model's constrained reading of the cell, fused with the template reading: agreement raises the
   * confidence, disagreement lowers it (and the model's reading joins the runners-up). Below 30 px per
   * cell only about a taught type's picture, and only when sure (`SMALL_CELL_SURE`), or where it leads
   * on a print it was trained on (`SMALL_CELL_LEADS_SHARPNESS`), or on a type the table has answered
   * (`answeredReading`). `sure` is the
   * template reading's confidence in parts: among the readings (`readingConfidence`), the fit gate's
   * trust (`fitOf`), and whether that gate was the stricter one (`stricterGate`).
   */
  async fuse(state: GameState, H: Homography, readings: Reading[], sure: { readings: number; fit: number; stricterGate: boolean }, crop: Frame, x: number, y: number): Promise<{ conf: number; modelBest: Reading | null; leads?: boolean; modelReading?: CropReading; offer?: Reading[] }> {
    const conf = sure.readings * sure.fit;
    if (!this.model || readings.length === 0) return { conf, modelBest: null };
    const top = readings[0]!;
    // The model was trained on 30–64 px per cell; on smaller cells it reads worse than the templates,
    // except with the table's own copies of the type as its exemplars. Where the drawings are not the
    // table's art it still orders what the table is offered, and on a print it learnt it leads.
    const small = !modelReadsCell(H, x, y);
    const untrusted = this.trustIn(top.tile) < 1;
    const taughtPicture = this.templates.fromPicture(top.tile) && !!this.enrollment?.hasTile(top.tile);
    const knownPrint = !!this.model.info.printEditions?.includes(state.setup.tileSet.edition);
    // Below 30 px the rules for a taught picture (`SMALL_CELL_SURE`); the model's lead on a known print is sharper.
    const smallPicture = small && taughtPicture;
    if (small && !taughtPicture && !untrusted) return { conf, modelBest: null };
    // Below 30 px on a print it learnt, where the model leads, the far camera's model reads the cell:
    // trained on crops compressed at a webcam's scale, it reads such cells far better (docs/tracking.md).
    const leadsSmall = small && knownPrint && untrusted && !taughtPicture;
    const model = leadsSmall && this.farModel?.info.printEditions?.includes(state.setup.tileSet.edition) ? this.farModel : this.model;
    const prepared = await model.prepare({ pixels: crop.data, width: crop.width, height: crop.height, channels: 3 }, `cell (${x}, ${y})`);
    if (!prepared.ok) throw new Error(prepared.reason);
    const [first] = await model.readPrepared([prepared.value]);
    const context = { state: state, at: [x, y] as const };
    // On a print it learnt, below 30 px and where it leads, the model reads without the table's answers:
    // pictures of 21–28 px cells are poorer evidence than what it learnt. On the first-edition games
    // 9201–9203, 7401, 7402 at 640×480 (training material), answers learnt as the app learns them, tiles
    // 337 right and 1 wrong (BASE_X as BASE_W at 1.000: the answered type lifted over a look-alike one
    // road apart) → 351 right and none wrong, as without answers.
    const withExemplars = this.enrollment && !leadsSmall;
    const looked = await decodeWithSecondLook(model, prepared.value, first!, (r) =>
      decodeReading(r, model.info, state.catalog, context, withExemplars ? { enrollment: this.enrollment } : {}),
    );
    let decoded = looked.decoded;
    if (!decoded.best) return { conf, modelBest: null };
    const offer = untrusted ? this.offerOf(decoded, readings, state.catalog) : undefined;
    // On a print it has not learnt, below 30 px, only the table's answers let its type head lead (`answeredReading`), and the edges (`edgesAlone`).
    const answered = small && !taughtPicture && !knownPrint ? (untrusted ? this.answeredReading(state.catalog, decoded, looked.reading, readings, context) : null) : undefined;
    if (answered === null) {
      const modelReading = untrusted ? await this.figureHeads(looked.reading, model, crop, small) : undefined;
      // Its type head has no word on a print it has not learnt; its segment head reads the edges of
      // any print. Where only one legal move shows the edges it reads, and its type head (constrained)
      // reads that move too, the edges commit it (`EDGES_ALONE_SHARPNESS`).
      const byEdges = untrusted ? this.byEdges(looked.reading, model, state.catalog, readings, decoded.best, x, y) : null;
      if (byEdges) return { conf: byEdges.conf, modelBest: byEdges.reading, leads: true, ...(offer ? { offer } : {}), ...(modelReading ? { modelReading } : {}) };
      return { conf, modelBest: null, ...(offer ? { offer } : {}), ...(modelReading ? { modelReading } : {}) };
    }
    // The table's exemplars of one type lift it over a look-alike the table has not shown the camera
    // (as a picture fits another printed tile better than that tile's drawing, `fitOf`): against a
    // reading of a type without exemplars the model speaks for itself, without them — and so, where it
    // leads (the drawings not trusted), where a twin of its reading without exemplars may lie there
    // (`unshownTwin`). Where the drawings are trusted their detail comparison tells the twins, and the
    // exemplars agreeing with it are the table's word (on the drawn demo at 1080p, a BASE_P answered
    // earlier: without its exemplars the model read the next BASE_P as BASE_O and sent it to the table).
    if (this.enrollment?.hasTile(decoded.best.tileId) && (!this.enrollment.hasTile(top.tile) || (untrusted && this.unshownTwin(state.catalog, decoded.best, readings)))) {
      decoded = decodeReading(looked.reading, model.info, state.catalog, context);
      if (!decoded.best) return { conf, modelBest: null };
    }
    const q = ROTATIONS.indexOf(decoded.best.rot);
    const look = this.templates.has(decoded.best.tileId) ? this.templates.look(decoded.best.tileId, q) : '';
    const tile = state.catalog.get(top.tile)!;
    const agree = look === this.templates.look(top.tile, top.q) || (decoded.best.tileId === top.tile && sameUpToSymmetry(tile, q, top.q));
    const cm = answered ?? decoded.confidence;
    if (model === this.farModel) this.onFarRead?.({ x, y, tile: decoded.best.tileId, rot: decoded.best.rot, confidence: cm });
    if (process.env.TRACK_DEBUG && smallPicture) console.error(`model on a small cell (${x},${y}): ${decoded.best.tileId}/${decoded.best.rot} ${cm.toFixed(3)} on ${top.tile}/${top.q} ${conf.toFixed(3)}, agree ${agree}`);
    // Below 30 px with a picture the far camera's figure heads read the cell too: a figure the picture's
    // figure hypotheses (drawings of figures) miss is asked about (tracker.ts `figureByModelAlone`).
    const pictureHeads = async () => (smallPicture ? { modelReading: await this.figureHeads(looked.reading, model, crop, small) } : {});
    if (smallPicture && cm < SMALL_CELL_SURE) return { conf, modelBest: null, ...(await pictureHeads()) };
    // Which twin (the same terrain on all twelve edge segments: a pennant, a garden) it does not tell at this size.
    const twinLegal = readings.some((r) => r.tile !== top.tile && segmentsDiffering(state.catalog, top, r) === 0);
    if (smallPicture && agree) return { conf: sure.stricterGate || twinLegal ? conf : sure.readings * (1 - (1 - sure.fit) * (1 - cm)), modelBest: null, ...(await pictureHeads()) };
    // Where the drawings do not describe the table (`artFit`), their agreement is no evidence from 30 px:
    // the model's word counts alone, as sharp as where it leads; below, it eases the power
    // (`AGREEMENT_EASES`). Its figure heads read the same crop (tracker.ts `readFigure`).
    const trust = this.trustIn(top.tile);
    const power = !small ? MODEL_LEADS_SHARPNESS : model === this.farModel ? FAR_MODEL_LEADS_SHARPNESS : SMALL_CELL_LEADS_SHARPNESS;
    const alone = cm ** power;
    // Its figure heads speak where the drawings are not trusted (tracker.ts `readFigure`): only there is the kind asked.
    const modelReading = trust < 1 ? await this.figureHeads(looked.reading, model, crop, small) : looked.reading;
    const agreeing = small ? cm ** (power / AGREEMENT_EASES) : alone;
    // Where the model leads, the edges may commit its reading where its type head alone would not.
    const edges = trust < 1 ? (this.byEdges(looked.reading, model, state.catalog, readings, decoded.best, x, y)?.conf ?? 0) : 0;
    if (agree) return { conf: 1 - (1 - conf) * (1 - (trust * cm + (1 - trust) * Math.max(agreeing, edges))), modelBest: null, modelReading, ...(offer ? { offer } : {}) };
    const modelTile = state.catalog.get(decoded.best.tileId);
    const other = readings.find((r) => r.tile === decoded.best!.tileId && !!modelTile && sameUpToSymmetry(modelTile, r.q, q)) ?? readings.find((r) => this.templates.look(r.tile, r.q) === look) ?? null;
    if (smallPicture) return { ...(segmentsDiffering(state.catalog, top, { tile: decoded.best.tileId, q }) >= SMALL_CELL_VETO_SEGMENTS ? { conf: conf * (1 - cm), modelBest: other } : { conf, modelBest: null }), ...(await pictureHeads()) };
    // Where the drawings fail the model leads as far as they fail, with a reading of its own: one the
    // rules chose for it among tiles it did not see there (`ownReading`) is put first but left to the table.
    if (trust < 1 && other) {
      const own = this.ownReading(looked.reading, state.catalog, { tile: decoded.best.tileId, q });
      if (process.env.TRACK_DEBUG) console.error(`model leads (${x},${y}): ${decoded.best.tileId}/${decoded.best.rot} ${cm.toFixed(3)} over ${top.tile}/${top.q} trust ${trust.toFixed(2)}${own ? '' : ', not its own reading'}`);
      return { conf: trust * conf + (1 - trust) * Math.max(own ? alone : 0, edges), modelBest: other, leads: true, modelReading, ...(offer ? { offer } : {}) };
    }
    // At 25–40 px per tile the model is the weaker reader of the two: only a sure disagreement counts.
    return { conf: cm >= 0.95 ? conf * (1 - cm) : conf, modelBest: other, modelReading, ...(offer ? { offer } : {}) };
  }

  /**
   * The figure heads that speak for a cell whose drawings are not trusted (tracker.ts `readFigure`). On
   * a cell under 30 px the far camera's model's, whichever model read the tile: it was trained on
   * crops of that size, and a figure looks the same on every print. From 30 px the reading model's,
   * with the far camera's kind head where the reading has none (`withFarKinds`).
   */
  private async figureHeads(reading: CropReading, model: TileRecognizer, crop: Frame, small: boolean): Promise<CropReading> {
    const far = this.farModel;
    if (!small) return this.withFarKinds(reading, crop);
    if (!far || model === far) return reading;
    const seen = await this.farReading(far, crop);
    if (!seen) return reading;
    const { meepleKind } = seen;
    return { ...reading, meeple: seen.meeple, meepleColour: seen.meepleColour, meepleSegment: seen.meepleSegment, ...(meepleKind ? { meepleKind, meepleKinds: far.info.meepleKinds } : {}) };
  }

  /**
   * A figure's kind where the reading's model has no kind head (the default model): the far camera's
   * model reads the same crop brought down to a far webcam's scale (`FAR_KIND_CELL_PX` per cell,
   * within the 18–32 px it was trained on) and its kind head is the reading's (model-figure.ts
   * `kindShare`), on any print: a figure looks the same on every edition's tiles. Without it a
   * follower and a big follower share the feature's likelihood in halves and neither is committed
   * while both may stand there.
   */
  private async withFarKinds(reading: CropReading, crop: Frame): Promise<CropReading> {
    const far = this.farModel;
    if (reading.meepleKind || !far?.info.meepleKinds) return reading;
    const seen = await this.farReading(far, crop, FAR_KIND_CELL_PX);
    return seen?.meepleKind ? { ...reading, meepleKind: seen.meepleKind, meepleKinds: far.info.meepleKinds } : reading;
  }

  /** The far camera's model's reading of a cell's crop, first brought down to `cellPx` per cell where given (and back up to its input). */
  private async farReading(far: TileRecognizer, crop: Frame, cellPx?: number): Promise<CropReading | undefined> {
    let pixels: Uint8Array = crop.data, width = crop.width, height = crop.height;
    if (cellPx !== undefined) {
      const side = Math.round(cellPx * (1 + 2 * PICTURE_MARGIN));
      const small = await sharp(crop.data, { raw: { width, height, channels: 3 } }).resize(side, side, { kernel: 'cubic' }).raw().toBuffer();
      pixels = new Uint8Array(await sharp(small, { raw: { width: side, height: side, channels: 3 } }).resize(far.size, far.size, { kernel: 'linear' }).raw().toBuffer());
      width = height = far.size;
    }
    const prepared = await far.prepare({ pixels, width, height, channels: 3 });
    if (!prepared.ok) return undefined;
    return (await far.readPrepared([prepared.value]))[0];
  }

  /**
   * Below 30 px on print of an edition the model was not trained on, its confidence does not mean what
   * it means on the print it learnt (second edition at 640×480: 4 wrong of 404 tiles where it led, at
   * 0.94–1.00 after the 40th power). The table's answers, enrolled as exemplars (table-art.ts), are
   * pictures of that very print: where the model's best reading with them is a type the table has
   * answered, its reading without them agrees (the exemplars are not what carries it), and no legal
   * twin of it lacks exemplars (`unshownTwin`), it leads with the smaller of the two confidences, raised
   * to the 40th power as on a known print (`SMALL_CELL_LEADS_SHARPNESS`; null: it does not lead). On the
   * first-edition games 9201–9203, 7401, 7402 at 640×480 read as if the model had not learnt that print
   * (training material), the table's answers enrolled as the app enrols them: 144 of 505 tiles right and
   * none wrong. Asking no agreement (and before the lead's own-reading check) it read 175 right and 6
   * wrong (a river bend, a pennant, an inn, at 0.96–1.00 with the exemplars).
   */
  private answeredReading(catalog: TileCatalog, decoded: Decoded, reading: CropReading, readings: readonly Reading[], context: { state: GameState; at: readonly [number, number] }): number | null {
    const best = decoded.best;
    if (!best || !this.enrollment?.hasTile(best.tileId) || this.unshownTwin(catalog, best, readings)) return null;
    const alone = decodeReading(reading, this.model!.info, catalog, context);
    const tile = catalog.get(best.tileId);
    const agrees = !!alone.best && !!tile && alone.best.tileId === best.tileId && sameUpToSymmetry(tile, ROTATIONS.indexOf(best.rot), ROTATIONS.indexOf(alone.best.rot));
    return agrees ? Math.min(decoded.confidence, alone.confidence) : null;
  }

  /**
   * Whether a legal reading is a twin of the model's (the same terrain on all twelve edge segments: a
   * pennant, a garden) of a type the table has no exemplars of: the exemplars of the one it has shown
   * lift that one over the other whichever lies there. With the table's answers enrolled (as the app
   * enrols them), first-edition game 9202 at 640×480 (training material) committed a BASE_O as
   * BASE_P and a BASE_N as BASE_M at 1.000, the pennant twin answered earlier. Asked only where the
   * model leads (`fuse`).
   */
  private unshownTwin(catalog: TileCatalog, best: { tileId: string; rot: Rotation }, readings: readonly Reading[]): boolean {
    const read = { tile: best.tileId, q: ROTATIONS.indexOf(best.rot) };
    return readings.some((r) => r.tile !== read.tile && !this.enrollment?.hasTile(r.tile) && segmentsDiffering(catalog, read, r) === 0);
  }

  /**
   * The model's constrained reading `best` as its edges commit it (`edgesAlone`): where the edges its
   * segment head reads are those of that move alone among the legal moves, their probability raised
   * to `EDGES_ALONE_SHARPNESS`; null where the edges name another move or several.
   */
  private byEdges(reading: CropReading, model: TileRecognizer, catalog: TileCatalog, readings: readonly Reading[], best: { tileId: string; rot: Rotation }, x: number, y: number): { reading: Reading; conf: number } | null {
    const e = edgesAlone(reading, model.info.terrains, catalog, readings);
    const tile = catalog.get(best.tileId);
    const agrees = !!e && !!tile && e.reading.tile === best.tileId && sameUpToSymmetry(tile, ROTATIONS.indexOf(best.rot), e.reading.q);
    if (process.env.TRACK_DEBUG && e) console.error(JSON.stringify({ edges: [x, y], tile: e.reading.tile, q: e.reading.q, p: e.p, agree: agrees }));
    return e && agrees ? { reading: e.reading, conf: e.p ** EDGES_ALONE_SHARPNESS } : null;
  }

  /** The model's constrained top 3 as the legal readings they are (a symmetric tile's turns as one). */
  private offerOf(decoded: Decoded, readings: readonly Reading[], catalog: TileCatalog): Reading[] {
    const out: Reading[] = [];
    for (const c of [decoded.best, ...decoded.runnersUp]) {
      const tile = c && catalog.get(c.tileId);
      const r = tile && readings.find((o) => o.tile === c.tileId && sameUpToSymmetry(tile, o.q, ROTATIONS.indexOf(c.rot)));
      if (r && !out.includes(r)) out.push(r);
    }
    return out;
  }

  /**
   * Whether the model's own best reading of the crop, before the rules (every type of the catalog,
   * every turn), is the reading the rules left it (the same type, turned alike): where it is not, the
   * legal placements and the supply chose among tiles the model did not see there, and its confidence
   * is among those only. On first-edition print at 1280×960 (games 9201–9202, training material) 3 of
   * the model's 128 right leads were not its own; on the second edition, never trained on, both wrong
   * leads of those games were (docs/tracking-print.md, "Where the drawings fail, the model leads with its own
   * reading").
   */
  private ownReading(reading: CropReading, catalog: TileCatalog, constrained: Pick<Reading, 'tile' | 'q'>): boolean {
    const raw = decodeReading(reading, this.model!.info, catalog).best;
    const tile = catalog.get(constrained.tile);
    return !!raw && !!tile && raw.tileId === constrained.tile && sameUpToSymmetry(tile, ROTATIONS.indexOf(raw.rot), constrained.q);
  }

  /**
   * How far the best reading's template fit lets it be trusted (`templateFit`). A reading by the
   * table's picture of its type, where a legal type the table has not pictured competes and looks
   * like it (it is only drawn, and a picture of the print fits a crop of a printed look-alike better
   * than the look-alike's drawing does), must fit as a picture of the right type does: the stricter
   * gate. A look-alike shows the same terrain as the reading at its turn on all but
   * LOOKALIKE_SEGMENTS of the twelve edge segments: a pennant, a garden, a road on a side, a city cap.
   */
  fitOf(readings: readonly Reading[], catalog: TileCatalog): number {
    const top = readings[0]!;
    const mixed = this.stricterGate(readings, catalog);
    if (process.env.TRACK_DEBUG) console.error(`art fit ${(this.settleArtFit(), this.artFit).toFixed(4)} best ${top.tile} ${top.d.toFixed(4)}`);
    if (mixed) return templateFit(top.d, PICTURE_FIT_TRUSTED, FIT_TRUSTED);
    // A drawing is trusted only where the drawings describe the table (`artFit`).
    return templateFit(top.d) * this.trustIn(top.tile);
  }

  /** Whether the best reading is held to the stricter gate (`fitOf`): a picture with an unpictured look-alike competing. */
  stricterGate(readings: readonly Reading[], catalog: TileCatalog): boolean {
    const top = readings[0]!;
    return this.templates.fromPicture(top.tile) && readings.some((r) => !this.templates.fromPicture(r.tile) && segmentsDiffering(catalog, top, r) <= LOOKALIKE_SEGMENTS);
  }

  /** How far a reading of `tile` by its template is trusted: its picture fully, its drawing as far as the drawings describe the table. */
  trustIn(tile: string): number {
    return this.templates.fromPicture(tile) ? 1 : this.artTrust();
  }

  /** How far the drawings describe this table (`artFit`, the best scene so far; 1 before any evidence). */
  artTrust(): number {
    this.settleArtFit();
    return this.artFit === Infinity ? 1 : templateFit(this.artFit, ART_FIT_TRUSTED, ART_FIT_UNTRUSTED);
  }

  /**
   * After a still scene: how well the drawings describe this table — the median fit of the laid tiles
   * of drawn types to their own drawing, as the scene showed them (`tileCrops`) — kept when it is the
   * game's best so far. The table's art does not change in a game; a camera bump or a change of
   * light makes every laid tile fit worse for a few scenes (to 0.032 on a drawn tuning game).
   * Matching a full board is a third of a new tile's latency, so: once the drawings are trusted in
   * full no later scene can change that (the best scene is kept), and nothing is matched; until then
   * the pairs are taken now and matched after the scene's proposal is out, at the next frame or when
   * the trust is next asked for (`settleArtFit`).
   */
  noteArtFit(state: GameState, tileCrops: ReadonlyMap<number, CellCrop>): void {
    this.settleArtFit();
    if (this.artFit <= ART_FIT_TRUSTED) return;
    const pairs: { crop: CellCrop; tpl: CellCrop }[] = [];
    for (const t of state.board.tiles) {
      if (this.templates.fromPicture(t.view.tile.id)) continue;
      const crop = tileCrops.get(t.key);
      const tpl = crop && this.templates.get(t.view.tile.id, ROTATIONS.indexOf(t.view.rot));
      if (crop && tpl) pairs.push({ crop, tpl });
    }
    this.pendingArtFit = pairs;
  }

  /** Matches the last still scene's laid tiles to their drawings, if not yet done (`noteArtFit`). */
  settleArtFit(): void {
    const pairs = this.pendingArtFit;
    if (!pairs) return;
    this.pendingArtFit = null;
    const ds = pairs.map((p) => matchTemplate(p.crop, p.tpl).d).sort((a, b) => a - b);
    const fit = ds.length ? ds[ds.length >> 1]! : 0;
    if (fit > 0) this.artFit = Math.min(this.artFit, fit);
  }
}
