/**
 * "Watch a demo game": the bundled recording's game set up as it was recorded and played by itself,
 * so that a newcomer sees the camera read a whole game in a few minutes. The recording plays as the
 * camera (the services' RecordingCamera; every frame goes through the tracker as a real camera's
 * would), and what a camera cannot see — the draws it cannot, tower floors, nominations, turn ends,
 * the answers to its questions, a tile it could not read, a reading it got wrong — comes from the
 * recording's own record (its ground truth), played through the same session and proposal desk as a
 * table's input, each said as a line ("Demo table: P1 ends the turn"). The table's part is
 * demo-table.ts, the same table the camera tests play.
 *
 * Stopped, the recording stops too (the camera goes to "no camera") and the game stays as it is, to
 * be continued by hand. The demo stops by itself when the table loads or starts another game or
 * chooses another camera source.
 */
import { fail, ok, type Result } from '../../../engine/result.js';
import type { Command } from '../../../engine/game/commands.js';
import { readManifest } from '../../../models/scene/recording.js';
import { DEMO_OFF, type DemoView } from '../../contract/demo.js';
import type { CameraService } from '../camera/camera-service.js';
import { recordingInfo } from '../camera/recording-info.js';
import type { GameSession } from '../session/session.js';
import { describeCommand } from '../session/describe.js';
import { TableWords, unlit } from '../session/words.js';
import { agreed, isCameraMove, manifestWithoutDraws, nextStep, type TableStep } from './demo-table.js';
import { sameMove } from '../../../models/track/same-move.js';

export interface DemoOptions {
  readonly session: GameSession;
  readonly camera: CameraService;
}

/** Lines of the demo table's part kept for the screen. */
const LINES = 8;
/** How long the demo's table takes over each input at pace 1, so a watcher can follow it (ms). */
const TABLE_MS = 600;
/** How often the table looks again while it waits on the camera (ms). */
const LOOK_MS = 100;

interface Truth {
  readonly commands: readonly Command[];
  readonly visits: readonly { readonly stillFrom: number; readonly camera: readonly number[] }[];
}

const isTile = (c: Command) => c.type === 'placeTile' || c.type === 'placePrizeTile';

export class DemoService {
  private state: DemoView['state'] = 'off';
  private gameId: number | null = null;
  private pace = 1;
  private truth: Truth | null = null;
  private names: readonly string[] = [];
  private lines: string[] = [];
  private counts = { tilesByTable: 0, answered: 0, takenBack: 0 };
  private problem: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  /** The last step took a reading back or turned it down: the right move goes in by hand next. */
  private fix = false;
  /** The demo is changing the game itself (its own new game, its own input): not the table's doing. */
  private own = false;

  constructor(private readonly o: DemoOptions) {
    o.camera.showDemo(() => this.view());
    o.session.onChange(() => this.sessionChanged());
  }

  view(): DemoView {
    if (this.state === 'off' && !this.problem) return DEMO_OFF;
    const tiles = this.truth?.commands.filter(isTile).length ?? 0;
    const game = this.gameId !== null && this.o.session.currentGameId === this.gameId ? this.o.session.currentGame : null;
    const laid = game ? Math.min(agreed(this.truth?.commands ?? [], game.commands), game.commands.length) : 0;
    const laidTiles = game ? game.commands.slice(0, laid).filter(isTile).length : 0;
    return {
      state: this.state,
      gameId: this.gameId,
      pace: this.pace,
      lines: [...this.lines],
      tiles,
      tilesFromCamera: Math.max(0, laidTiles - this.counts.tilesByTable),
      tilesByTable: this.counts.tilesByTable,
      answered: this.counts.answered,
      takenBack: this.counts.takenBack,
      problem: this.problem,
    };
  }

