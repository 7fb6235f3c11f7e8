/**
 * The camera set-up a table keeps between evenings (issue 31, part 3): which of the screen's cameras
 * at which resolution, the marker sheet it printed, and named calibration profiles — one per camera
 * and table — that bring back all three with the start piece's clicked corners.
 */
import { z } from 'zod';

/** The camera the Camera screen opens (by the label the browser gives it) and the frame size it asks for. */
export const cameraChoiceSchema = z
  .object({
    label: z.string().trim().min(1, 'a camera needs its name').max(200),
    width: z.number().int().min(160).max(4096),
    height: z.number().int().min(120).max(3072),
  })
  .strict();
export type CameraChoice = z.infer<typeof cameraChoiceSchema>;

/**
 * The frame size the Camera screen asks for before the table chooses one (the camera gives its
 * nearest): the browser's own default is 640×480, where a full board's tiles are 20–28 px across and
 * the camera reads far fewer of them by itself (docs/tracking.md, "Measured": first-edition print
 * 65.0 % of moves at 640×480, 93.2 % at 1280×960).
 */
export const DEFAULT_CAMERA_SIZE: readonly [number, number] = [1920, 1080];

export const profileNameSchema = z.string().trim().min(1, 'a profile needs a name').max(40, 'a profile name of at most 40 characters');

/** A stored calibration profile as the screen shows it. */
export interface CameraProfileView {
  readonly name: string;
  readonly camera: CameraChoice | null;
  /** The marker sheet's layout name, or null: the recording's. */
  readonly sheet: string | null;
  /** The start piece's corners were clicked (no marker sheet looked for). */
  readonly corners: boolean;
  readonly savedAt: string;
}

export interface CameraSetupView {
  readonly choice: CameraChoice | null;
  /** The marker sheet the tracker looks for now (a layout's name), and the sheets the app prints. */
  readonly sheet: string | null;
  readonly sheets: readonly { readonly name: string; readonly words: string }[];
  readonly profiles: readonly CameraProfileView[];
  /** The profile used last (null: none, or the set-up changed since). */
  readonly active: string | null;
}
