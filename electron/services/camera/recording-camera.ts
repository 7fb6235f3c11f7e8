/**
 * A CameraSource that plays a recording (docs/recording-format.md) at its frame rate: the default
 * source when no camera is connected, so the whole chain runs on a machine without one. When the
 * video ends the status turns 'stopped', as a camera that stops would.
 */
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { RecordingSource } from '../../../models/scene/recording.js';
import type { CameraSource, CameraStatus, Frame } from './source.js';

export const BUNDLED_RECORDING = fileURLToPath(new URL('../../../tests/fixtures/recordings/demo-tower-jc', import.meta.url));

export class RecordingCamera implements CameraSource {
  readonly id: string;
  readonly label: string;
  private frameListeners = new Set<(f: Frame) => void>();
  private statusListeners = new Set<(s: CameraStatus) => void>();
  private timer: NodeJS.Timeout | null = null;
  private source: RecordingSource | null = null;
  private started = 0;

  /** `speed` > 1 plays faster than real time (tests). */
  constructor(private readonly dir: string = BUNDLED_RECORDING, private readonly speed = 1) {
    this.id = `recording:${dir}`;
    this.label = `recorded game (${dir.split('/').pop()})`;
  }

  async start(): Promise<void> {
    if (this.timer) return;
    const opened = RecordingSource.open(this.dir);
    if (!opened.ok) {
      this.emitStatus({ state: 'unplugged', reason: opened.error });
      return;
    }
    this.source = opened.value.source;
    this.started = Date.now();
    this.emitStatus({ state: 'live' });
    const period = 1000 / (opened.value.manifest.fps * this.speed);
    const tick = async () => {
      const f = await this.source?.next();
      if (!f) {
        await this.stop();
        return;
      }
      try {
        const { data, info } = await sharp(f.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        const frame: Frame = { width: info.width, height: info.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.length), jpeg: f.bytes, at: Date.now() - this.started };
        for (const l of this.frameListeners) l(frame);
      } catch {
        // A frame that is no image is skipped; the tracker would say the same of it.
      }
      if (this.timer) this.timer = setTimeout(() => void tick(), period);
    };
    this.timer = setTimeout(() => void tick(), 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    const was = this.timer !== null;
    this.timer = null;
    this.source?.close();
    this.source = null;
    if (was) this.emitStatus({ state: 'stopped' });
  }

  onFrame(listener: (frame: Frame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onStatus(listener: (status: CameraStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private emitStatus(s: CameraStatus): void {
    for (const l of this.statusListeners) l(s);
  }
}
