/**
 * The services' side of the tracker's worker (tracker-protocol.ts): one worker thread per client,
 * requests answered in order, a mirror of where the tracker stands (its copy of the game, its
 * calibration) kept from the replies so the services never wait for it to answer a question about
 * them. The services' thread never reads a frame: the session, the store and the WebSocket go on
 * while the worker reads.
 *
 * A worker that exits (a crash, killed) or leaves its oldest request unanswered for `timeoutMs` (a
 * hang) is ended and the client is down for good: every request it had not answered is refused with
 * `TrackerDown`, and nothing it says after that is heard. The camera service then starts another
 * client (a new generation) and levels it with the session, which is the truth.
 *
 * A client closed in good order (another game, other calibration, the service closed) with nothing
 * unanswered leaves its worker idle for the next client of this process, which makes its tracker
 * there: OpenCV, the model and the drawn templates are then loaded already (seconds each on a busy
 * machine), as they were when the tracker ran on the services' thread. A worker that went down is
 * never used again.
 */
import { Worker } from 'node:worker_threads';
import type { Command } from '../../../engine/game/commands.js';
import { Game } from '../../../engine/game/game.js';
import { defaultCatalog } from '../../../engine/game/engine.js';
import type { Homography } from '../../../calibration/geometry.js';
import { earlierTileIn, type EarlierTileState } from '../../../models/track/earlier-tile.js';
import type { CreateArgs, Faults, Replies, ReplyMessage, Request, TrackerState } from './tracker-protocol.js';
import { workerEntry } from './worker-entry.js';

/** The worker went down (crashed, killed, or hung): what it was asked and had not answered is refused with this. */
export class TrackerDown extends Error {
  constructor(
    readonly why: 'crashed' | 'hung' | 'closed',
    message: string,
  ) {
    super(message);
  }
}

export interface TrackerClientOptions {
  /** The oldest unanswered request may wait this long before the worker is taken to hang (default 60 s). */
  readonly timeoutMs?: number;
  /** …and making the tracker (OpenCV, the model, the table's enrolled crops) this long (default 180 s). */
  readonly createTimeoutMs?: number;
}

/** How long a closed client's worker may take to answer what it was asked before it is ended (`close`). */
const CLOSE_DRAIN_MS = 10_000;
/** One worker left idle by a client closed in good order (unref'd: it does not keep the process up). */
let idle: { readonly worker: Worker; readonly forget: () => void } | null = null;
/** Request ids across clients: a reused worker never answers one client with another's id. */
let nextId = 1;

function idleWorker(): Worker | null {
  const w = idle;
  idle = null;
  if (!w) return null;
  w.worker.off('error', w.forget).off('exit', w.forget);
  return w.worker;
}

function leaveIdle(worker: Worker): boolean {
  if (idle) return false;
  // Gone while idle (it should not): not handed out again.
  const forget = () => {
    if (idle?.worker === worker) idle = null;
  };
  worker.on('error', forget).on('exit', forget);
  worker.unref();
  idle = { worker, forget };
  return true;
}

interface Pending {
  readonly op: Request['op'];
  readonly sent: number;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: Error) => void;
}

export class TrackerClient {
  /** The tracker's copy of the game, as its last reply left it. */
  readonly game: Game;
  calibratedFrom: 'markers' | 'start piece corners' | null = null;
  tableToImage: Homography | null = null;
  /** The cells with a tile the tracker's game lacks, as its last reply left them (Tracker `unreadCells`). */
  private ahead: ReadonlySet<number> = new Set();
  private firstSeen: ReadonlyMap<number, number> = new Map();
  /** Tracker `figureWaits`, as its last reply left it. */
  figureWaits = false;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private downWith: TrackerDown | null = null;
  private readonly downListeners = new Set<(d: TrackerDown) => void>();

  private constructor(
    readonly generation: number,
    setup: CreateArgs['setup'],
    private readonly o: TrackerClientOptions,
  ) {
    const g = Game.start(setup, defaultCatalog());
    if (!g.ok) throw new Error(`tracker: the setup is not playable: ${g.reason}`);
    this.game = g.value;
    const reused = idleWorker();
    this.worker = reused ?? new Worker(workerEntry('tracker-worker', import.meta.url));
    this.worker.ref();
    this.worker.on('message', this.onMessage).on('error', this.onError).on('exit', this.onExit);
  }

  private readonly onMessage = (m: ReplyMessage) => this.reply(m);
  private readonly onError = (e: Error) => this.goDown(new TrackerDown('crashed', `the tracker's worker failed: ${e.message}`));
  private readonly onExit = (code: number) => this.goDown(new TrackerDown('crashed', `the tracker's worker stopped (exit code ${code})`));

  /** A worker with a tracker made for this game (generation: how many were made before it for this service). */
  static async start(generation: number, args: CreateArgs, o: TrackerClientOptions = {}): Promise<{ client: TrackerClient; problems: readonly string[] }> {
    const client = new TrackerClient(generation, args.setup, o);
    try {
      const r = await client.request({ op: 'create', args });
      return { client, problems: r.problems };
    } catch (e) {
      void client.close();
      throw e;
    }
  }