  /**
   * Sets up the recording's game (a new game; the one in progress stays in the store) and plays it:
   * the recording at its frame rate times `pace`, the table's answers as much faster.
   */
  start(pace = 1): Result<DemoView> {
    if (this.state === 'playing') return fail('the demo game is playing already');
    const dir = this.o.camera.recordingDir;
    if (!dir) return fail('there is no recorded game to play (no recording was configured)');
    const info = recordingInfo(dir);
    if (!info.ok) return fail(`the recorded game cannot be played: ${info.reason}`);
    const manifest = readManifest(dir);
    if (!manifest.ok) return fail(`the recorded game cannot be played: ${manifest.error}`);
    // The record's own commands, less every draw its placement implies: the camera reads those.
    const truth = manifestWithoutDraws({ commands: manifest.value.commands as unknown as Command[], visits: manifest.value.visits });
    this.own = true;
    try {
      this.o.camera.use('none');
      const id = this.o.session.newGame(info.value.setup);
      if (!id.ok) return fail(`the demo game could not be set up: ${id.reason}`);
      this.gameId = id.value;
      const used = this.o.camera.use('recording', undefined, pace);
      if (!used.ok) return fail(`the demo game's recording cannot be played: ${used.reason}`);
    } finally {
      this.own = false;
    }
    this.truth = truth;
    this.names = info.value.setup.players.map((p) => p.name);
    this.pace = pace;
    this.lines = [];
    this.counts = { tilesByTable: 0, answered: 0, takenBack: 0 };
    this.problem = null;
    this.fix = false;
    this.state = 'playing';
    this.say(`the demo game is set up as recorded (${this.names.join(' and ')}); the camera reads the recording, the table's part comes from its record`);
    this.timer = setInterval(() => void this.tick(), LOOK_MS);
    void this.tick();
    return ok(this.view());
  }

  /** Stops the demo: the recording stops, and the game is left as it is, to go on by hand. */
  stop(why: string | null = null): Result<DemoView> {
    if (this.state !== 'playing') return fail('no demo game is playing');
    this.halt('stopped', why);
    // The recording stops, and what it showed beyond the game is not read: the game goes on by hand.
    if (this.o.camera.view().source === 'recording') {
      this.o.camera.use('none');
      this.o.camera.dropHeld();
    }
    this.say(why ? `stopped: ${why}` : 'stopped: the game goes on by hand from here');
    return ok(this.view());
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.state = this.state === 'playing' ? 'stopped' : this.state;
  }

