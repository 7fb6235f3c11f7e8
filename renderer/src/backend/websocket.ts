/** Backend over the browser-mode WebSocket: numbered requests, replies matched by id, snapshots pushed. */
import type { CompanionApi, OperationName, Reply } from '../../../electron/contract/api.js';
import type { CameraView } from '../../../electron/contract/camera.js';
import type { Snapshot } from '../../../electron/contract/snapshot.js';
import type { Backend, Role } from './types.js';

const OPS = [
  'snapshot', 'newGame', 'play', 'undo', 'redo', 'correct', 'insert', 'importRecord', 'exportRecord', 'listGames', 'loadGame', 'statistics', 'pairing', 'pairingAllow', 'unpairScreen', 'secondScreenMoves',
  'tileTypes', 'tileChoices', 'placements', 'saveTile', 'readTilePhoto', 'camera', 'cameraUse', 'cameraReport', 'cameraAnswer', 'cameraAskEverything', 'cameraPictureBoard', 'cameraStartPieceCorners', 'cameraFindStartPiece',
  'cameraSetup', 'cameraChoose', 'cameraSheet', 'cameraProfileSave', 'cameraProfileUse', 'cameraProfileDelete',
  'demoStart', 'demoStop',
  'teach', 'teachStart', 'teachStop', 'teachLook', 'teachAcceptSure', 'teachPick', 'teachName', 'teachDiscard', 'teachRetake', 'teachCoverage', 'taughtTiles', 'taughtDelete', 'taughtExport', 'taughtImport',
] as const satisfies readonly OperationName[];
// Every operation of the contract must be listed above (the compiler says which one is missing),
// except camera frames, which travel as binary messages (sendFrame).
export const allOperations: [Exclude<OperationName, (typeof OPS)[number] | 'cameraFrame'>] extends [never] ? true : false = true;

const SCREEN_TOKEN = 'companion-screen-token';

export interface Connection {
  readonly backend: Backend;
  readonly role: Role;
}

type Pending = (r: Reply<unknown>) => void;

class Socket {
  private ws!: WebSocket;
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  readonly listeners = new Set<(s: Snapshot) => void>();
  readonly cameraListeners = new Set<(v: CameraView) => void>();
  readonly closedListeners = new Set<() => void>();

  open(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(url);
      this.ws.onopen = () => resolve();
      this.ws.onerror = () => reject(new Error(`cannot reach ${url}`));
      this.ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data)) as { id?: number | null; push?: string; snapshot?: Snapshot; camera?: CameraView } & Reply<unknown>;
        if (m.push === 'snapshot' && m.snapshot) for (const l of this.listeners) l(m.snapshot);
        else if (m.push === 'camera' && m.camera) for (const l of this.cameraListeners) l(m.camera);
        else if (typeof m.id === 'number') {
          this.pending.get(m.id)?.(m);
          this.pending.delete(m.id);
        }
      };
      this.ws.onclose = (e) => {
        for (const p of this.pending.values()) p({ ok: false, error: `connection closed (${e.code}${e.reason ? `: ${e.reason}` : ''})` });
        this.pending.clear();
        for (const l of this.closedListeners) l();
      };
    });
  }

  call(op: string, args: unknown[]): Promise<Reply<unknown>> {
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.resolve({ ok: false, error: 'not connected to the companion' });
    return new Promise((resolve) => {
      const id = this.next++;
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, op, args }));
    });
  }

  /** A camera frame travels as one binary message (no id, no reply unless it is refused). */
  sendBinary(bytes: Uint8Array): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(bytes);
  }

  close(): void {
    this.ws.close();
  }
}

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
}

function backendOf(socket: Socket): Backend {
  const api = Object.fromEntries(OPS.map((op) => [op, (...args: unknown[]) => socket.call(op, args)])) as unknown as CompanionApi;
  return {
    api,
    onSnapshot: (l) => {
      socket.listeners.add(l);
      return () => socket.listeners.delete(l);
    },
    onClosed: (l) => socket.closedListeners.add(l),
    onCamera: (l) => {
      socket.cameraListeners.add(l);
      return () => socket.cameraListeners.delete(l);
    },
    sendFrame: (jpeg) => socket.sendBinary(jpeg),
  };
}

/** Connects with the main screen's token (in the page) or a second screen's saved token; null if it must pair. */
export async function connectKnown(): Promise<Connection | null> {
  const token = document.querySelector<HTMLMetaElement>('meta[name="companion-token"]')?.content ?? localStorage.getItem(SCREEN_TOKEN);
  if (!token) return null;
  const socket = new Socket();
  await socket.open(socketUrl());
  const hello = (await socket.call('hello', [token])) as Reply<{ role: Role }>;
  if (!hello.ok) {
    localStorage.removeItem(SCREEN_TOKEN);
    return null;
  }
  return { backend: backendOf(socket), role: hello.value.role };
}

/** Pairs a second screen with the code shown on the main screen. */
export async function pairWithCode(code: string): Promise<Reply<Connection>> {
  const socket = new Socket();
  await socket.open(socketUrl());
  const r = (await socket.call('pair', [code.trim()])) as Reply<{ role: Role; token: string }>;
  if (!r.ok) {
    socket.close();
    return r;
  }
  localStorage.setItem(SCREEN_TOKEN, r.value.token);
  return { ok: true, value: { backend: backendOf(socket), role: 'screen' } };
}
