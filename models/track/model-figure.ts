/**
 * The figure on a tile just laid as the tile model's figure heads saw the cell (models/runner.ts:
 * `meeple`, `meepleColour`, `meepleSegment`), for where the tile's template is a drawing the table's
 * art does not match: the template tells a figure by where the cell differs from it, and a drawing of
 * another art differs everywhere (tracker.ts `readFigure`). The model was trained on the first-edition
 * print beside the drawings, with figures on every kind of feature, so it is the witness that carries
 * over to print — from 30 px per cell, where the tracker asks it at all.
 */
import type { Command } from '../../engine/game/commands.js';
import type { GameState } from '../../engine/game/state.js';
import { legalMeepleSpots } from '../../engine/game/legal.js';
import type { CropReading } from '../runner.js';
import type { FigureSeen } from './figures.js';
import type { OrientedTile } from '../../engine/geometry/oriented.js';
import { quarterTurns } from '../../engine/geometry/segments.js';
import { featurePoint, segmentSpot, STANDING_CATCH } from '../scene/spots.js';
import { sameUpToSymmetry } from '../classes.js';

/** The model's figure segment index for a feature without edge segments (a cloister, a garden). */
const INTERIOR = 12;
/**
 * The model's word on a figure is raised to this power: 0.979 commits (0.979^5 ≈ 0.9). On the
 * first-edition games 9201–9203, 7401, 7402 at 640×480 and 1280×960 and 9204, 9205, 7403, 7404 at
 * 640×480 (training material) the model's best figure was right on every one of the 249 tiles where
 * it said 0.5 or more (the lowest 0.61), and on a bare tile it said at most 0.13; at the 20th power
 * (0.995 commits) it left 10 of them read at 0.979–0.995 to the table.
 */
const MODEL_FIGURE_SHARPNESS = 5;
/**
 * Where the template reader tells the same figure as the model's best (two witnesses: where the cell
 * differs from the drawing, and the figure heads), the model's word counts as it is: 0.9 commits.
 * On the same games 7 figures both agreed on at 0.90–0.95 were left to the table at the second power.
 */
const AGREEING_FIGURE_SHARPNESS = 1;
/**
 * Below this likelihood that a figure stands on the tile at all — the template's word as far as the
 * drawing is trusted, the model's legal figure moves together as far as it is not — none is read,
 * and the table is not asked. On print the template finds a figure on a bare tile (a drawing of
 * another art differs everywhere): on the first-edition games 9201–9202 at 640×480 (training
 * material) it did on 6 tiles, each of which the model gave under 0.001, while it gave each of the
 * 35 figures placed 0.30 or more.
 */
const FIGURE_UNSEEN_BY_BOTH = 0.05;
/**
 * Where the template sees no figure and the model's legal figure moves together are short of the 0.5
 * that lets its own figure stand in, but at least this likely (as far as the drawing is not trusted),
 * the table is asked about the model's best figure (never committed: 0.5^5 ≈ 0.03) rather than left
 * to enter it unasked. On the first-edition games above the model gave every bare tile at most 0.13
 * and every figure placed (9201–9202 at 640×480) 0.30 or more.
 */
const MODEL_ASKS_FIGURE = 0.2;

/**
 * What the model's figure heads said of a tile just laid where they speak (the drawings not trusted),
 * and what the tracker made of it with the template's word: a trace for calibrating their sureness
 * (scripts/far-calibration.ts; TrackerOptions `onFigureRead`).
 */
export interface FigureRead {
  /** The laid tile's cell. */
  readonly x: number;
  readonly y: number;
  readonly frame: number;
  /** The model's legal figure moves, best first (`modelFigureMoves`). */
  readonly model: readonly { command: Command; p: number }[];
  /** The template reader's figure, if it saw one. */
  readonly template: Command | null;
  /** What the two together read (`fuseFigure`), before the commit bar. */
  readonly fused: { command: Command; confidence: number } | null;
}

/**
 * How sure the model is of each legal figure move of the player whose turn it is, best first.
 * `kindNames`: what the reading's `meepleKind` tells apart (the reading's own `meepleKinds`; none where
 * its model has no kind head).
 */
