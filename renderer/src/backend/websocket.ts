/** Backend over the browser-mode WebSocket: numbered requests, replies matched by id, snapshots pushed. */
import type { CompanionApi, OperationName, Reply } from '../../../electron/contract/api.js';
import type { CameraView } from '../../../electron/contract/camera.js';
import type { Snapshot } from '../../../electron/contract/snapshot.js';
import type { Backend, Role } from './types.js';

const OPS = [
  'snapshot', 'newGame', 'play', 'undo', 'redo', 'correct', 'insert', 'importRecord', 'exportRecord', 'listGames', 'loadGame', 'statistics', 'pairing', 'pairingAllow', 'unpairScreen', 'secondScreenMoves',
  'tileTypes', 'tileChoices', 'placements', 'saveTile', 'readTilePhoto', 'camera', 'cameraUse', 'cameraReport', 'cameraAnswer', 'cameraTilesFitting', 'cameraTurnsSeen', 'cameraAskEverything', 'cameraPictureBoard', 'cameraStartPieceCorners', 'cameraFindStartPiece',
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

/**
 * The frame socket (the services' electron/services/camera/frame-socket.ts): the main screen's camera
 * frames go there, to a thread of their own, so that the services' thread receives only the frames
 * it keeps. Until it is open, or if it closes, frames go on the main socket.
 */
class FrameSocket {
  private ws: WebSocket | null = null;

  open(url: string, token: string): void {
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => ws.send(JSON.stringify({ token }));
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Reply<unknown>;
      if (m.ok && this.ws === null) this.ws = ws;
    };
    ws.onclose = () => {
      if (this.ws === ws) this.ws = null;
    };
    ws.onerror = () => undefined;
  }

  /** Sent here when open; false: send it elsewhere. */
  send(bytes: Uint8Array): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(bytes);
    return true;
  }
}

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
}

function backendOf(socket: Socket, frames: FrameSocket | null = null): Backend {
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
    sendFrame: (jpeg) => {
      if (!frames?.send(jpeg)) socket.sendBinary(jpeg);
    },
  };
}

/** Connects with the main screen's token (in the page) or a second screen's saved token; null if it must pair. */
export async function connectKnown(): Promise<Connection | null> {
  const token = document.querySelector<HTMLMetaElement>('meta[name="companion-token"]')?.content ?? localStorage.getItem(SCREEN_TOKEN);
  if (!token) return null;
  const socket = new Socket();
  await socket.open(socketUrl());
  const hello = (await socket.call('hello', [token])) as Reply<{ role: Role; frames?: string }>;
  if (!hello.ok) {
    localStorage.removeItem(SCREEN_TOKEN);
    return null;
  }
  let frames: FrameSocket | null = null;
  if (hello.value.frames) {
    frames = new FrameSocket();
    frames.open(hello.value.frames, token);
  }
  return { backend: backendOf(socket, frames), role: hello.value.role };
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