  private halt(state: DemoView['state'], problem: string | null): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.state = state;
    this.problem = problem;
    this.o.camera.viewChanged();
  }

  private sessionChanged(): void {
    if (this.state !== 'playing' || this.own) return;
    if (this.o.session.currentGameId !== this.gameId) this.stop('another game was opened');
  }

  private say(line: string): void {
    this.lines.push(`Demo table: ${line}`);
    if (process.env.DEMO_DEBUG) console.log(`[demo] ${line}`);
    if (this.lines.length > LINES) this.lines.shift();
    this.o.camera.viewChanged();
  }

  /** What the table does next: everything it can do now, one input after another at the table's pace. */
  private async tick(): Promise<void> {
    if (this.busy || this.state !== 'playing') return;
    this.busy = true;
    try {
      for (;;) {
        await this.o.camera.settled();
        if (this.state !== 'playing') return;
        let step = this.next();
        if (step?.do === 'wait' && this.fix) {
          // The table took a reading back or turned it down: it lays the right tile in by hand at once,
          // as a table corrects the camera, rather than wait for it to read that tile again.
          const truth = this.truth!.commands;
          const k = agreed(truth, this.o.session.currentGame!.commands);
          if (truth[k]) step = { do: 'enter', command: truth[k], missed: true };
        }
        if (step === null || step.do === 'wait') return;
        if (step.do === 'undo' && this.putBefore()) continue;
        this.fix = step.do === 'undo' || step.do === 'reject';
        if (step.do === 'done') {
          this.halt('finished', null);
          this.say('the recorded game is over: final scores as recorded');
          if (this.o.camera.view().source === 'recording') this.o.camera.use('none');
          return;
        }
        this.act(step);
        if (TABLE_MS / this.pace >= 1) await new Promise((r) => setTimeout(r, TABLE_MS / this.pace));
      }
    } catch (e) {
      this.halt('stopped', `the demo's table could not go on: ${(e as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  /** The table's next step, or null when the demo cannot go on (it stops, saying why). */
  private next(): TableStep | null {
    const truth = this.truth!;
    const game = this.o.session.currentGame;
    if (!game || this.o.session.currentGameId !== this.gameId) {
      this.stop('another game was opened');
      return null;
    }
    const view = this.o.camera.view();
    if (view.source !== 'recording') {
      this.stop('the camera source was changed');
      return null;
    }
    const p = agreed(truth.commands, game.commands);
    const visit = truth.visits.find((v) => v.camera.includes(p));
    const visitEnd = visit ? visit.stillFrom + 1 : -1;
    // The camera can still read the next move while it reads (or its tracker loads) and it holds
    // frames, or the recording has not yet played past that move's visit.
    const reads = view.reading || view.waiting === 'the tracker to load';
    const playing = view.status === 'live' || view.status === 'starting';
    const mayRead = reads && (view.frames.queued > 0 || (playing && view.frames.last <= visitEnd));
    return nextStep(truth.commands, { history: game.commands, open: view.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: mayRead, figureWaits: view.figureWaits });
  }

  /**
   * The camera read a move before table input that comes first in the record (a ransom paid at the
   * start of a turn, before the tile the camera saw laid): the input is put in before the move, where
   * it belongs, rather than the camera's right reading taken back. False when that is not the case or
   * the rules refuse it.
   */
  private putBefore(): boolean {
    const truth = this.truth!.commands;
    const history = this.o.session.currentGame!.commands;
    const k = agreed(truth, history);
    const read = history[k];
    if (!read || !isCameraMove(read)) return false;
    let j = k;
    while (j < truth.length && !isCameraMove(truth[j]!)) j++;
    if (j === k || !truth[j] || !sameMove(truth[j]!, read)) return false;
    this.own = true;
    try {
      if (!this.o.session.insert(k, truth[k]!).ok) return false;
    } finally {
      this.own = false;
    }
    this.say(`${unlit(describeCommand(truth[k]!, new TableWords(this.o.session.currentGame!.state)))} (before the move the camera read)`);
    return true;
  }

  private act(step: Exclude<TableStep, { do: 'done' } | { do: 'wait' }>): void {
    const session = this.o.session;
    // Said against the game before the move (its tiles, names and places), with no board to light them.
    const words = (c: Command) => unlit(describeCommand(c, new TableWords(session.currentGame!.state)));
    this.own = true;
    try {
      if (step.do === 'undo') {
        const r = session.undo();
        if (!r.ok) throw new Error(r.reason);
        this.counts.takenBack++;
        this.say(`takes back the camera's reading “${words(step.wrong)}”: that is not what was played`);
      } else if (step.do === 'reject') {
        const r = this.o.camera.answer(step.id, 'reject');
        if (!r.ok) throw new Error(r.reason);
        this.say('none of the camera\'s readings is what was played: rejected');
      } else if (step.do === 'answer') {
        const r = this.o.camera.answer(step.id, step.answer);
        if (!r.ok) throw new Error(r.reason);
        this.counts.answered++;
        this.say(`answers the camera's question: ${words(step.command)}`);
      } else {
        const r = session.play(step.command);
        if (!r.ok) throw new Error(`${words(step.command)}: ${r.reason}`);
        if (isTile(step.command)) this.counts.tilesByTable++;
        this.say(step.missed && isCameraMove(step.command) ? `${words(step.command)} (the camera did not read it)` : words(step.command));
      }
    } finally {
      this.own = false;
    }
  }
}
