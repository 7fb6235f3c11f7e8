/**
 * Browser mode: the services behind HTTP (the built renderer) and a WebSocket (the operations of
 * contract/api.ts) on 127.0.0.1. LAN access is off unless asked for; then the server also listens on
 * every interface and a second screen joins by typing the pairing code the main screen shows.
 *
 * Trust: the main screen is the page served to a loopback request with a loopback Host header; its
 * token is written into that page. Every other client must pair (server/pairing.ts: limits, lock-out,
 * expiring codes). Until then it may only say hello (with a token) or pair (with the code); anything
 * else is refused and the socket closed, and a socket that does neither is closed after 30 s. A paired
 * second screen may do what contract/roles.ts allows it, checked here, not in the page.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isOperation, parseArgs, type PairingInfo } from '../contract/api.js';
import { refusedFor } from '../contract/roles.js';
import { handlers, invoke, lanOff, type PairingControl } from '../services/api/handlers.js';
import type { CameraService } from '../services/camera/camera-service.js';
import type { DemoService } from '../services/demo/demo-service.js';
import type { GameSession } from '../services/session/session.js';
import type { Store } from '../services/store/store.js';
import type { TeachService } from '../services/teach/teach-service.js';
import { CLOSE_NOT_PAIRED, CLOSE_TOO_MANY_ERRORS, clientMessage, type ServerMessage } from './protocol.js';
import { FrameSocket } from '../services/camera/frame-socket.js';
import { isLoopback, sameSecret } from './net.js';
import { PairingDesk } from './pairing.js';
import { staticHandler } from './static.js';

export interface ServerOptions {
  readonly session: GameSession;
  readonly store: Store;
  readonly rendererDir: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Listen on every interface and accept paired second screens. Off by default. */
  readonly lan?: boolean;
  /**
   * The camera and tracker; the main screen's camera frames arrive on the frame socket (its address
   * is in the main screen's hello reply), or as binary messages here.
   */
  readonly camera?: CameraService;
  /** The demo game ("Watch a demo game"), driving the camera. */
  readonly demo?: DemoService;
  /** A socket that has not said hello or paired by then is closed (default 30 s). */
  readonly unpairedTimeoutMs?: number;
  /** Teach mode and the table's taught tiles (the camera's frames go to it while a teach is open). */
  readonly teach?: TeachService;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** The main screen's token (what the served page carries). */
  readonly mainToken: string;
  /** The pairing code now (it changes: expiry, a pairing, the main screen lifting a lock-out); null with LAN off. */
  readonly pairingCode: string | null;
  /** LAN pairing (null with LAN off): what Electron's window reaches through IPC. */
  readonly pairing: PairingDesk | null;
  /** Where the main screen sends its camera's frames (frame-socket.ts), null without a camera or when it could not start. */
  readonly frameSocket: FrameSocket | null;
  close(): Promise<void>;
}

type Role = 'main' | 'screen';
interface Client {
  role: Role | null;
  /** The paired screen (role 'screen'). */
  screenId: string | null;
  errors: number;
  pairAttempts: number;
  /** Asked for the camera view once: camera views are pushed to it from then on. */
  camera: boolean;
}

const MAX_ERRORS = 20;
/** Long enough to type an 8-digit code on a TV remote; a socket that never pairs costs nothing after. */
const UNPAIRED_TIMEOUT_MS = 30_000;
const MAX_PAIR_ATTEMPTS = 5;
const SNAPSHOT_FRAME_MS = 16;
/** Camera views (with the recording's last frame) go out at most this often. */
const CAMERA_VIEW_MS = 100;


/** The main screen's side of pairing, as Electron's IPC and the WebSocket give it. */
export function pairingControl(desk: PairingDesk | null, role: () => Role | null, urls: () => readonly string[]): PairingControl {
  if (!desk) return lanOff(urls());
  const info = (): PairingInfo => ({ lan: true, ...desk.info(role()), urls: urls() });
  return {
    info,
    allow: () => (desk.allow(), { ok: true, value: info() }),
    unpair: (id) => (desk.unpair(id) ? { ok: true, value: info() } : { ok: false, error: `unpairScreen: no paired screen ${id}` }),
    screenMoves: (on) => (desk.setScreenMoves(on), { ok: true, value: info() }),
  };
}

