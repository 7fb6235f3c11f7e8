/** Browser mode as one call: open the store, resume the last game, serve it. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { GameSession } from '../services/session/session.js';
import { Store } from '../services/store/store.js';
import { startServer, type RunningServer } from './server.js';

export interface BrowserModeOptions {
  readonly dataFile?: string;
  readonly rendererDir?: string;
  readonly port?: number;
  readonly lan?: boolean;
}

export interface BrowserMode {
  readonly server: RunningServer;
  readonly store: Store;
  readonly session: GameSession;
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

export async function startBrowserMode(o: BrowserModeOptions = {}): Promise<BrowserMode> {
  const store = Store.open(o.dataFile ?? defaultDataFile());
  const session = GameSession.resume(store);
  try {
    const server = await startServer({ session, store, rendererDir: o.rendererDir ?? DEFAULT_RENDERER_DIR, port: o.port ?? 0, lan: o.lan ?? false });
    return {
      server,
      store,
      session,
      close: async () => {
        await server.close();
        store.close();
      },
    };
  } catch (e) {
    store.close();
    throw e;
  }
}
