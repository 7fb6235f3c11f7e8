/**
 * The turns offered for a tile the table named at the camera's question ("Another tile…", a photo):
 * each look drawn once (a symmetric tile's turns that look alike are one picture), ordered by what
 * the camera's picture of the cell shows (`cameraTurnsSeen`: each turn's probability by its edges),
 * and the camera's pick named only where it is clear.
 */
import type { TilePlacement } from '../../../electron/contract/entry.js';
import type { TileView } from '../../../electron/contract/snapshot.js';

export type Rot = 0 | 90 | 180 | 270;

/** A look the camera's picture gives at least this probability among the looks is labelled as its pick. */
export const CAMERA_SEES = 0.9;

export interface NamedTurns {
  readonly turns: readonly { readonly rot: Rot; readonly view: TileView }[];
  /** The turn the camera sees (first in `turns`), or null where it does not tell (one look, or unsure). */
  readonly cameraSees: Rot | null;
}

export function namedTurns(turns: TilePlacement['turns'], seen: readonly { readonly rot: number; readonly p: number }[] | null): NamedTurns {
  const looks = new Map<string, { rot: Rot; view: TileView; rots: number[] }>();
  for (const t of turns) {
    const view = t.cells[0]!;
    // The features in any order, each one's segments in any order: the same look.
    const features = view.features.map((f) => JSON.stringify([f.kind, [...f.segments].sort((a, b) => a - b), f.pennants, f.inn, f.cathedral])).sort();
    const look = JSON.stringify([view.terrain, features]);
    const same = looks.get(look);
    if (same) same.rots.push(t.rot);
    else looks.set(look, { rot: t.rot as Rot, view, rots: [t.rot] });
  }
  const p = new Map((seen ?? []).map((t) => [t.rot, t.p]));
  const likely = (l: { rots: number[] }) => l.rots.reduce((sum, rot) => sum + (p.get(rot) ?? 0), 0);
  // A stable sort: without the camera's word the turns stay in turn order.
  const ordered = [...looks.values()].sort((a, b) => likely(b) - likely(a));
  const sure = ordered.length > 1 && likely(ordered[0]!) >= CAMERA_SEES;
  return { turns: ordered.map(({ rot, view }) => ({ rot, view })), cameraSees: sure ? ordered[0]!.rot : null };
}
