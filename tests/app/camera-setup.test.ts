/**
 * The camera set-up kept between evenings (issue 31, part 3), on a real SQLite file: the camera and
 * frame size the screen opens, the marker sheet the tracker looks for, named profiles that bring all
 * of it back with the start piece's clicked corners — each surviving a restart; bad choices refused
 * by name with nothing changed; a damaged stored profile said so; second screens may not change it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../electron/contract/api.js';
import { refusedFor } from '../../electron/contract/roles.js';
import { CameraService } from '../../electron/services/camera/camera-service.js';
import { CameraSetup } from '../../electron/services/camera/camera-setup.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const CORNERS: [number, number][] = [[300, 200], [360, 202], [358, 262], [298, 260]];
const opened: { store: Store; camera: CameraService }[] = [];

function open(file: string) {
  const store = Store.open(file);
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, recording: DIR });
  opened.push({ store, camera });
  return { store, camera, setup: new CameraSetup(store, camera) };
}

afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.camera.close();
    o.store.close();
  }
});

const file = () => join(mkdtempSync(join(tmpdir(), 'companion-setup-')), 'c.sqlite');

describe('the camera set-up', () => {
  it('a new table: the default camera, the recording’s sheet, the sheets the app prints, no profile', () => {
    const { setup } = open(file());
    const v = setup.view();
    expect(v.choice).toBeNull();
    expect(v.sheet).toBe('table-corners');
    expect(v.sheets.map((s) => s.name)).toEqual(['a4-4x4-40mm', 'a3-4x4-50mm']);
    expect(v.profiles).toEqual([]);
    expect(v.active).toBeNull();
  });

  it('camera, frame size, sheet and a profile survive a restart; the profile brings them back after changes', async () => {
    const f = file();
    const a = open(f);
    expect(a.setup.choose({ label: 'USB webcam (046d:085c)', width: 1920, height: 1080 }).ok).toBe(true);
    expect(a.setup.sheet('a3-4x4-50mm').ok).toBe(true);
    expect(a.camera.markerSheetName).toBe('a3-4x4-50mm');
    expect(a.camera.startPieceCorners(CORNERS).ok).toBe(true);
    const saved = a.setup.save('Kitchen table');
    if (!saved.ok) throw new Error(saved.reason);
    expect(saved.value.profiles).toMatchObject([{ name: 'Kitchen table', camera: { label: 'USB webcam (046d:085c)', width: 1920, height: 1080 }, sheet: 'a3-4x4-50mm', corners: true }]);
    expect(saved.value.active).toBe('Kitchen table');
    await a.camera.close();
    a.store.close();

    // The next evening: everything as it was left.
    const b = open(f);
    const v = b.setup.view();
    expect(v.choice).toEqual({ label: 'USB webcam (046d:085c)', width: 1920, height: 1080 });
    expect(v.sheet).toBe('a3-4x4-50mm');
    expect(b.camera.markerSheetName).toBe('a3-4x4-50mm');
    expect(b.camera.view().startPieceCorners).toEqual(CORNERS);
    expect(v.active).toBe('Kitchen table');

    // Another camera, the A4 sheet, the marker sheet instead of clicks: no profile in use any more…
    expect(b.setup.choose({ label: 'Laptop camera', width: 1280, height: 720 }).ok).toBe(true);
    expect(b.setup.sheet('a4-4x4-40mm').ok).toBe(true);
    expect(b.camera.startPieceCorners(null).ok).toBe(true);
    expect(b.setup.view().active).toBeNull();
    expect(b.camera.markerSheetName).toBe('a4-4x4-40mm');
    // …until the profile is used again: camera, size, sheet and corners come back.
    const used = b.setup.use('Kitchen table');
    if (!used.ok) throw new Error(used.reason);
    expect(used.value.choice).toEqual({ label: 'USB webcam (046d:085c)', width: 1920, height: 1080 });
    expect(used.value.sheet).toBe('a3-4x4-50mm');
    expect(used.value.active).toBe('Kitchen table');
    expect(b.camera.view().startPieceCorners).toEqual(CORNERS);

    expect(b.setup.remove('Kitchen table').ok).toBe(true);
    expect(b.setup.view().profiles).toEqual([]);
    const again = b.setup.remove('Kitchen table');
    expect(again.ok ? '' : again.reason).toBe('there is no camera profile “Kitchen table”');
  });

  it('refuses a sheet the app does not print, a frame size out of range, a nameless profile — naming what is wrong, changing nothing', () => {
    const { setup, camera } = open(file());
    const bad = setup.sheet('letter-6x6');
    expect(bad.ok ? '' : bad.reason).toBe('the marker sheet "letter-6x6" is not one this app prints (a4-4x4-40mm, a3-4x4-50mm)');
    expect(camera.markerSheetName).toBe('table-corners');
    const size = parseArgs('cameraChoose', [{ label: 'cam', width: 100_000, height: 720 }]);
    expect(size.ok ? '' : size.error).toMatch(/width/);
    const unnamed = parseArgs('cameraProfileSave', ['   ']);
    expect(unnamed.ok ? '' : unnamed.error).toMatch(/a profile needs a name/);
    expect(setup.view().choice).toBeNull();
  });

  it('a damaged stored profile is said so when used, and the set-up is left as it was', () => {
    const { setup, store, camera } = open(file());
    store.saveCalibration('Old', { camera: { label: 'cam', width: 'wide', height: 720 }, sheet: null, corners: null, savedAt: 'x' });
    const r = setup.use('Old');
    expect(r.ok ? '' : r.reason).toBe('the stored camera profile “Old” is damaged (camera.width: Invalid input: expected number, received string)');
    expect(camera.markerSheetName).toBe('table-corners');
    expect(setup.view().active).toBeNull();
  });

  it('second screens may not see or change the set-up', () => {
    for (const op of ['cameraSetup', 'cameraChoose', 'cameraSheet', 'cameraProfileSave', 'cameraProfileUse', 'cameraProfileDelete'] as const) {
      expect(refusedFor('screen', op, true)).toMatch(/only the main screen may do this/);
      expect(refusedFor('main', op, false)).toBeNull();
    }
  });
});
