/**
 * The frame socket: where the main screen's camera sends its frames in browser mode, served by a
 * worker thread of its own (frame-socket-worker.ts) so that the services' thread never receives a
 * frame it does not keep. The worker looks at each frame; the services get its grey copy (`onFrame`,
 * in the order the frames came) and fetch the bytes of the frames they keep (`bytes`), releasing the
 * rest as they go (`release`). The main socket still takes frames (a screen that cannot reach this
 * one sends them there).
 */
import { Worker } from 'node:worker_threads';
import type { FrameLook, FrameSocketOptions, FromFrameSocket, ToFrameSocket } from './frame-socket-protocol.js';
import { workerEntry } from './worker-entry.js';

/** A frame the socket's worker looked at: its number there, its size, its grey copy or why it has none. */
export interface SocketFrame {
  readonly seq: number;
  readonly size: readonly [number, number];
  readonly look: FrameLook;
}

/** Where the bytes of socket frames are: fetched when kept, released when no longer wanted. */
export interface HeldFrames {
  bytes(seqs: readonly number[]): Promise<readonly (Uint8Array | null)[]>;
  release(below: number): void;
  /** The screen is told on the socket why this frame was not taken. */
  refuse(seq: number, why: string): void;
}

export interface FrameSocketEvents {
  onFrame(f: SocketFrame): void;
  /** A frame refused before decoding, or not looked at (`skipped`: the services were behind). */
  onRefused(seq: number, why: string, skipped: boolean): void;
}

export class FrameSocket implements HeldFrames {
  private nextId = 1;
  private readonly pending = new Map<number, (frames: readonly (Uint8Array | null)[]) => void>();
  private down: string | null = null;
  /** Frames whose bytes the services fetched (the rest never reached their thread). */
  fetched = 0;

  private constructor(
    private readonly worker: Worker,
    /** The port on 127.0.0.1 the worker listens on. */
    readonly port: number,
  ) {}

  /** Starts the worker and resolves once it listens; refused (rejected) with why if it cannot. */
  static start(o: Omit<FrameSocketOptions, 'thumbWidth' | 'maxBacklog'> & Partial<FrameSocketOptions>, events: FrameSocketEvents): Promise<FrameSocket> {
    const options: FrameSocketOptions = { thumbWidth: 160, maxBacklog: 600, ...o };
    const worker = new Worker(workerEntry('frame-socket-worker', import.meta.url), { workerData: options });
    return new Promise((resolve, reject) => {
      let socket: FrameSocket | null = null;
      const gone = (why: string) => {
        if (!socket) return reject(new Error(why));
        socket.down = why;
        for (const p of socket.pending.values()) p([]);
        socket.pending.clear();
      };
      worker.on('error', (e) => gone(`the frame socket failed: ${e.message}`));
      worker.on('exit', (code) => gone(`the frame socket stopped (exit code ${code})`));
      worker.on('message', (m: FromFrameSocket) => {
        switch (m.kind) {
          case 'listening':
            socket = new FrameSocket(worker, m.port);
            return resolve(socket);
          case 'frame':
            return events.onFrame({ seq: m.seq, size: m.size, look: m.look });
          case 'refused':
            return events.onRefused(m.seq, m.why, m.skipped);
          case 'bytes': {
            const p = socket?.pending.get(m.id);
            socket?.pending.delete(m.id);
            return p?.(m.frames);
          }
        }
      });
    });
  }

  /** The socket's address, for the main screen. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}/`;
  }

  /** The bytes of these frames, null for any no longer held (or all, the worker being gone). */
  bytes(seqs: readonly number[]): Promise<readonly (Uint8Array | null)[]> {
    if (this.down) return Promise.resolve(seqs.map(() => null));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, (frames) => {
        this.fetched += frames.filter((f) => f !== null).length;
        resolve(seqs.map((_, i) => frames[i] ?? null));
      });
      this.worker.postMessage({ op: 'bytes', id, seqs } satisfies ToFrameSocket);
    });
  }

  refuse(seq: number, why: string): void {
    if (!this.down) this.worker.postMessage({ op: 'refuse', seq, why } satisfies ToFrameSocket);
  }

  release(below: number): void {
    if (!this.down) this.worker.postMessage({ op: 'release', below } satisfies ToFrameSocket);
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
