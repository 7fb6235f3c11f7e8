/**
 * The figure on a tile just laid: the player's enrolled figure drawn into the tile's template at each
 * spot the rules allow, compared with the cell only where the figures stand, at the tile's own shift
 * and light, each figure's strength fitted (blur and the camera's chroma wash a small figure out to
 * about half its drawn contrast). Whether a figure stands there at all is told by the strength its
 * best spot needs; which spot, by the spots' fit.
 */
import type { Command } from '../../engine/game/commands.js';
import type { GameSetup } from '../../engine/game/setup.js';
import type { GameState } from '../../engine/game/state.js';
import { legalMeepleSpots } from '../../engine/game/legal.js';
import { sameUpToSymmetry } from '../classes.js';
import { DRAWN_FIGURE_BOX_MM, PIECE_COLORS, pieceSvg, type FigureSize, type PieceColor } from '../render/pieces.js';
import { rasterise } from '../render/rasterise.js';
import { PITCH_MM, TILE_MM } from '../scene/render.js';
import { featurePoint } from '../scene/spots.js';
import type { Rgba } from '../synth/image.js';
import { figureMatch } from './figure-align.js';
import { figurePresence } from './figure-presence.js';
import { confidence, type Reading } from './reading.js';
import { differenceMask, distanceAt, maskedDistance, maskedFigureDistance, type CellCrop, type TileTemplates } from './templates.js';

/** The figures the tracker reads. */
export type FigureKind = 'normal' | 'big';
const FIGURE_KINDS: readonly FigureKind[] = ['normal', 'big'];
/** A player's figures as enrolled (null: a colour the tracker has no drawing of). */
export type FigureSprites = Record<FigureKind, Rgba | null>;
/** A figure hypothesis is drawn at least this strong (1 = as enrolled; see maskedFigureDistance). */
const FIGURE_MIN_STRENGTH = 0.3;
/** Best spot's fitted strength below which no figure is seen, and from which one surely is. */
const FIGURE_UNSEEN = 0.38;
const FIGURE_SEEN = 0.45;

/** The players' figures, enrolled by colour. */
export function figureSprites(players: GameSetup['players']): Promise<FigureSprites[]> {
  return Promise.all(
    players.map(async (p): Promise<FigureSprites> => {
      if (!PIECE_COLORS.includes(p.color as PieceColor)) return { normal: null, big: null };
      const [normal, big] = await Promise.all([rasterise(pieceSvg('meeple', p.color as PieceColor), 48), rasterise(pieceSvg('big', p.color as PieceColor), 48)]);
      return { normal, big };
    }),
  );
}

/** A figure move read on the tile just placed, and how sure it is. */
export interface FigureSeen {
  readonly command: Command;
  readonly confidence: number;
  readonly alternatives: Command[];
}

export class FigureReader {
  constructor(
    private readonly templates: TileTemplates,
    private readonly sprites: readonly FigureSprites[],
    /** How large the table's figures are; the enrolled drawings are laid in that size's boxes. */
    private readonly size: FigureSize = 'drawing',
  ) {}

  /**
   * The figure hypotheses for a reading of the player whose turn it is (before it is played: every
   * feature of the tile; the engine narrows them to legal spots once the tile is down), each drawn
   * into the template and compared at the tile's own shift and light. Best first.
   */
  hypotheses(now: CellCrop, r: Reading, state: GameState, legal?: Set<string>): { on: string; d: number }[] {
    return this.drawn(r, state, legal).map((h) => ({ on: h.on, d: distanceAt(now, h.tpl, r.match) })).sort((a, b) => a.d - b.d);
  }

