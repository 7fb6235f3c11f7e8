/** Pieces of the camera view (contract/camera.ts): the grid in image pixels and the readings in words. */
import type { Command } from '../../../engine/game/commands.js';
import type { Game } from '../../../engine/game/game.js';
import { keyX, keyY } from '../../../engine/geometry/position.js';
import { quarterTurns } from '../../../engine/geometry/segments.js';
import { applyHomography, type Homography } from '../../../calibration/geometry.js';
import { PITCH_MM } from '../../../models/scene/render.js';
import type { CameraCellView, CameraReadingView } from '../../contract/camera.js';
import type { TileView } from '../../contract/snapshot.js';
import { tileView } from '../session/view.js';
import { describeCommand } from '../session/describe.js';
import { TableWords } from '../session/words.js';

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
