/**
 * How the tracker finds the table's grid, as the table chose it: the marker sheet it printed (else
 * the recording's layout), or the start piece's four corners it clicked, each kept in the store
 * (checked, then saved: if the store cannot take it, nothing changes); and the start piece found on
 * the camera's pictures, offered for the table to confirm. The camera service makes its tracker again
 * when the choice changes.
 */
import { fail, ok, type Result } from '../../../engine/result.js';
import { SHEET_LAYOUTS, type SheetLayout } from '../../../calibration/sheet/layout.js';
import type { CameraView } from '../../contract/camera.js';
import type { Store } from '../store/store.js';
import { checkedCorners, MARKER_SHEET_SETTING, START_PIECE_CORNERS_SETTING } from './camera-settings.js';
import type { TableProfile } from './recording-info.js';

type Corners = [number, number][];

export class TableCalibration {
  /** The start piece's corners the table clicked (image pixels), when it calibrates without the marker sheet. */
  corners: Corners | null;
  /** The marker sheet the table chose (A4 or A3 layout), when not the recording's. */
  sheet: SheetLayout | null;
  /** The start piece as found on the picture, for the table to confirm. */
  private found: { corners: Corners; sure: boolean } | null = null;
  private finding = false;
  /** The game the start piece was last looked for by itself (`offerFor`). */
  private offeredFor: number | null = null;
  /** The start piece on offer was looked for by itself, not asked for. */
  private foundItself = false;

  constructor(
    private readonly store: Store,
    stored: { readonly corners: Corners | null; readonly sheet: SheetLayout | null },
  ) {
    this.corners = stored.corners;
    this.sheet = stored.sheet;
  }

  /** Where the tracker reads the table from: `base` (the given profile, else the recording's) with the table's sheet over it. */
  profile(base: TableProfile | null): TableProfile | null {
    return base && this.sheet ? { ...base, markers: this.sheet } : base;
  }

  /** The tracker's calibration: the clicked corners (no marker sheet looked for), else the profile's markers. */
  trackerCalibration(profile: TableProfile): { startPieceCorners: { x: number; y: number }[] } | { markers: SheetLayout } {
    return this.corners ? { startPieceCorners: this.corners.map(([x, y]) => ({ x, y })) } : { markers: profile.markers };
  }

  /** The table's marker sheet (a layout the app prints, by name), or null for the recording's. True: it changed. */
  chooseSheet(name: string | null): Result<boolean> {
    const layout = name === null ? null : SHEET_LAYOUTS.find((l) => l.name === name);
    if (layout === undefined) return fail(`the marker sheet ${JSON.stringify(name)} is not one this app prints (${SHEET_LAYOUTS.map((l) => l.name).join(', ')})`);
    this.store.saveSetting(MARKER_SHEET_SETTING, layout?.name ?? null);
    if (this.sheet?.name === layout?.name) return ok(false);
    this.sheet = layout;
    return ok(true);
  }

  /** The start piece's four corners as clicked (image pixels), or null to go back to the marker sheet. */
  chooseCorners(corners: readonly (readonly [number, number])[] | null): Result<Corners | null> {
    const checked = corners === null ? null : checkedCorners(corners);
    if (typeof checked === 'string') return fail(`the start piece's corners: ${checked}`);
    this.store.saveSetting(START_PIECE_CORNERS_SETTING, checked);
    this.corners = checked;
    this.found = null;
    return ok(checked);
  }

  /** Whether the start piece is being looked for. */
  get looking(): boolean {
    return this.finding;
  }

  /** The start piece is looked for now (what was on offer goes). */
  startLooking(): void {
    this.finding = true;
    this.found = null;
    this.foundItself = false;
  }

  /** The look ended: the corners found (null: not found). */
  lookedFor(found: { corners: Corners; sure: boolean } | null): void {
    this.finding = false;
    this.found = found;
  }

  /**
   * The grid cannot be found (no marker sheet in view, no corners given): should the start piece be
   * looked for by itself in game `gameId`? Once a game, and only while no corners are given.
   */
  offerFor(gameId: number | null): boolean {
    if (this.corners !== null || this.offeredFor === gameId) return false;
    this.offeredFor = gameId;
    return true;
  }

  /** The look started by `offerFor` is under way: its outline goes once the markers give the grid after all. */
  offered(): void {
    this.foundItself = true;
  }

  /** Another game: nothing found is on offer. */
  newGame(): void {
    this.found = null;
  }

  /** The view's part (`calibratedFrom`: how the tracker found the grid, if it did). */
  view(calibratedFrom: CameraView['calibratedFrom']): Pick<CameraView, 'startPieceCorners' | 'startPieceFound'> {
    // An outline offered unasked goes once the markers give the grid after all (a hand had hidden one).
    return { startPieceCorners: this.corners, startPieceFound: this.finding ? 'looking' : this.foundItself && calibratedFrom === 'markers' ? null : this.found };
  }
}
