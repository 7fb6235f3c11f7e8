/**
 * This screen's camera (getUserMedia, the one permission the Electron window has) and the services'
 * camera view. Frames go to the services as JPEG, in order: at most one every MIN_INTERVAL_MS, and
 * never the same picture twice in a row (a source that repeats its frame — Chromium's fake camera
 * plays a file at a fixed 30 fps — adds nothing for the tracker; a real sensor never repeats one).
 * The track ending (camera unplugged, taken by another app) is reported at once; the game goes on by
 * manual entry, and the camera is asked for again when a device appears or the table says so.
 */
import type { CameraView } from '../../../electron/contract/camera.js';
import { DEFAULT_CAMERA_SIZE, type CameraChoice } from '../../../electron/contract/camera-setup.js';
import type { Backend } from '../backend/types.js';

const MIN_INTERVAL_MS = 100;
const JPEG_QUALITY = 0.9;

/** 'absent': no video device (the services keep their default source); 'ended': its track ended. */
export type LocalCamera = 'none' | 'absent' | 'starting' | 'live' | 'ended' | 'refused';

export const camera = $state<{
  view: CameraView | null;
  local: LocalCamera;
  stream: MediaStream | null;
  error: string | null;
  /** The screen's cameras by the names the browser gives them (known once it has opened one). */
  devices: string[];
  /** The open camera's largest frame, and the frame size it gives now. */
  largest: [number, number] | null;
  size: [number, number] | null;
}>({
  view: null,
  local: 'none',
  stream: null,
  error: null,
  devices: [],
  largest: null,
  size: null,
});

/** Frame sizes a table may choose, offered up to the camera's largest. */
export const RESOLUTIONS: readonly [number, number][] = [[640, 480], [1280, 720], [1920, 1080], [2560, 1440], [3840, 2160]];

/** Chromium's MediaStreamTrackProcessor (Electron and Chromium browsers): every frame, none skipped for painting. */
interface TrackProcessor {
  readonly readable: ReadableStream<VideoFrame>;
}
type TrackProcessorCtor = new (init: { track: MediaStreamTrack; maxBufferSize?: number }) => TrackProcessor;

let backend: Backend | null = null;
let run = 0;
let watching = false;

/** A fingerprint of a picture: enough samples that two different camera frames never share one. */
function fingerprint(d: Uint8ClampedArray): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < d.length; i += 61) h = Math.imul(h ^ d[i]!, 0x01000193);
  return h >>> 0;
}

export function followCameraView(b: Backend): void {
  backend = b;
  b.onCamera((v) => (camera.view = v));
  void b.api.camera().then((r) => {
    if (r.ok) camera.view = r.value;
  });
}

/** Starts this screen's camera when there is one; without one the services keep their default source. */
export async function startLocalCamera(): Promise<void> {
  const b = backend;
  if (!b || camera.local === 'starting' || camera.local === 'live') return;
  if (!navigator.mediaDevices?.getUserMedia) {
    camera.local = 'absent';
    return;
  }
  // Starting before anything is awaited: the page asks on every change while no camera is open, and
  // each ask that got past here would open the camera again (a second stream nothing reads or closes).
  camera.local = 'starting';
  watchDevices();
  const devices = await navigator.mediaDevices.enumerateDevices();
  if (!devices.some((d) => d.kind === 'videoinput')) {
    camera.local = 'absent';
    return;
  }
  // The table's chosen camera and frame size (Camera → set-up), asked for by the name the browser gives it.
  const chosen = await b.api.cameraSetup().then((r) => (r.ok ? r.value.choice : null)).catch(() => null);
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: videoConstraints(chosen, devices), audio: false });
  } catch (e) {
    camera.local = 'refused';
    camera.error = `the camera could not be opened: ${(e as Error).message}`;
    return;
  }
  const track = stream.getVideoTracks()[0];
  if (!track) {
    camera.local = 'refused';
    return;
  }
  const mine = ++run;
  camera.stream = stream;
  camera.error = null;
  await learnDevice(track);
  // Before the first permission the browser hides its cameras' names: once they are known, the chosen
  // camera is opened if another one came.
  if (chosen && track.label !== chosen.label && camera.devices.includes(chosen.label) && !devices.some((d) => d.label === chosen.label)) {
    void reopenCamera();
    return;
  }
  const used = await b.api.cameraUse('browser', track.label || 'this screen’s camera');
  if (!used.ok) {
    camera.error = used.error;
    track.stop();
    camera.local = 'refused';
    return;
  }
  const live = b.api.cameraReport({ state: 'live', label: track.label || 'this screen’s camera' });
  // Listen before anything is awaited: the track can end at any moment, even while it is being
  // reported live (the e2e test once unplugged it in that window and no banner came). Its end is
  // reported after the report that it is live.
  track.addEventListener('ended', () => {
    if (run !== mine) return;
    run++;
    camera.local = 'ended';
    camera.stream = null;
    void live
      .catch(() => undefined)
      .then(() => b.api.cameraReport({ state: 'unplugged', reason: 'its video track ended: unplugged or taken by another program' }));
  });
  camera.local = 'live';
  await live;
  if (run !== mine) return;
  void capture(track, b, mine);
}

