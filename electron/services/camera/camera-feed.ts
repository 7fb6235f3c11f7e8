/**
 * Where the camera's frames come from, and whether it is live: the screen's own camera (its frames
 * and reports arrive over the API), the bundled recording played here (only into a game set up as it
 * was recorded, from its start for each new game), or none (manual entry only). What the table is
 * told about the source — its label, its state, and a message when it stopped — is kept here.
 */
import { fail, ok, type Result } from '../../../engine/result.js';
import type { CameraReport, CameraSourceKind, CameraStatusKind } from '../../contract/camera.js';
import type { GameSession } from '../session/session.js';
import { RecordingCamera } from './recording-camera.js';
import { recordingInfo, setupMismatch, type RecordingInfo } from './recording-info.js';

export interface CameraFeedOptions {
  readonly session: GameSession;
  /** The bundled recording (a directory), if any. */
  readonly recording?: string | null;
  /** Its playback speed (tests: faster than real time). */
  readonly speed?: number;
  /** A frame from the recording (the screen's camera sends its own through the service). */
  readonly frame: (jpeg: Uint8Array) => void;
  readonly changed: () => void;
}

export class CameraFeed {
  kind: CameraSourceKind = 'none';
  status: CameraStatusKind = 'off';
  label = 'no camera';
  /** Why the camera reads nothing (stopped, unplugged, a recording that cannot play), or null. */
  message: string | null = null;
  readonly recording: RecordingInfo | null = null;
  private readonly recordingProblem: string | null = null;
  private player: RecordingCamera | null = null;
  private speed: number;

  constructor(private readonly o: CameraFeedOptions) {
    this.speed = o.speed ?? 1;
    if (o.recording) {
      const r = recordingInfo(o.recording);
      if (r.ok) this.recording = r.value;
      else this.recordingProblem = r.reason;
    }
  }

  /**
   * Chooses the source. 'browser': the screen's camera sends frames (the recording stops);
   * 'recording': the bundled recording plays from its start; 'none': no camera, manual entry only.
   */
  use(kind: CameraSourceKind, label?: string, speed?: number): Result<void> {
    void this.stopPlayer();
    if (speed !== undefined) this.speed = speed;
    this.kind = kind;
    this.message = null;
    if (kind === 'none') {
      this.status = 'off';
      this.label = 'no camera';
    } else if (kind === 'browser') {
      this.status = 'starting';
      this.label = label ?? 'this screen’s camera';
    } else {
      if (!this.recording) {
        this.kind = 'none';
        this.status = 'off';
        return fail(`no recording to play: ${this.recordingProblem ?? 'none was configured'}`);
      }
      this.label = `recorded game (${this.recording.dir.split(/[\\/]/).pop()})`;
      this.status = 'starting';
      this.startPlayer();
    }
    return ok(undefined);
  }

  /** The screen's camera reports: live, or its track ended (unplugged). */
  report(r: CameraReport): Result<void> {
    if (this.kind !== 'browser') return fail(`the camera source is ${this.kind}, not this screen's camera`);
    if (r.label) this.label = r.label;
    if (r.state === 'live') {
      this.status = 'live';
      this.message = null;
    } else {
      this.status = 'unplugged';
      this.message = `The camera stopped${r.reason ? ` (${r.reason})` : ''}. Nothing it had not read is lost and nothing was committed from it; go on by manual entry, and reconnect it to let it read again.`;
    }
    return ok(undefined);
  }

  /**
   * A frame came from the screen's camera. One taken just before the track ended can arrive after
   * the screen said so: it is read, but the camera stays unplugged until the screen reports it live.
   */
  frameArrived(): void {
    if (this.status === 'starting') {
      this.status = 'live';
      this.message = null;
    }
  }

  /** The session's game changed (`another`: a different game): a recording plays again from its start. */
  gameChanged(another: boolean): void {
    if (this.kind !== 'recording') return;
    if (another) {
      void this.stopPlayer();
      this.startPlayer();
    } else if (!this.player && this.o.session.currentGameId !== null) this.startPlayer();
  }

  private startPlayer(): void {
    const rec = this.recording!;
    const game = this.o.session.currentGame;
    if (!game) {
      this.status = 'off';
      this.message = 'The recording plays once a game is set up as it was recorded.';
      return;
    }
    const mismatch = setupMismatch(game.setup, rec.setup);
    if (mismatch) {
      this.status = 'off';
      this.message = `The recording shows a game set up differently (${mismatch}); start a game set up as it was to follow it.`;
      return;
    }
    const player = new RecordingCamera(rec.dir, this.speed);
    this.player = player;
    player.onFrame((f) => {
      if (this.player === player && f.jpeg) this.o.frame(f.jpeg);
    });
    player.onStatus((s) => {
      if (this.player !== player) return;
      if (s.state === 'live') {
        this.status = 'live';
        this.message = null;
      } else if (s.state === 'stopped') {
        this.status = 'stopped';
        this.message = 'The recording has ended: the camera reads no more; anything left goes in by manual entry.';
      } else {
        this.status = 'unplugged';
        this.message = `The recording cannot be played: ${s.reason}`;
      }
      this.o.changed();
    });
    void player.start();
  }

  /** Stops the recording; its late frames and status are ignored (they no longer come from `this.player`). */
  async stopPlayer(): Promise<void> {
    const p = this.player;
    this.player = null;
    await p?.stop();
  }
}
