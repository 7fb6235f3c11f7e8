/** Pieces of the camera view (contract/camera.ts): the grid in image pixels, the readings and the camera's questions in words. */
import type { Command } from '../../../engine/game/commands.js';
import type { Game } from '../../../engine/game/game.js';
import { keyX, keyY } from '../../../engine/geometry/position.js';
import { quarterTurns } from '../../../engine/geometry/segments.js';
import { applyHomography, type Homography } from '../../../calibration/geometry.js';
import { PITCH_MM } from '../../../models/scene/render.js';
import type { CameraCellView, CameraReadingView, CameraView } from '../../contract/camera.js';
import type { TileView } from '../../contract/snapshot.js';
import { tileView } from '../session/view.js';
import { describeCommand } from '../session/describe.js';
import { TableWords, fromStart } from '../session/words.js';
import { SURE } from './camera-settings.js';
import type { StoredProposal } from './proposals.js';
import { BIG_BY_SIZE, FIGURE_BY_MODEL_ALONE } from '../../../models/track/model-figure.js';

/** Every laid tile and every hole of the board as its quad in the image (the tracker's table plane). */
export function gridView(game: Game, H: Homography | null): CameraCellView[] {
  if (!H) return [];
  const h = PITCH_MM / 2;
  const quad = (x: number, y: number) =>
    [[-h, -h], [h, -h], [h, h], [-h, h]].map(([dx, dy]) => {
      const p = applyHomography(H, { x: x * PITCH_MM + dx!, y: y * PITCH_MM + dy! });
      return [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10] as const;
    });
  const state = game.state;
  return [
    ...state.board.tiles.map((t) => ({ x: t.x, y: t.y, laid: true, quad: quad(t.x, t.y) })),
    ...[...state.board.holes.keys()].map((k) => ({ x: keyX(k), y: keyY(k), laid: false, quad: quad(keyX(k), keyY(k)) })),
  ];
}

function tileOf(game: Game, c: Command): TileView | null {
  if (c.type !== 'placeTile' && c.type !== 'placePrizeTile') return null;
  const catalog = game.state.catalog;
  if (!catalog.get(c.tile)) return null;
  return tileView(catalog.view(c.tile, quarterTurns(c.rot)), c.at[0], c.at[1]);
}

export function readingView(game: Game, c: Command): CameraReadingView {
  const t = game.state.board.tiles[game.state.turn.tile];
  return { command: c, text: describeCommand(c, new TableWords(game.state), t ? [t.x, t.y] : null).text, tile: tileOf(game, c) };
}

export function cellOf(game: Game, c: Command): readonly [number, number] | null {
  if (c.type === 'placeTile' || c.type === 'placePrizeTile') return c.at;
  if (c.type === 'placeMeeple') {
    const t = game.state.board.tiles[game.state.turn.tile];
    return t ? [t.x, t.y] : null;
  }
  return null;
}

export function proposalView(game: Game, id: number, p: StoredProposal, askEverything: boolean): CameraView['proposals'][number] {
  const readings = [p.command, ...p.alternatives].map((c) => readingView(game, c));
  const cell = p.before === undefined ? cellOf(game, p.command) : tileBefore(game, p.before);
  return { id, frame: p.frame ?? -1, confidence: p.confidence, why: questionWords(game, p, askEverything), readings, cell };
}

/**
 * Why the camera asks, as the table would understand it: never "not sure … 100 % sure". A reading
 * sure enough to commit is asked about only because the table asked about every tile, and says so.
 */
export function questionWords(game: Game, p: Pick<StoredProposal, 'why' | 'confidence' | 'command'>, askEverything: boolean): string {
  const pct = Math.round(p.confidence * 100);
  const what = p.command.type === 'placeMeeple' ? 'the figure on the new tile' : 'this tile';
  const why = p.why ?? 'not sure';
  const rejected = /^the engine rejects it: (.*)$/s.exec(why);
  if (rejected) return `The camera’s best reading of ${what} breaks the rules (${new TableWords(game.state).rewrite(rejected[1]!).text}): which is it?`;
  const behind = /^a tile the game does not have lies at cell \((-?\d+), (-?\d+)\), laid before this one: enter it first$/.exec(why);
  if (behind) return `The camera sees ${what}, but a tile laid before it, the square ${fromStart(Number(behind[1]), Number(behind[2]))}, is not in the game yet: enter that one first, then say which this is.`;
  if (/^two tiles appeared at once\b/.test(why)) return `Two tiles appeared at once, and no draw says which was laid first: which is this one?`;
  if (why === BIG_BY_SIZE) return `The camera takes the figure on the new tile for a big follower, but it tells one from a follower only by its size: which is it?`;
  if (why === FIGURE_BY_MODEL_ALONE) return `The camera sees a figure on the new tile where its picture of the tile shows none it knows: which is it?`;
  if (why === 'sure' || (askEverything && p.confidence >= SURE)) return `The camera reads ${what} well (${pct} % sure) but asks about every tile, as this table chose: which is it?`;
  return `The camera is not sure about ${what} (its best reading is ${pct} % likely): which is it?`;
}

/** Where the last tile before history position `at` was laid (the tile a figure reading about that moment stands on). */
function tileBefore(game: Game, at: number): readonly [number, number] | null {
  for (let i = Math.min(at, game.commands.length) - 1; i >= 0; i--) {
    const c = game.commands[i]!;
    if (c.type === 'placeTile' || c.type === 'placePrizeTile') return c.at;
  }
  return null;
}
