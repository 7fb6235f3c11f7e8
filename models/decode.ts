/**
 * Constraint decoding: the model's scores combined with what the rules allow at the cell (legal
 * placements by edges and the enabled modules, the remaining count of each tile type) and with the
 * table's enrolled exemplars. Returns the best reading, its confidence and the runners-up for a
 * top-3 picker. A reading stays a proposal: the engine still decides when the tile is played.
 */
import type { TileCatalog } from '../engine/catalog/registry.js';
import { placementProblem, tileProblem } from '../engine/game/placement.js';
import type { GameState } from '../engine/game/state.js';
import { ROTATIONS, type Rotation } from '../engine/geometry/segments.js';
import { appearanceContrast, appearanceSimilarityMasked, occlusionMask, type OcclusionOptions } from './appearance.js';
import { symmetryTurns } from './classes.js';
import type { Enrollment } from './enroll.js';
import type { CropReading, ModelInfo } from './runner.js';

export interface Candidate {
  readonly tileId: string;
  readonly rot: Rotation;
  readonly probability: number;
}

export interface Decoded {
  /** Probability that the cell holds a tile at all. */
  readonly present: number;
  readonly best: Candidate | null;
  /** Probability of the best reading among the candidates considered. */
  readonly confidence: number;
  /** The next readings, best first (two of them unless `DecodeOptions.runnersUp` says: with `best`, a top-3). */
  readonly runnersUp: readonly Candidate[];
  /** How many (tile, rotation) readings the rules left open. */
  readonly considered: number;
}

export interface DecodeContext {
  /** The game before this tile is placed, and the cell the crop shows. */
  readonly state: GameState;
  readonly at: readonly [number, number];
}

export interface DecodeOptions {
  readonly enrollment?: Enrollment;
  /** Weight of the 12 edge-segment terrains (log-probabilities) against the type × rotation scores. */
  readonly segmentWeight?: number;
  /** Largest bonus (in units of the cosine scale) an enrolled exemplar adds to its class. */
  readonly enrollmentWeight?: number;
  /** Exemplar similarity below which an exemplar adds nothing. */
  readonly enrollmentFloor?: number;
  /** Scale turning cosine similarities into scores (the model's cosine classifier uses 20). */
  readonly cosineScale?: number;
  /** Largest bonus (in units of the cosine scale) a close appearance match with an exemplar adds. */
  readonly appearanceWeight?: number;
  /** Appearance correlation below which an exemplar's pixels add nothing. */
  readonly appearanceFloor?: number;
  /**
   * Largest bonus (in units of the cosine scale) the pairwise contrast of two enrolled readings
   * moves between them (appearance.ts `appearanceContrast`); 0 turns it off.
   */
  readonly contrastWeight?: number;
  /** How many of the best readings are compared pairwise. */
  readonly contrastTop?: number;
  /** How many readings follow the best in `runnersUp` (2: a top-3). */
  readonly runnersUp?: number;
  /**
   * Whole-tile appearance match at which the contrast counts in full; it fades to nothing at the
   * appearance floor. Comparing where two exemplars differ only means something when the crop is of
   * the same print as the exemplars. Default 0.85, chosen on the development sets (docs/recognition.md
   * "How the defaults were chosen"): exemplars of another drawing of the crop's style match it almost
   * as well as its own, where their marks mislead.
   */
  readonly contrastFull?: number;
  /**
   * Weight of the model's own type × rotation score for a type the table has enrolled (1 = as for
   * any other type; for a type the model never learned, the score its exemplar's embedding stands
   * in for). The model knows the tiles as the renderer draws them; on a print it reads poorly, its
   * scores for two look-alikes lean one way with confidence, and the table's own exemplars are the
   * better witness there. Chosen on the development sets (scripts/decode-dev.ts; docs/recognition.md).
   */
  readonly enrolledModelWeight?: number;
  /**
   * The crop's cells none of the best readings' exemplars explains (a hand's or a figure's outline,
   * a neighbour's edge where the exemplar's crop had none) are left out of the appearance match of
   * the best few readings (appearance.ts `occlusionMask`). `false` turns it off.
   */
  readonly occlusion?: false | (OcclusionOptions & {
    /** How many of the best readings' exemplars find the unexplained cells. */
    readonly from?: number;
    /** How many of the best readings are matched again without those cells. */
    readonly rematch?: number;
  });
}

