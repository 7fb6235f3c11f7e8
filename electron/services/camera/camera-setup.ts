/**
 * The camera set-up kept in the store (issue 31, part 3): the camera and resolution the Camera screen
 * opens, the marker sheet, and named calibration profiles (camera, resolution, sheet, the start
 * piece's clicked corners). The camera service owns the sheet and the corners (it rebuilds its
 * tracker when they change); this module stores the rest and applies a profile through it.
 */
import { fail, ok, type Result } from '../../../engine/result.js';
import { SHEET_LAYOUTS } from '../../../calibration/sheet/layout.js';
import { z } from 'zod';
import { cameraChoiceSchema, type CameraChoice, type CameraProfileView, type CameraSetupView } from '../../contract/camera-setup.js';
import type { Store } from '../store/store.js';
import type { CameraService } from './camera-service.js';

export const CAMERA_CHOICE_SETTING = 'camera.choice';
export const CAMERA_PROFILE_SETTING = 'camera.profile';

const storedProfile = z.object({
  camera: cameraChoiceSchema.nullable(),
  sheet: z.string().nullable(),
  corners: z.array(z.tuple([z.number().finite(), z.number().finite()])).length(4).nullable(),
  savedAt: z.string(),
});
type StoredProfile = z.infer<typeof storedProfile>;

const SHEET_WORDS: Record<string, string> = { 'a4-4x4-40mm': 'A4 sheet, 12 markers of 40 mm', 'a3-4x4-50mm': 'A3 sheet, 20 markers of 50 mm' };

export class CameraSetup {
  constructor(
    private readonly store: Store,
    private readonly camera: CameraService,
  ) {}

  view(): CameraSetupView {
    const choice = cameraChoiceSchema.safeParse(this.store.setting(CAMERA_CHOICE_SETTING));
    const active = this.store.setting(CAMERA_PROFILE_SETTING);
    const profiles = this.store.calibrationNames().flatMap((name): CameraProfileView[] => {
      const p = this.profile(name);
      return p.ok ? [{ name, camera: p.value.camera, sheet: p.value.sheet, corners: p.value.corners !== null, savedAt: p.value.savedAt }] : [];
    });
    return {
      choice: choice.success ? choice.data : null,
      sheet: this.camera.markerSheetName,
      sheets: SHEET_LAYOUTS.map((l) => ({ name: l.name, words: SHEET_WORDS[l.name] ?? l.name })),
      profiles,
      active: typeof active === 'string' && profiles.some((p) => p.name === active) ? active : null,
    };
  }

  /** The camera and resolution the screen opens from now on (null: the browser's default camera). */
  choose(choice: CameraChoice | null): Result<CameraSetupView> {
    this.store.saveSetting(CAMERA_CHOICE_SETTING, choice);
    this.store.saveSetting(CAMERA_PROFILE_SETTING, null);
    return ok(this.view());
  }

  /** The marker sheet the table printed. */
  sheet(name: string): Result<CameraSetupView> {
    const r = this.camera.markerSheet(name);
    if (!r.ok) return r;
    this.store.saveSetting(CAMERA_PROFILE_SETTING, null);
    return ok(this.view());
  }

  /** Keeps the set-up as it is now under `name` (a profile of that name is replaced). */
  save(name: string): Result<CameraSetupView> {
    const view = this.camera.view();
    const choice = cameraChoiceSchema.safeParse(this.store.setting(CAMERA_CHOICE_SETTING));
    const data: StoredProfile = {
      camera: choice.success ? choice.data : null,
      sheet: this.camera.markerSheetName,
      corners: view.startPieceCorners ? view.startPieceCorners.map(([x, y]): [number, number] => [x, y]) : null,
      savedAt: new Date().toISOString(),
    };
    this.store.saveCalibration(name, data);
    this.store.saveSetting(CAMERA_PROFILE_SETTING, name);
    return ok(this.view());
  }

  /** Brings a profile back: its camera and resolution, its sheet, its clicked corners (or none). */
  use(name: string): Result<CameraSetupView> {
    const p = this.profile(name);
    if (!p.ok) return p;
    const { camera, sheet, corners } = p.value;
    if (sheet !== null && sheet !== this.camera.markerSheetName) {
      const r = this.camera.markerSheet(sheet);
      if (!r.ok) return fail(`the profile “${name}”: ${r.reason}`);
    }
    const r = this.camera.startPieceCorners(corners);
    if (!r.ok) return fail(`the profile “${name}”: ${r.reason}`);
    this.store.saveSetting(CAMERA_CHOICE_SETTING, camera);
    this.store.saveSetting(CAMERA_PROFILE_SETTING, name);
    return ok(this.view());
  }

  remove(name: string): Result<CameraSetupView> {
    if (!this.store.deleteCalibration(name)) return fail(`there is no camera profile “${name}”`);
    if (this.store.setting(CAMERA_PROFILE_SETTING) === name) this.store.saveSetting(CAMERA_PROFILE_SETTING, null);
    return ok(this.view());
  }

  private profile(name: string): Result<StoredProfile> {
    const raw = this.store.calibration<unknown>(name);
    if (raw === undefined) return fail(`there is no camera profile “${name}”`);
    const p = storedProfile.safeParse(raw);
    if (!p.success) {
      const issue = p.error.issues[0]!;
      return fail(`the stored camera profile “${name}” is damaged (${issue.path.join('.') || 'the whole profile'}: ${issue.message})`);
    }
    return ok(p.data);
  }
}
