/**
 * Electron's main process, kept thin: open the store, resume the game, wire IPC, open one window.
 * The services are the same ones browser mode serves (electron/services).
 */
import { app, dialog, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { DemoService } from '../services/demo/demo-service.js';
import { CameraService } from '../services/camera/camera-service.js';
import { TeachService } from '../services/teach/teach-service.js';
import { GameSession } from '../services/session/session.js';
import { Store } from '../services/store/store.js';
import { StoreError } from '../services/store/open.js';
import { keepRunningOnStrayErrors } from '../server/last-resort.js';
import { lanUrls, pairingControl, startServer } from '../server/server.js';
import { registerIpc } from './ipc.js';
import { allowCameraOnly } from './permissions.js';
import { createMainWindow } from './window.js';

if (!app.requestSingleInstanceLock()) app.quit();
keepRunningOnStrayErrors();

// LAN access (off by default): the browser-mode server runs beside the window, on the same session,
// so that a TV or phone can join with the pairing code shown under Games.
const LAN = process.argv.includes('--lan') || process.env.COMPANION_LAN === '1';

app.whenReady().then(async () => {
  let store: Store;
  try {
    store = Store.open(process.env.COMPANION_DATA ?? join(app.getPath('userData'), 'companion.sqlite'));
  } catch (e) {
    dialog.showErrorBox('Carcassonne Companion cannot open its database', e instanceof StoreError ? e.message : String(e));
    app.exit(1);
    return;
  }
  const session = GameSession.resume(store);
  console.log(session.resumeNote() ?? session.resumeProblem ?? 'no game to resume');
  // The tracker runs here, in the main process, like the rest of the services (browser mode: in its
  // server). The window's camera sends JPEG frames over IPC; without one, the bundled demo recording.
  const recording = join(app.getAppPath(), 'tests/fixtures/recordings/demo-tower-jc');
  const camera = new CameraService({ session, store, recording });
  camera.use('recording');
  const demo = new DemoService({ session, camera });
  const teach = new TeachService({ store, session, camera });
  const win = createMainWindow();
  allowCameraOnly(win.webContents.session);
  const isOurWindow = (e: IpcMainInvokeEvent) => e.sender === win.webContents;
  const lan = LAN ? await startServer({ session, store, rendererDir: join(import.meta.dirname, '../renderer'), lan: true, port: 7373 }).catch(() => null) : null;
  registerIpc(
    { session, store, camera, demo, teach, pairing: pairingControl(lan?.pairing ?? null, () => 'main', () => (lan ? lanUrls(lan.port) : [])) },
    isOurWindow,
  );
  let pending = false;
  session.onChange(() => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (!win.isDestroyed()) win.webContents.send('companion:snapshot', session.snapshot());
    });
  });
  let cameraPending = false;
  camera.onChange(() => {
    if (cameraPending) return;
    cameraPending = true;
    setTimeout(() => {
      cameraPending = false;
      if (!win.isDestroyed()) win.webContents.send('companion:camera', camera.view(true));
    }, 100);
  });
  app.on('second-instance', () => win.focus());
  app.on('window-all-closed', async () => {
    await lan?.close();
    demo.close();
    await teach.close();
    await camera.close();
    store.close();
    app.quit();
  });
});
