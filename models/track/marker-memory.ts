/**
 * What the tracker remembers of its marker searches while the camera has not moved: the markers the
 * plane puts in view that the last whole-frame search did not give (one by the frame's edge the
 * detector finds now and then, one a tile has covered since), so that they alone do not send every
 * still scene to the whole frame (calibration/markers.ts `NearPlane.missedByFrame`).
 */
import type { SheetHomography } from '../../calibration/markers.js';

/** Still scenes looked at in regions before a marker the whole frame missed counts as a reason to search it again. */
export const WHOLE_FRAME_AGAIN = 10;

export interface MarkersMissed {
  /** Markers the plane put in view that the last whole-frame search did not give, and none since. */
  readonly ids: readonly number[];
  /** Still scenes looked at in regions since that search. */
  readonly scenes: number;
}

/**
 * The markers a search may pass over without looking at the whole frame. None once the memory is
 * WHOLE_FRAME_AGAIN scenes old (one uncovered meanwhile is found even where the plane puts its region
 * a little off), and none while the plane rests on two markers: such a plane may put the others well
 * off, and the whole frame would find a third (steady-plane.ts).
 */
export function passedOver(memory: MarkersMissed | null, planeMarkers: number): readonly number[] {
  if (!memory || memory.scenes >= WHOLE_FRAME_AGAIN || planeMarkers < 3) return [];
  return memory.ids;
}

/**
 * The memory after a search: a whole-frame search starts it again from the markers the plane put in
 * view (`inView`) that it did not give; a search in regions drops the markers it found and counts the scene.
 */
export function afterSearch(memory: MarkersMissed | null, searched: SheetHomography['searched'], found: readonly number[], inView: () => readonly number[]): MarkersMissed {
  if (searched === 'frame') return { ids: inView().filter((id) => !found.includes(id)), scenes: 0 };
  return { ids: (memory?.ids ?? []).filter((id) => !found.includes(id)), scenes: (memory?.scenes ?? 0) + 1 };
}