export function modelFigureMoves(reading: CropReading, colours: readonly string[], state: GameState, colour: string | undefined, kindNames: readonly string[] = reading.meepleKinds ?? []): { command: Command; p: number }[] {
  const placed = state.board.tiles[state.turn.tile];
  if (!placed || state.turn.step !== 'action') return [];
  const ci = colour === undefined ? -1 : colours.indexOf(colour);
  // A colour the model was not trained on is no evidence either way.
  const pColour = ci >= 0 ? reading.meepleColour[ci]! : 0;
  const player = state.turn.player;
  const features = placed.view.features;
  const spots = legalMeepleSpots(state);
  const interior = features.filter((g) => g.segments.length === 0).length;
  const places = segmentPlaces(placed.view, state.catalog);
  const out: { command: Command; p: number }[] = [];
  for (const s of spots) {
    if (s.kind !== 'normal' && s.kind !== 'big') continue;
    const f = features.find((g) => g.name === s.on);
    if (!f) continue;
    // A figure's segment is any of its feature's places (crop frame = board frame: the crop is cut square to the grid).
    const pf = places.reduce((a, name, seg) => a + (name === f.name ? reading.meepleSegment[seg]! : 0), 0) + (f.segments.length === 0 ? reading.meepleSegment[INTERIOR]! / Math.max(1, interior) : 0);
    out.push({ command: { type: 'placeMeeple', player, kind: s.kind, on: s.on }, p: reading.meeple * pColour * pf * kindShare(reading, kindNames, spots, s) });
  }
  return out.sort((a, b) => b.p - a.p);
}

/**
 * Whose place each board segment's figure spot is: the feature's with edge segments that stands
 * there (its standing point within `STANDING_CATCH`, at the placed turn or an equivalent one:
 * models/scene/spots.ts), else the segment's own feature's. At a corner two features' spots lie
 * 2–3 mm apart, under two pixels at 20–30 px per cell, and the figure heads split a figure there
 * between the two segments (on the first-edition games 9201–9202 at 640×480, training material, 6 of
 * the 14 figures left to the table: 0.32–0.82 on the feature it stood on). Which feature a figure
 * there stands on is the standing point's, the convention the template reader and the scenes share.
 */
function segmentPlaces(view: OrientedTile, catalog: GameState['catalog']): (string | undefined)[] {
  const q0 = quarterTurns(view.rot);
  const standing: { name: string; at: readonly [number, number] }[] = [];
  for (let q = 0; q < 4; q++) {
    if (q !== q0 && !sameUpToSymmetry(view.tile, q0, q)) continue;
    const turned = q === q0 ? view : catalog.view(view.tile.id, q);
    // A feature without edge segments (a cloister) has a label of its own, the interior.
    for (const f of turned.features) if (f.segments.length > 0) standing.push({ name: f.name, at: featurePoint(turned, f.index) });
  }
  return Array.from({ length: 12 }, (_, s) => {
    const own = view.features[view.segmentFeature[s]!]?.name;
    const [x, y] = segmentSpot(view, s);
    const near = standing.map((p) => ({ name: p.name, d: Math.hypot(p.at[0] - x, p.at[1] - y) })).filter((p) => p.d < STANDING_CATCH).sort((a, b) => a.d - b.d);
    return near.some((p) => p.name === own) ? own : near[0]?.name ?? own;
  });
}

/**
 * The share of the figure seen at a spot's feature that is of the spot's kind. A reading with a
 * `meepleKind` head (the far camera's model's, or lent by it to the default model's reading:
 * cell-reader.ts `withFarKinds`) tells it among the kinds that may stand there (an abbot counts only
 * where one may); without one a follower and a big one look alike, and where both may stand it
 * cannot tell which.
 */
function kindShare(reading: CropReading, kindNames: readonly string[], spots: readonly { on: string; kind: string }[], s: { on: string; kind: string }): number {
  const here = spots.filter((o) => o.on === s.on && (o.kind === 'normal' || o.kind === 'big' || o.kind === 'abbot'));
  const told = reading.meepleKind;
  if (!told || kindNames.length === 0) return 1 / here.filter((o) => o.kind !== 'abbot').length;
  const p = (kind: string) => {
    const k = kindNames.indexOf(kind);
    return k >= 0 ? told[k]! : 0;
  };
  const all = here.reduce((a, o) => a + p(o.kind), 0);
  return all > 0 ? p(s.kind) / all : 0;
}

