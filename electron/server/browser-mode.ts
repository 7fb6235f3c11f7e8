/** Browser mode as one call: open the store, resume the last game, serve it. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DemoService } from '../services/demo/demo-service.js';
import { CameraService } from '../services/camera/camera-service.js';
import { GameSession } from '../services/session/session.js';
import { Store } from '../services/store/store.js';
import { TeachService } from '../services/teach/teach-service.js';
import { startServer, type RunningServer } from './server.js';

export interface BrowserModeOptions {
  readonly dataFile?: string;
  readonly rendererDir?: string;
  readonly port?: number;
  readonly lan?: boolean;
  /**
   * The recording played when no camera is connected (null: none); default the bundled demo game.
   * Its manifest also tells the tracker where the markers lie for a screen's own camera.
   */
  readonly recording?: string | null;
  readonly recordingSpeed?: number;
  /** The camera commits a reading at this confidence (default 0.9; above 1 the table confirms every reading). */
  readonly cameraCommitAt?: number;
  /** A socket that has not said hello or paired by then is closed (default 30 s; tests shorten it). */
  readonly unpairedTimeoutMs?: number;
}

export interface BrowserMode {
  readonly server: RunningServer;
  readonly store: Store;
  readonly session: GameSession;
  readonly camera: CameraService;
  readonly demo: DemoService;
  readonly teach: TeachService;
  close(): Promise<void>;
}

export function defaultDataFile(): string {
  if (process.env.COMPANION_DATA) return process.env.COMPANION_DATA;
  const base =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'));
  return join(base, 'carcassonne-companion', 'companion.sqlite');
}

export const DEFAULT_RENDERER_DIR = join(import.meta.dirname, '../../out/renderer');
/** Two folders down both as source (electron/server) and as bundle (out/main). */
export const BUNDLED_DEMO = join(import.meta.dirname, '../../tests/fixtures/recordings/demo-tower-jc');

export async function startBrowserMode(o: BrowserModeOptions = {}): Promise<BrowserMode> {
  const store = Store.open(o.dataFile ?? defaultDataFile());
  const session = GameSession.resume(store);
  const recording = o.recording === undefined ? BUNDLED_DEMO : o.recording;
  const camera = new CameraService({ session, store, recording, ...(o.recordingSpeed ? { recordingSpeed: o.recordingSpeed } : {}), ...(o.cameraCommitAt !== undefined ? { commitAt: o.cameraCommitAt } : {}) });
  // No camera connected yet: the recording is the default source (a screen with a camera switches to it).
  if (recording) camera.use('recording');
  const demo = new DemoService({ session, camera });
  const teach = new TeachService({ store, session, camera });
  try {
    const server = await startServer({ session, store, camera, demo, teach, rendererDir: o.rendererDir ?? DEFAULT_RENDERER_DIR, port: o.port ?? 0, lan: o.lan ?? false, ...(o.unpairedTimeoutMs ? { unpairedTimeoutMs: o.unpairedTimeoutMs } : {}) });
    return {
      server,
      store,
      session,
      camera,
      demo,
      teach,
      close: async () => {
        demo.close();
        await server.close();
        await teach.close();
        await camera.close();
        store.close();
      },
    };
  } catch (e) {
    demo.close();
    await teach.close();
    await camera.close();
    store.close();
    throw e;
  }
}