/** What getUserMedia is asked for: the chosen camera when the browser still has it, at the chosen size (else near DEFAULT_CAMERA_SIZE). */
function videoConstraints(choice: CameraChoice | null, devices: MediaDeviceInfo[]): MediaTrackConstraints {
  if (!choice) return { width: { ideal: DEFAULT_CAMERA_SIZE[0] }, height: { ideal: DEFAULT_CAMERA_SIZE[1] } };
  const device = devices.find((d) => d.kind === 'videoinput' && d.label === choice.label);
  return { ...(device?.deviceId ? { deviceId: { exact: device.deviceId } } : {}), width: { ideal: choice.width }, height: { ideal: choice.height } };
}

/** The cameras' names (the browser tells them once one is open) and what the open one can give. */
async function learnDevice(track: MediaStreamTrack): Promise<void> {
  const all = await navigator.mediaDevices.enumerateDevices();
  camera.devices = [...new Set(all.filter((d) => d.kind === 'videoinput' && d.label).map((d) => d.label))];
  const caps = track.getCapabilities?.();
  camera.largest = caps?.width?.max && caps.height?.max ? [caps.width.max, caps.height.max] : null;
  const s = track.getSettings();
  camera.size = s.width && s.height ? [s.width, s.height] : null;
}

/** The table chose another camera or frame size: the screen's camera is opened again with it. */
export async function reopenCamera(): Promise<void> {
  run++;
  for (const t of camera.stream?.getTracks() ?? []) t.stop();
  camera.stream = null;
  camera.local = 'none';
  await startLocalCamera();
}

/** The table asks for the camera again (or a device appeared). */
export function reconnectCamera(): Promise<void> {
  if (camera.local === 'live' || camera.local === 'starting') return Promise.resolve();
  camera.local = 'none';
  return startLocalCamera();
}

function watchDevices(): void {
  if (watching) return;
  watching = true;
  navigator.mediaDevices.addEventListener?.('devicechange', () => {
    if (camera.local === 'ended' || camera.local === 'absent') void reconnectCamera();
  });
}

async function capture(track: MediaStreamTrack, b: Backend, mine: number): Promise<void> {
  const canvas = new OffscreenCanvas(1, 1);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return;
  let lastKey = -1;
  let lastSent = -Infinity;
  // `at`: when the frame was captured (ms), not when it is looked at: frames read in a burst after the
  // page was busy are spaced as they were taken, so none is skipped for coming "too soon".
  const consider = async (source: CanvasImageSource, w: number, h: number, at: number) => {
    if (at - lastSent < MIN_INTERVAL_MS || w === 0 || h === 0) return;
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    ctx.drawImage(source, 0, 0, w, h);
    const key = fingerprint(ctx.getImageData(0, 0, w, h).data);
    if (key === lastKey) return;
    lastKey = key;
    lastSent = at;
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    if (run === mine) b.sendFrame(bytes);
  };
  const Processor = (globalThis as unknown as { MediaStreamTrackProcessor?: TrackProcessorCtor }).MediaStreamTrackProcessor;
  if (Processor) {
    const reader = new Processor({ track, maxBufferSize: 60 }).readable.getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done || !value) break;
      try {
        await consider(value, value.displayWidth, value.displayHeight, value.timestamp / 1000);
      } finally {
        value.close();
      }
      if (run !== mine) {
        void reader.cancel();
        break;
      }
    }
    return;
  }
  // Elsewhere: the frames a video element presents.
  const video = document.createElement('video');
  video.muted = true;
  video.srcObject = new MediaStream([track]);
  await video.play();
  const next = () =>
    video.requestVideoFrameCallback((now, meta) => {
      if (run !== mine) return;
      void consider(video, video.videoWidth, video.videoHeight, meta.captureTime ?? now).then(next);
    });
  next();
}