  /**
   * The figure the player whose turn it is put on the tile just placed (`r`, read from `now`), or null
   * when none is seen. A normal follower and a big one (Inns & Cathedrals, where the player has one
   * to place) are told apart by the size that fits. `colour`: the player's (some colours show less).
   */
  read(now: CellCrop, r: Reading, state: GameState, colour: string | undefined, frame: number): FigureSeen | null {
    const placed = state.board.tiles[state.turn.tile];
    const player = state.turn.player;
    const spots = legalMeepleSpots(state);
    const drawn = FIGURE_KINDS.flatMap((kind) => {
      const legal = new Set(spots.filter((s) => s.kind === kind).map((s) => s.on));
      return legal.size === 0 ? [] : this.drawn(r, state, legal, kind).map((h) => ({ ...h, kind }));
    });
    // Each hypothesis differs from "no figure" only where its figure stands: they are compared there.
    const base = this.templates.get(r.tile, r.q)!;
    const mask = differenceMask(base, drawn.map((h) => h.tpl));
    // A tile matched at the edge of its drift search is looked for further off (figure-align.ts).
    const m = figureMatch(now, base, r.match);
    const hyps: { cmd: Command | null; d: number; a?: number }[] = [
      { cmd: null, d: maskedDistance(now, base, m, mask) },
      ...drawn.map((h) => ({ cmd: { type: 'placeMeeple', player, kind: h.kind, on: h.on } as Command, ...maskedFigureDistance(now, base, h.tpl, m, mask, FIGURE_MIN_STRENGTH) })),
    ];
    if (process.env.TRACK_FIGURE_LOG) console.error(`FIG ${JSON.stringify({ frame, x: placed?.x, y: placed?.y, tile: r.tile, q: r.q, player, fit: m.d, sx: m.sx, sy: m.sy, none: hyps[0]!.d, hyps: hyps.slice(1).map((h) => ({ on: (h.cmd as { on: string }).on, d: h.d, a: h.a })) })}`);
    if (process.env.TRACK_DEBUG) console.error(`figure? frame ${frame} ${r.tile}: ${[...hyps].sort((a, b) => a.d - b.d).slice(0, 3).map((h) => `${h.cmd && h.cmd.type === 'placeMeeple' ? h.cmd.on : 'none'} ${h.d.toFixed(5)}${h.a !== undefined ? ` a ${h.a.toFixed(2)}` : ''}`).join(', ')}`);
    // Whether a figure stands there at all is told by the strength its best spot needs (a drawn
    // figure fits seen ones at 0.5–1, bare tiles at the 0.3 floor); which spot, by the spots' fit.
    // One hypothesis per feature (a symmetric tile offers a feature at two points): the better one.
    const same = (a: Command, b: Command) => a.type === 'placeMeeple' && b.type === 'placeMeeple' && a.on === b.on && a.kind === b.kind;
    const ranked = hyps.filter((h) => h.cmd).sort((a, b) => a.d - b.d).filter((h, i, all) => all.findIndex((o) => same(o.cmd!, h.cmd!)) === i);
    const best = ranked[0];
    // Below `unseen` no figure, from `seen` surely one (figure-presence.ts: by the player's colour).
    const { unseen, seen } = figurePresence(colour, { unseen: FIGURE_UNSEEN, seen: FIGURE_SEEN });
    if (!best || best.a! < unseen || best.d >= hyps[0]!.d) return null;
    // Spots that need no more than the floor strength show no figure: they do not compete.
    const rivals = ranked.filter((h, i) => i === 0 || h.a! >= unseen);
    const conf = confidence(rivals) * (best.a! >= seen ? 1 : 0.5);
    if (!best.cmd) return null;
    return { command: best.cmd, confidence: conf, alternatives: ranked.slice(1, 3).map((h) => h.cmd!) };
  }

  /** The tile's template with the player's figure of `kind` at each (legal) feature's standing point. */
  private drawn(r: Reading, state: GameState, legal?: Set<string>, kind: FigureKind = 'normal'): { on: string; tpl: CellCrop }[] {
    const sprite = this.sprites[state.turn.player]?.[kind];
    if (!sprite) return [];
    const catalog = state.catalog;
    const tile = catalog.get(r.tile)!;
    const s = TILE_MM / PITCH_MM;
    const out: { on: string; tpl: CellCrop }[] = [];
    const tried = new Set<string>();
    // On a symmetric tile each equivalent turn puts a feature's standing point elsewhere: all are
    // tried (the rules name the feature alike in each).
    for (let q = 0; q < 4; q++) {
      if (q !== r.q && !sameUpToSymmetry(tile, r.q, q)) continue;
      const view = catalog.view(r.tile, q);
      for (const f of view.features) {
        if (legal && !legal.has(f.name)) continue;
        const p = featurePoint(view, f.index);
        const key = `${f.name}@${p[0].toFixed(2)},${p[1].toFixed(2)}`;
        if (tried.has(key)) continue;
        tried.add(key);
        const tpl = this.templates.withFigure(r.tile, r.q, sprite, 0.5 + (p[0] - 0.5) * s, 0.5 + (p[1] - 0.5) * s, DRAWN_FIGURE_BOX_MM[this.size][kind === 'big' ? 'big' : 'meeple'] / PITCH_MM);
        if (tpl) out.push({ on: f.name, tpl });
      }
    }
    return out;
  }
}
