import { describe, expect, it } from 'vitest';
import { RecordingCamera } from '../../electron/services/camera/recording-camera.js';
import type { CameraStatus, Frame } from '../../electron/services/camera/source.js';

describe('RecordingCamera (the default source without a camera)', () => {
  it('plays every frame of a recording as RGBA, then reports stopped', async () => {
    const cam = new RecordingCamera('tests/fixtures/recordings/short-s5', 100);
    const frames: Frame[] = [];
    const statuses: CameraStatus[] = [];
    cam.onFrame((f) => frames.push(f));
    const done = new Promise<void>((resolve) => cam.onStatus((s) => { statuses.push(s); if (s.state === 'stopped') resolve(); }));
    await cam.start();
    await done;
    expect(frames).toHaveLength(42);
    expect(frames[0]!.width * frames[0]!.height * 4).toBe(frames[0]!.rgba.length);
    expect(statuses.map((s) => s.state)).toEqual(['live', 'stopped']);
  });

  it('a directory that is no recording: unplugged, with the reason', async () => {
    const cam = new RecordingCamera('tests/fixtures', 100);
    const statuses: CameraStatus[] = [];
    cam.onStatus((s) => statuses.push(s));
    await cam.start();
    expect(statuses).toHaveLength(1);
    expect(statuses[0]!.state).toBe('unplugged');
    if (statuses[0]!.state === 'unplugged') expect(statuses[0]!.reason).toMatch(/no manifest/);
  });
});