  get calibrated(): boolean {
    return this.tableToImage !== null;
  }

  /**
   * Tracker `earlierTile` on where the worker's tracker stood at its last reply: the camera service
   * weighs an open reading between frames, when nothing is being read, so that is where it stands.
   */
  earlierTile(x: number, y: number, seenAt: number | undefined, state: EarlierTileState): readonly [number, number] | null {
    return earlierTileIn({ ahead: this.ahead, firstSeen: this.firstSeen }, x, y, seenAt ?? -Infinity, state);
  }

  /** Why the worker is down, or null while it answers. */
  get down(): TrackerDown | null {
    return this.downWith;
  }

  /** Requests sent and not answered yet. */
  get busy(): number {
    return this.pending.size;
  }

  onDown(listener: (d: TrackerDown) => void): void {
    this.downListeners.add(listener);
  }

  request<R extends Request>(r: R, transfer: ArrayBuffer[] = []): Promise<Replies[R['op']]> {
    if (this.downWith) return Promise.reject(this.downWith);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { op: r.op, sent: Date.now(), resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, ...r }, transfer);
      if (this.pending.size === 1) this.arm();
    });
  }

  feed(bytes: Uint8Array, index: number): Promise<Replies['feed']> {
    return this.request({ op: 'feed', bytes, index });
  }

  level(commands: readonly Command[]): Promise<Replies['level']> {
    return this.request({ op: 'level', commands });
  }

  faults(f: Faults): Promise<null> {
    return this.request({ op: 'faults', faults: f });
  }

  /** Ends the worker now, as a crash would (tests: the worker killed mid-read). */
  kill(): void {
    void this.worker.terminate();
  }

  /**
   * Done with this client: what it had not answered is refused. Its worker is left idle for the next
   * client when it answered everything and none is idle yet; otherwise ended.
   */
  async close(): Promise<void> {
    const healthy = !this.downWith && this.pending.size === 0;
    const answering = this.downWith ? 0 : this.pending.size;
    this.goDown(new TrackerDown('closed', "the tracker's worker was closed"));
    if (healthy) {
      this.worker.off('message', this.onMessage).off('error', this.onError).off('exit', this.onExit);
      if (leaveIdle(this.worker)) return;
    }
    // A worker ended mid-request may be inside the model's inference, which onnxruntime-node runs on
    // a thread of its own: its completion then calls into a thread that is gone, and the whole
    // process aborts (tests/app/tracker-close.test.ts). So a worker still answering first answers
    // what it was asked (unheard: its client is closed), for at most CLOSE_DRAIN_MS.
    if (answering > 0) await this.answered(answering, CLOSE_DRAIN_MS);
    await this.worker.terminate();
  }

  /** Resolves once the worker has sent `n` more replies, stopped, or `ms` have passed. */
  private answered(n: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let left = n;
      const done = () => {
        clearTimeout(timer);
        this.worker.off('message', one).off('exit', done);
        resolve();
      };
      const one = () => {
        if (--left <= 0) done();
      };
      const timer = setTimeout(done, ms);
      this.worker.on('message', one).on('exit', done);
    });
  }

  private reply(m: ReplyMessage): void {
    if (this.downWith) return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.state) this.mirror(m.state);
    this.arm();
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error));
  }

  /** The tracker's game and calibration as the worker reports them. */
  private mirror(s: TrackerState): void {
    this.calibratedFrom = s.calibratedFrom;
    this.tableToImage = s.tableToImage;
    this.ahead = new Set(s.ahead);
    this.firstSeen = new Map(s.firstSeen);
    this.figureWaits = s.figureWaits;
    while (this.game.history.length > s.keep) this.game.undo();
    for (const c of s.add) {
      const r = this.game.play(c);
      if (!r.ok) throw new Error(`tracker mirror: the worker's ${c.type} was refused here: ${r.reason}`);
    }
  }

  /** The oldest unanswered request must be answered in time; after that, the next oldest. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const oldest = this.pending.values().next().value as Pending | undefined;
    if (!oldest || this.downWith) return;
    const limit = oldest.op === 'create' ? (this.o.createTimeoutMs ?? 180_000) : (this.o.timeoutMs ?? 60_000);
    const left = Math.max(0, limit - (Date.now() - oldest.sent));
    this.timer = setTimeout(() => {
      this.goDown(new TrackerDown('hung', `the tracker's worker did not answer in ${Math.round(limit / 1000)} s (${oldest.op})`));
      void this.worker.terminate();
    }, left);
    this.timer.unref();
  }

  private goDown(d: TrackerDown): void {
    if (this.downWith) return;
    this.downWith = d;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(d);
    if (d.why !== 'closed') for (const l of this.downListeners) l(d);
  }
}