function logSumExp(xs: readonly number[]): number {
  const m = Math.max(...xs);
  if (m === -Infinity) return m;
  return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
}

export function decodeReading(
  reading: CropReading,
  info: ModelInfo,
  catalog: TileCatalog,
  context: DecodeContext | null = null,
  options: DecodeOptions = {},
): Decoded {
  const segW = options.segmentWeight ?? 0.5;
  const enrW = options.enrollmentWeight ?? 1;
  const floor = options.enrollmentFloor ?? 0.5;
  const scale = options.cosineScale ?? 20;
  const appW = options.appearanceWeight ?? 1;
  const appFloor = options.appearanceFloor ?? 0.4;
  const modelW = options.enrolledModelWeight ?? 0.5;
  const terrainIndex = new Map(info.terrains.map((t, i) => [t, i]));
  const groups: { tileId: string; rots: Rotation[]; scores: number[] }[] = [];
  const enrollment = options.enrollment;
  // The crop's closest exemplar per (tile, rotation): scored with, and compared again for look-alikes.
  const closest = new Map<string, ReturnType<Enrollment['closest']>>();
  const closestExemplar = (tileId: string, rot: Rotation) => {
    const key = `${tileId}@${rot}`;
    if (!closest.has(key)) closest.set(key, enrollment && reading.appearance ? enrollment.closest(reading.appearance, tileId, rot) : null);
    return closest.get(key)!;
  };
  // Filled when cells nothing explains are found: the best readings' matches without those cells.
  const unoccluded = new Map<string, number>();
  const appearanceMatch = (tileId: string, rot: Rotation) =>
    unoccluded.get(`${tileId}@${rot}`) ?? closestExemplar(tileId, rot)?.similarity ?? null;
  /** What an appearance match adds: up to a cosine scale, nothing below the floor. */
  const appearanceBonus = (app: number) => appW * scale * Math.max(0, (app - appFloor) / (1 - appFloor));
  /** Scores every rotation the rules leave open for one tile type; `base` is its own evidence. */
  const scoreTile = (tileId: string, base: (q: number, rot: Rotation) => number | null, trained: boolean) => {
    const tile = catalog.get(tileId);
    if (!tile) return;
    let prior = 0;
    if (context) {
      if (tileProblem(context.state, tile)) return;
      prior = Math.log(context.state.supply.get(tileId) ?? 1);
    }
    // The model's metadata lists the symmetric tiles it knows; others are worked out from the catalog.
    const symmetry = info.symmetry[tileId] ?? (trained ? [0] : symmetryTurns(tile));
    const enrolled = enrollment?.hasTile(tileId) ?? false;
    const byOrbit = new Map<number, { rots: Rotation[]; scores: number[] }>();
    for (let q = 0; q < 4; q++) {
      const rot = ROTATIONS[q]!;
      if (context) {
        const view = catalog.view(tileId, q);
        if (placementProblem(context.state, view, context.at[0], context.at[1])) continue;
      }
      let score = base(q, rot);
      if (score === null) continue;
      if (enrolled) {
        score *= modelW;
        // The table's own exemplars are strong evidence: a close match adds up to a full cosine scale.
        const sim = enrollment!.similarity(reading.embedding, tileId, rot) ?? 0;
        score += enrW * scale * Math.max(0, (sim - floor) / (1 - floor));
        // …and so are their pixels: every copy of a type shares its printed art.
        const app = closestExemplar(tileId, rot)?.similarity;
        if (app !== undefined) score += appearanceBonus(app);
      }
      let seg = 0;
      for (let i = 0; i < 12; i++) {
        const terrain = tile.segments[(i - 3 * q + 12) % 12]!;
        seg += Math.log(Math.max(1e-6, reading.segments[i * 4 + terrainIndex.get(terrain)!]!));
      }
      score += segW * seg + prior;
      const orbit = Math.min(...symmetry.map((s) => (q + s) % 4));
      const g = byOrbit.get(orbit) ?? { rots: [], scores: [] };
      g.rots.push(rot);
      g.scores.push(score);
      byOrbit.set(orbit, g);
    }
    for (const g of byOrbit.values()) groups.push({ tileId, ...g });
  };
  info.tiles.forEach((tileId, ti) => scoreTile(tileId, (q) => reading.typeRot[ti * 4 + q]!, true));
  // Tiles the model was never trained on (the 2025 tiles the table described in the tile editor)
  // are read through their exemplars alone: an exemplar's embedding stands in for the class
  // prototype the cosine classifier would have had.
  const known = new Set(info.tiles);
  for (const tileId of enrollment?.tileIds() ?? []) {
    if (known.has(tileId)) continue;
    scoreTile(tileId, (_q, rot) => {
      const sim = enrollment!.similarity(reading.embedding, tileId, rot);
      return sim === null ? null : scale * sim;
    }, false);
  }
  if (groups.length === 0) return { present: reading.present, best: null, confidence: 0, runnersUp: [], considered: 0 };
  const mergeGroup = (g: (typeof groups)[number]) => {
    let bi = 0;
    g.scores.forEach((s, i) => (s > g.scores[bi]! ? (bi = i) : 0));
    return { tileId: g.tileId, rot: g.rots[bi]!, score: logSumExp(g.scores) };
  };
  const merged = groups.map(mergeGroup);
  // A hand or figure over the tile pulls the true reading's appearance match down with the rest,
  // and blurs the gap between it and the others: the cells none of the best readings explains are
  // left out and the best few matched again (their scores move by the change in the match's bonus).
  const occlusion = options.occlusion === false ? null : (options.occlusion ?? {});
  if (enrollment && reading.appearance && occlusion) {
    const ranked = merged.map((m, i) => ({ m, i })).sort((a, b) => b.m.score - a.m.score);
    const from = ranked.slice(0, occlusion.from ?? 3).map(({ m }) => closestExemplar(m.tileId, m.rot)?.exemplar.appearance).filter((a) => a !== undefined);
    const mask = occlusionMask(reading.appearance, from, occlusion);
    if (mask) {
      for (const { i } of ranked.slice(0, occlusion.rematch ?? 4)) {
        const g = groups[i]!;
        g.rots.forEach((rot, k) => {
          const c = closestExemplar(g.tileId, rot);
          const sim = c && appearanceSimilarityMasked(reading.appearance, c.exemplar.appearance, mask);
          if (!c || sim === null) return;
          unoccluded.set(`${g.tileId}@${rot}`, sim);
          g.scores[k]! += appearanceBonus(sim) - appearanceBonus(c.similarity);
        });
        merged[i] = mergeGroup(g);
      }
    }
  }
  // Look-alikes: the best few enrolled readings compared two by two where their exemplars differ.
  const conW = options.contrastWeight ?? 1;
  if (enrollment && reading.appearance && conW > 0) {
    const top = [...merged].sort((a, b) => b.score - a.score).slice(0, options.contrastTop ?? 3);
    const exemplars = top.map((m) => closestExemplar(m.tileId, m.rot));
    const bonus = top.map(() => 0);
    const full = options.contrastFull ?? 0.85;
    for (let i = 0; i < top.length; i++)
      for (let j = i + 1; j < top.length; j++) {
        const a = exemplars[i], b = exemplars[j];
        if (!a || !b) continue;
        const t = appearanceContrast(reading.appearance, a.exemplar.appearance, b.exemplar.appearance);
        if (t === null) continue;
        // Gated by the whole-tile match (without the unexplained cells, when there were any).
        const whole = Math.max(appearanceMatch(top[i]!.tileId, top[i]!.rot)!, appearanceMatch(top[j]!.tileId, top[j]!.rot)!);
        const g = Math.min(1, Math.max(0, (whole - appFloor) / (full - appFloor)));
        bonus[i]! += (conW * g * scale * t) / 2;
        bonus[j]! -= (conW * g * scale * t) / 2;
      }
    top.forEach((m, i) => (m.score += bonus[i]!));
  }
  const z = logSumExp(merged.map((m) => m.score));
  const ranked = merged.map((m) => ({ tileId: m.tileId, rot: m.rot, probability: Math.exp(m.score - z) })).sort((a, b) => b.probability - a.probability);
  return { present: reading.present, best: ranked[0]!, confidence: ranked[0]!.probability, runnersUp: ranked.slice(1, 1 + (options.runnersUp ?? 2)), considered: ranked.length };
}

/** The model's own best class, no rules, no enrollment (what "raw" accuracy measures). */
export function rawBest(reading: CropReading, info: ModelInfo): { tileId: string; rot: Rotation } {
  let best = 0;
  for (let c = 1; c < reading.typeRot.length; c++) if (reading.typeRot[c]! > reading.typeRot[best]!) best = c;
  return { tileId: info.tiles[Math.floor(best / 4)]!, rot: ROTATIONS[best % 4]! };
}
