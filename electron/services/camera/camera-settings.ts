/**
 * The table's camera choices, kept in the store between sessions: ask about every tile or only
 * the unsure ones, the start piece's clicked corners, the marker sheet it printed. Read back with
 * what is wrong with a stored one, so a bad value is named to the table and nothing else is lost.
 */
import { homographyFromCorners } from '../../../calibration/fallbacks.js';
import { SHEET_LAYOUTS, type SheetLayout } from '../../../calibration/sheet/layout.js';
import type { Store } from '../store/store.js';

/** The store's key for the table's "ask about every tile" choice. */
export const ASK_EVERYTHING_SETTING = 'camera.askEverything';
/** The start piece's corners the table clicked (image pixels), or null: the marker sheet. */
export const START_PIECE_CORNERS_SETTING = 'camera.startPieceCorners';
/** The marker sheet the table printed (a layout's name), or absent: the recording's layout. */
export const MARKER_SHEET_SETTING = 'camera.markerSheet';

/** The tracker commits a reading at this confidence (its default `commitAt`). */
export const SURE = 0.9;
/** No reading is this sure: the table is asked about every one. */
const ASK_EVERYTHING = 2;

/** The confidence at which a reading is committed, asked about every one or not (`option`: the service's own, if at most 1). */
export function commitAtFor(askEverything: boolean, option?: number): number {
  return askEverything ? ASK_EVERYTHING : option !== undefined && option <= 1 ? option : SURE;
}

/**
 * Four clicked corners (image pixels) as the tracker takes them, or what is wrong with them: not four
 * pairs of finite numbers, or no quadrilateral (crossed, in a line, too close). Only their shape is
 * checked; the tracker knows the piece's size.
 */
export function checkedCorners(value: unknown): [number, number][] | string {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((p) => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v))))
    return `expected four [x, y] pairs of finite numbers, got ${JSON.stringify(value)}`;
  const corners = value.map((p: number[]) => [p[0]!, p[1]!] as [number, number]);
  const quad = homographyFromCorners(corners.map(([x, y]) => ({ x, y })), { widthMm: 1, heightMm: 1 });
  return quad.ok ? corners : quad.error.message;
}

export interface StoredCameraSettings {
  /** Null: never chosen (or not usable). */
  readonly askEverything: boolean | null;
  readonly corners: [number, number][] | null;
  readonly sheet: SheetLayout | null;
  /** Each stored value that could not be used, in the table's words. */
  readonly problems: readonly string[];
}

/** The choices the table made in an earlier session. */
export function storedCameraSettings(store: Store): StoredCameraSettings {
  const problems: string[] = [];
  const asked = store.setting(ASK_EVERYTHING_SETTING);
  if (asked !== undefined && typeof asked !== 'boolean') problems.push(`the stored choice “ask about every tile” is not yes or no (${JSON.stringify(asked)}): ignored until the table chooses again`);
  let corners: [number, number][] | null = null;
  const stored = store.setting(START_PIECE_CORNERS_SETTING);
  if (stored !== undefined && stored !== null) {
    const checked = checkedCorners(stored);
    if (typeof checked === 'string') problems.push(`the stored start piece's corners are not usable (${checked}): the marker sheet is looked for until the table clicks them again`);
    else corners = checked;
  }
  let sheet: SheetLayout | null = null;
  const name = store.setting(MARKER_SHEET_SETTING);
  if (name !== undefined && name !== null) {
    const layout = SHEET_LAYOUTS.find((l) => l.name === name);
    if (layout) sheet = layout;
    else problems.push(`the stored marker sheet ${JSON.stringify(name)} is not one this app prints: the recording's layout is used until the table chooses again`);
  }
  return { askEverything: typeof asked === 'boolean' ? asked : null, corners, sheet, problems };
}