export function lanUrls(port: number): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(`http://${a.address}:${port}/`);
  }
  return out;
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const lan = o.lan ?? false;
  const mainToken = randomBytes(24).toString('hex');
  const desk = lan ? new PairingDesk({ store: o.store }) : null;
  let port = 0;
  let frames: FrameSocket | null = null;

  const fromMainScreen = (req: IncomingMessage) => {
    const host = req.headers.host ?? '';
    // Only the printed address: a page opened under any other name (another screen, a rebound DNS name) pairs.
    return isLoopback(req.socket.remoteAddress) && host === `127.0.0.1:${port}`;
  };

  const serveFile = staticHandler(o.rendererDir, (req) => (fromMainScreen(req) ? mainToken : null));
  const http: Server = createServer((req, res) => void serveFile(req, res));
  const wss = new WebSocketServer({ noServer: true, maxPayload: 12 * 1024 * 1024 });
  wss.on('error', () => undefined);
  const clients = new Map<WebSocket, Client>();

  http.on('upgrade', (req, socket, head) => {
    // The raw socket is ours until ws takes it: a reset before then must not be an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    // A page from another site must not drive the table: the Origin, when sent, must be this server.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nwrong origin\n');
      return;
    }
    if (!lan && !isLoopback(req.socket.remoteAddress)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const urls = () => (lan ? lanUrls(port) : [`http://127.0.0.1:${port}/`]);
  if (desk) desk.connected = (id) => [...clients.values()].some((c) => c.screenId === id);
  const unsubscribeUnpair = desk?.onUnpair((id) => {
    for (const [ws, c] of clients) if (c.screenId === id) ws.close(CLOSE_NOT_PAIRED, 'unpaired by the main screen');
  });

  const send = (ws: WebSocket, m: ServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const address = req.socket.remoteAddress ?? 'unknown';
    const client: Client = { role: null, screenId: null, errors: 0, pairAttempts: 0, camera: false };
    clients.set(ws, client);
    const idle = setTimeout(() => {
      if (!client.role) ws.close(CLOSE_NOT_PAIRED, 'not paired in time');
    }, o.unpairedTimeoutMs ?? UNPAIRED_TIMEOUT_MS);
    const api = handlers({ session: o.session, store: o.store, pairing: pairingControl(desk, () => client.role, urls), ...(o.camera ? { camera: o.camera } : {}), ...(o.demo ? { demo: o.demo } : {}), ...(o.teach ? { teach: o.teach } : {}) });
    const refuse = (id: number | null, error: string) => {
      send(ws, { id, ok: false, error });
      if (++client.errors >= MAX_ERRORS) ws.close(CLOSE_TOO_MANY_ERRORS, 'too many bad messages');
    };

    ws.on('message', (data, isBinary) => {
      // Whatever goes wrong with one message is that message's error reply, never the process's.
      try {
        onMessage(data, isBinary);
      } catch (e) {
        refuse(null, `the message could not be handled: ${(e as Error).message}`);
      }
    });
    const onMessage = (data: RawData, isBinary: boolean): void => {
      if (isBinary) {
        // A camera frame (JPEG) from the main screen's own camera; from anyone else, garbage.
        if (client.role !== 'main' || !o.camera) return refuse(null, 'binary messages are not understood here; send JSON text (only the main screen sends camera frames)');
        const buf = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
        // A view, not a copy: a 1080p frame 30 times a second is the services' largest allocation.
        const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
        const r = o.camera.frame(bytes);
        if (!r.ok) send(ws, { id: null, ok: false, error: `binary message (a camera frame) refused: ${r.reason}` });
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(data.toString());
      } catch {
        return refuse(null, 'not valid JSON');
      }
      const m = clientMessage.safeParse(json);
      if (!m.success) {
        const i = m.error.issues[0]!;
        return refuse(null, `not a message: ${i.path.join('.') || 'message'}: ${i.message}`);
      }
      const { id, op, args } = m.data;
      if (op === 'hello') {
        const token = typeof args[0] === 'string' ? args[0] : '';
        const screenId = desk?.screenFor(token) ?? null;
        if (sameSecret(token, mainToken)) client.role = 'main';
        else if (screenId) {
          client.role = 'screen';
          client.screenId = screenId;
        } else {
          send(ws, { id, ok: false, error: 'unknown token: pair with the code shown on the main screen' });
          ws.close(CLOSE_NOT_PAIRED, 'not paired');
          return;
        }
        return send(ws, { id, ok: true, value: client.role === 'main' && frames ? { role: client.role, frames: frames.url } : { role: client.role } });
      }
      if (op === 'pair') {
        if (!desk) {
          send(ws, { id, ok: false, error: 'LAN access is off: a second screen cannot pair' });
          ws.close(CLOSE_NOT_PAIRED, 'not paired');
          return;
        }
        const code = typeof args[0] === 'string' ? args[0].slice(0, 64) : '';
        const r = desk.attempt(address, code);
        if (!r.ok) {
          send(ws, { id, ok: false, error: r.error });
          if (++client.pairAttempts >= MAX_PAIR_ATTEMPTS) ws.close(CLOSE_NOT_PAIRED, 'too many wrong codes');
          return;
        }
        client.role = 'screen';
        client.screenId = r.screenId;
        return send(ws, { id, ok: true, value: { role: 'screen', token: r.token } });
      }
      if (!client.role) {
        send(ws, { id, ok: false, error: `not paired: say hello with the screen's token or pair with the code shown on the main screen before ${op}` });
        ws.close(CLOSE_NOT_PAIRED, 'not paired');
        return;
      }
      if (!isOperation(op)) return refuse(id, `unknown operation ${op}`);
      const refusal = refusedFor(client.role, op, desk?.screenMoves ?? false);
      if (refusal) return refuse(id, refusal);
      const parsed = parseArgs(op, args);
      if (!parsed.ok) return refuse(id, parsed.error);
      if (op === 'camera') client.camera = true;
      const answer = invoke(api, op, parsed.value);
      // A slow operation (a photo read) answers when done; invoke turns its failure into a reply.
      if (answer instanceof Promise) void answer.then((r) => send(ws, { id, ...r }));
      else send(ws, { id, ...answer });
    };
    const gone = () => {
      clearTimeout(idle);
      clients.delete(ws);
    };
    ws.on('close', gone);
    ws.on('error', () => {
      gone();
      ws.terminate();
    });
  });

  // Snapshots go out after the reply to the command that caused them, at most once per display
  // frame: a burst of commands (an import, a fast table) costs one snapshot, not one each.
  let pending = false;
  // Pushes still waiting when the server closes are cancelled: the store may be closed right after.
  const timers = new Set<NodeJS.Timeout>();
  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const unsubscribe = o.session.onChange(() => {
    if (pending) return;
    pending = true;
    later(() => {
      pending = false;
      const msg = JSON.stringify({ push: 'snapshot', snapshot: o.session.snapshot() } satisfies ServerMessage);
      for (const [ws, c] of clients) if (c.role && ws.readyState === ws.OPEN) ws.send(msg);
    }, SNAPSHOT_FRAME_MS);
  });

  let cameraPending = false;
  const unsubscribeCamera = o.camera?.onChange(() => {
    if (cameraPending) return;
    cameraPending = true;
    later(() => {
      cameraPending = false;
      if (!o.camera) return;
      const msg = JSON.stringify({ push: 'camera', camera: o.camera.view(true) } satisfies ServerMessage);
      for (const [ws, c] of clients) if (c.role && c.camera && ws.readyState === ws.OPEN) ws.send(msg);
    }, CAMERA_VIEW_MS);
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port ?? 0, lan ? '0.0.0.0' : '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const camera = o.camera;
  if (camera) {
    try {
      frames = await FrameSocket.start(
        { token: mainToken, origins: [`http://127.0.0.1:${port}`] },
        { onFrame: (f) => camera.socketFrame(f, frames!), onRefused: (_seq, why, skipped) => camera.socketFrameRefused(why, skipped) },
      );
    } catch {
      // (No frame socket: the main screen sends its frames here, as binary messages.)
    }
  }

  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    mainToken,
    get pairingCode() {
      return desk?.code ?? null;
    },
    pairing: desk,
    frameSocket: frames,
    close: async () => {
      await frames?.close();
      unsubscribe();
      unsubscribeUnpair?.();
      unsubscribeCamera?.();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const ws of clients.keys()) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