/**
 * Where the table's picture of the tile is the template (trusted, so the figure heads are not weighed),
 * a figure the picture's figure hypotheses do not find — they are drawings of figures, and a real
 * one may fit none — is asked about where the model's legal figure moves together reach this: it
 * sees a figure there. Never committed (tracker.ts `figureByModelAlone`). On bare tiles the model's
 * moves together stay under 0.002 (first-edition games 9201–9205, 7401, 7402 at 640×480 and 9201–9202
 * at 1280×960, drawn and wooden figures alike: scripts/far-calibration.ts).
 */
export const MODEL_SEES_UNPICTURED_FIGURE = 0.5;
/** Why such a figure is asked (camera-view.ts `questionWords`). */
export const FIGURE_BY_MODEL_ALONE = 'a figure the tile\'s picture does not show, seen by the model alone: the table says which';

/** Why a big follower read (`followerInstead`) is asked (camera-view.ts `questionWords` says it in the table's words). */
export const BIG_BY_SIZE = 'a big follower, told from a follower by its size alone: the table says which';

/**
 * The follower that may stand where a big follower was read (null where none may): a big follower is
 * told from a follower by its size alone, and every figure reader here learnt figures' sizes from the
 * drawings (pieces.ts `pieceSvg`: a follower about 10 mm across, a big one 16), smaller than real
 * ones (about 16 and 21 mm). With wooden figures (`woodenFigureSvg`) on the first-edition games
 * 9201–9205, 7401, 7402 at 640×480, the tracker committed 3 of 128 followers as big ones (at 0.96–0.99;
 * `far-calibration --figures wooden`), 5 of 110 with the table's pictures as templates, and no big one
 * as a follower; at 1280×960 the model read one at 0.9986. No power separates them. Such a reading is
 * the table's to confirm, with the follower offered beside it (tracker.ts `readFigure`).
 */
export function followerInstead(state: GameState, command: Command): Command | null {
  if (command.type !== 'placeMeeple' || command.kind !== 'big') return null;
  const normal = legalMeepleSpots(state).find((s) => s.on === command.on && s.kind === 'normal');
  return normal ? { ...command, kind: 'normal' } : null;
}

const sameFigure = (a: Command, b: Command) => a.type === 'placeMeeple' && b.type === 'placeMeeple' && a.on === b.on && a.kind === b.kind;

/**
 * The template reader's figure (`seen`, trusted as far as `trust`: the drawing's trust, cell-reader.ts
 * `trustIn`) and the model's: each counts as far as its reader is trusted, the model's word sharpened
 * (less where the two agree, `AGREEING_FIGURE_SHARPNESS`).
 * The model's own figure stands in for the template's only where it sees one at all (its legal
 * figure moves more likely together than none: a follower and a big one share the feature's
 * likelihood), and is asked about where it half sees one the template does not (`MODEL_ASKS_FIGURE`);
 * null when neither reads a figure, or where the template's is as good as unseen by the two together
 * (`FIGURE_UNSEEN_BY_BOTH`).
 */
export function fuseFigure(seen: FigureSeen | null, trust: number, model: readonly { command: Command; p: number }[]): FigureSeen | null {
  const sharp = (p: number) => (1 - trust) * p ** MODEL_FIGURE_SHARPNESS;
  const best = model[0];
  const pModel = model.reduce((a, m) => a + m.p, 0);
  if (trust * (seen ? 1 : 0) + (1 - trust) * pModel < FIGURE_UNSEEN_BY_BOTH) return null;
  const seesOne = pModel >= 0.5;
  const pSeen = seen ? model.find((m) => sameFigure(m.command, seen.command))?.p ?? 0 : 0;
  const agreeing = !!seen && !!best && seesOne && sameFigure(best.command, seen.command);
  const bySeen = seen && { ...seen, confidence: trust * seen.confidence + (agreeing ? (1 - trust) * pSeen ** AGREEING_FIGURE_SHARPNESS : sharp(pSeen)) };
  if (best && !seesOne && !bySeen && (1 - trust) * pModel >= MODEL_ASKS_FIGURE) return { command: best.command, confidence: sharp(best.p), alternatives: model.slice(1, 3).map((m) => m.command) };
  if (!best || !seesOne || (bySeen && (sameFigure(best.command, bySeen.command) || bySeen.confidence >= sharp(best.p)))) return bySeen;
  const alternatives = [...(seen ? [seen.command] : []), ...model.slice(1).map((m) => m.command)].filter((c) => !sameFigure(c, best.command)).slice(0, 2);
  return { command: best.command, confidence: sharp(best.p), alternatives };
}
