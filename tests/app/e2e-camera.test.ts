/**
 * The camera in a real browser: Debian chromium's fake camera plays a bundled recording
 * (--use-file-for-fake-video-capture), the page sends its frames to browser mode, the tracker reads
 * them and its readings reach the game through the rules. The test is the table: it sets the game up
 * through New Game as recorded, enters what no camera sees (draws, tower floors, tournaments, emblem
 * values, turn ends) through the panels, answers the camera's questions in the top-3 picker from the
 * ground truth (rejecting when the truth is not among them), enters by hand what the camera could not
 * read, and at the end the scores and the audit on screen equal the recording's ground truth. A second
 * test unplugs the camera mid-game.
 *
 * Chromium plays an MJPEG file at a fixed 30 fps and loops it (media/capture/video/
 * file_video_capture_device.cc); the recordings are 3 fps. The test plays a copy with every frame
 * repeated PACE times (6 fps); the page sends a picture only when it differs from the last one sent,
 * so the repeats never reach the tracker. CI plays short-s5 (12 turns); the full demo game is
 * `npm run test:camera-demo` (CAMERA_RECORDING=demo-tower-jc).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { gameView } from '../../electron/services/session/view.js';
import { ensureRendererBuilt } from '../../scripts/renderer-build.js';
import { act, launchChromium } from './helpers/browser.js';
import { agreed, isCameraMove, manifestWithoutDraws, nextStep } from './helpers/camera-table.js';
import { enterByHand } from './helpers/entry.js';

const NAME = process.env.CAMERA_RECORDING ?? 'short-s5';
const DIR = join(import.meta.dirname, '../fixtures/recordings', NAME);
const PACE = 5;
const SHOTS = join(import.meta.dirname, '../../test-output/screens');
// The table never types a draw: each tile laid is its draw (helpers/camera-table.ts).
const manifest = manifestWithoutDraws(JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[]; frames: number; visits: { handFrom: number; stillFrom: number; camera: number[] }[] });
const truth = manifest.commands;
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const record = parsed.record;
const setup = setupFromRecord(record);
const truthGame = Game.replay(setup, truth);
if (!truthGame.ok) throw new Error(truthGame.reason);

let app: BrowserMode;
let browser: Browser;
let page: Page;

let fresh: () => Promise<void>;

/**
 * The table sees the video: which recorded frame each picture the page sent shows (by its look, the
 * nearest of the recording's frames). The count of pictures is no guide: the fake camera plays from
 * the moment the page opens it and loops, and the page sends only pictures that changed.
 */
let recorded: Buffer[] = [];
let shows = new Map<number, number>();
const look = (b: Uint8Array) => sharp(b).resize(64, 48, { fit: 'fill' }).greyscale().raw().toBuffer();
function nearestRecorded(t: Buffer): number {
  let best = -1, bestD = Infinity;
  for (const [i, r] of recorded.entries()) {
    let d = 0;
    for (let k = 0; k < t.length; k++) d += Math.abs(t[k]! - r[k]!);
    if (d < bestD) [best, bestD] = [i, d];
  }
  return best;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const rendererDir = await ensureRendererBuilt();
  const tmp = mkdtempSync(join(tmpdir(), 'companion-camera-e2e-'));
  const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];
  recorded = await Promise.all(frames.map(look));
  const paced = join(tmp, 'paced.mjpeg');
  writeFileSync(paced, Buffer.concat(frames.flatMap((f) => Array<Buffer>(PACE).fill(Buffer.from(f)))));
  let n = 0;
  // Each game on its own app and browser: the fake camera plays its file from the moment the page
  // opens it, and a second game's page in the same app opens it while the New Game form is filled,
  // so its video would run ahead of the game (a finished board of another game in view).
  fresh = async () => {
    app = await startBrowserMode({ dataFile: join(tmp, `c-${n++}.sqlite`), rendererDir, recording: DIR });
    shows = new Map();
    const camera = app.camera;
    const frame = camera.frame.bind(camera);
    camera.frame = (bytes) => {
      const i = camera.view().frames.received;
      void look(bytes).then((t) => shows.set(i, nearestRecorded(t)), () => undefined);
      return frame(bytes);
    };
    browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${paced}`]);
  };
}, 120_000);

beforeEach(() => fresh(), 120_000);

afterEach(async () => {
  await browser?.close();
  await app?.close();
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `camera-${NAME}-${name}.png`) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const game = () => app.session.currentGame!;

async function openPage(): Promise<void> {
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  // How often the page opens the camera (each opening is a stream of its own).
  await page.addInitScript(`(() => {
    const md = navigator.mediaDevices;
    const open = md.getUserMedia.bind(md);
    window.__camerasOpened = 0;
    md.getUserMedia = (c) => { window.__camerasOpened++; return open(c); };
  })()`);
  await page.goto(app.server.url);
}

async function show(screen: 'new' | 'play' | 'camera' | 'log' | 'audit'): Promise<void> {
  const button = page.locator(`button[data-screen=${screen}]`);
  if (!(await button.getAttribute('class'))?.includes('active')) await button.click();
}

async function setUpGame(shotName?: string): Promise<void> {
  await show('new');
  const form = page.getByTestId('new-game');
  await form.waitFor();
  for (let i = 2; i < record.players.length; i++) await form.getByRole('button', { name: 'Add a player' }).click();
  for (const [i, p] of record.players.entries()) {
    await form.locator(`input[name=player-${i}]`).fill(p.name);
    await form.locator(`select[name=colour-${i}]`).selectOption(p.color);
  }
  for (const x of record.expansions) if (x !== 'base') await form.locator(`input[name=exp-${x}]`).check();
  if (shotName) await shot(shotName);
  await act(page, 'start', () => page.getByTestId('start-game').click());
  await page.getByTestId('board').waitFor();
  // The game on the table is the recorded one: same seats, expansions and start.
  expect(game().setup.players).toEqual(setup.players);
  expect([...game().setup.expansions].sort()).toEqual([...setup.expansions].sort());
  expect(game().setup.start).toEqual(setup.start);
  // The page's camera (the fake one) starts with the game and becomes the source.
  await expect.poll(() => app.camera.view().source, { timeout: 20_000 }).toBe('browser');
  await expect.poll(() => app.camera.view().status, { timeout: 20_000 }).toBe('live');
  // Opened once: the page asks to start it on every change until it is open, and a second opening
  // is a second stream that nothing reads or closes (Chromium's fake camera plays each from its start).
  expect(await page.evaluate('window.__camerasOpened')).toBe(1);
}

/** The last still frame of the visit in which the camera could read truth[p]. */
function visitEnd(p: number): number {
  const v = manifest.visits.find((x) => x.camera.includes(p));
  return v ? v.stillFrom + 1 : -1;
}

interface Tally { missed: number; answered: number; rejected: number; wrong: number; byHand: number; notes: string[] }

/**
 * Plays the table until the game holds the whole truth (or `until` says stop). `offset`: the received
 * frame count when the camera (re)started, so that frame indices map onto the recording's.
 */
async function playTable(tally: Tally, offset: () => number, until?: (p: number) => boolean): Promise<void> {
  // Stuck is said, not waited out: the game and the questions unchanged for two minutes (the video loops on).
  let progress = '';
  let since = Date.now();
  let pickerShot = false;
  let current = -1;
  let currentSince = Date.now();
  for (;;) {
    await app.camera.settled();
    const view = app.camera.view();
    const history = game().commands;
    const p = agreed(truth, history);
    const now = JSON.stringify([history.length, view.proposals.map((q) => q.id), view.status]);
    if (now !== progress) [progress, since] = [now, Date.now()];
    else if (Date.now() - since > 120_000) throw new Error(`the table waited two minutes at command ${p} with nothing moving: camera ${view.status}/${view.source}, reading ${view.reading}, waiting for ${view.waiting}, frames ${JSON.stringify(view.frames)}, open ${JSON.stringify(view.proposals.map((q) => q.readings.map((r) => r.command)))}; table ${JSON.stringify(tally)}`);
    if (until?.(p)) return;
    const fileIndex = view.frames.last < offset() ? -1 : (shows.get(view.frames.last) ?? -1);
    // A table waits for the camera while the move's visit may still be on its way (the frame it read
    // last shows the recording before the visit's end, or frames wait to be read), ten seconds at most.
    if (p !== current) [current, currentSince] = [p, Date.now()];
    const mayRead = view.reading && view.status === 'live' && (view.frames.queued > 0 || fileIndex <= visitEnd(p)) && Date.now() - currentSince < 10_000;
    const step = nextStep(truth, { history, open: view.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: mayRead });
    switch (step.do) {
      case 'done':
        return;
      case 'wait':
        await sleep(60);
        break;
      case 'undo':
        tally.wrong++;
        tally.notes.push(`wrong ${JSON.stringify(step.wrong)} at ${p}`);
        await show('log');
        await act(page, 'undo the camera’s wrong move', () => page.getByTestId('undo').click());
        break;
      case 'answer':
      case 'reject': {
        await show('camera');
        const picker = page.locator(`[data-testid=picker][data-proposal="${step.id}"]`);
        await picker.waitFor();
        if (!pickerShot) {
          pickerShot = true;
          await shot('2-picker-question');
        }
        const before = history.length;
        if (step.do === 'answer') {
          const i = step.answer === 'best' ? 0 : step.answer + 1;
          await act(page, `pick reading ${i}`, () => picker.getByTestId(`pick-${i}`).click());
          tally.answered++;
        } else {
          await picker.getByTestId('reject').click();
          await expect.poll(() => app.camera.view().proposals.some((q) => q.id === step.id)).toBe(false);
          // A rejected reading is never committed.
          expect(game().commands.length).toBe(before);
          tally.rejected++;
          tally.notes.push(`rejected at ${p} (frame ${view.frames.last}): ${JSON.stringify(view.proposals.find((q) => q.id === step.id)?.readings.map((r) => r.command))}`);
        }
        break;
      }
      case 'enter': {
        await show('play');
        try {
          await enterByHand(page, step.command);
        } catch (e) {
          // The camera can still read the move from a later still frame while the table fills in the
          // form (the tile stays on the table): the table sees it appear and stops typing. Anything
          // else is a failure.
          await app.camera.settled();
          if (agreed(truth, game().commands) <= p) {
            const v = app.camera.view();
            throw new Error(`${(e as Error).message.split('\n')[0]}\n  entering ${JSON.stringify(step.command)} at ${p}; the game holds ${game().commands.length} commands, the last ${JSON.stringify(game().commands.slice(-2))}; camera ${v.status}/${v.source}, counts ${JSON.stringify(v.counts)}, notices ${JSON.stringify(v.notices)}; table ${JSON.stringify(tally)}`);
          }
          tally.notes.push(`the camera read ${step.command.type} at ${p} while the table was entering it`);
          const alert = page.locator('[data-testid=message][role=alert]');
          if (await alert.count()) await page.locator('[data-testid=message] .close').click();
          break;
        }
        tally.byHand++;
        // A table takes a moment per move it enters (no one enters one in no time); entered at the
        // machine's speed, the page is so busy that Chromium's fake camera stalls for up to a second
        // (the page's MediaStreamTrackProcessor gets no frame), and visits go unseen.
        await sleep(400);
        if (step.missed) {
          tally.missed++;
          tally.notes.push(`missed ${step.command.type} at ${p} (frame ${view.frames.last}, ${view.reading ? 'reading' : `waiting for ${view.waiting}`})`);
        }
        break;
      }
    }
  }
}

async function checkScoresAndAudit(prefix: string): Promise<void> {
  const want = truthGame.ok ? truthGame.value : null;
  const final = want!.state.players.map((p) => p.score);
  await show('play');
  for (const [i, score] of final.entries()) await expect.poll(async () => Number(await page.getByTestId(`total-${i}`).textContent())).toBe(score);
  if (record.expect?.final) expect(final).toEqual(record.expect.final);
  await shot(`${prefix}board`);
  await show('audit');
  await page.getByTestId('audit').waitFor();
  const view = gameView(0, want!);
  for (const [i, score] of final.entries()) {
    expect(Number(await page.getByTestId(`audit-total-${i}`).textContent())).toBe(score);
    const items = await page.getByTestId(`audit-player-${i}`).locator('li b').allTextContents();
    expect(items).toEqual(view.scores.filter((s) => s.players.includes(i)).map((s) => `+${s.points}`));
  }
  await shot(`${prefix}audit`);
}

describe(`the camera in the browser: Chromium's fake camera plays ${NAME}`, () => {
  it('a game set up through New Game, the recording played to its end, the table answering the camera: scores and audit equal the ground truth', async () => {
    await openPage();
    await setUpGame('1-new-game');
    const tally: Tally = { missed: 0, answered: 0, rejected: 0, wrong: 0, byHand: 0, notes: [] };
    await playTable(tally, () => 0, (p) => p >= Math.floor(truth.length / 2));
    await show('camera');
    await shot('2-camera-mid-game');
    await playTable(tally, () => 0);
    await show('camera');
    await expect.poll(() => page.locator('[data-testid=camera-overlay] polygon.laid').count()).toBe(game().state.board.tiles.length);
    await shot('3-camera-end');
    await expect.poll(() => page.getByTestId('camera-committed').textContent()).toBe(String(app.camera.view().counts.committed));
    expect(game().commands).toHaveLength(truth.length);
    await checkScoresAndAudit('4-');
    const view = app.camera.view();
    const cameraMoves = truth.filter(isCameraMove).length;
    console.log(`camera e2e ${NAME}: ${view.counts.committed}/${cameraMoves} camera moves read by the camera, ${tally.answered} answered in the picker, ${tally.rejected} rejected, ${tally.missed} missed, ${tally.wrong} wrong; ${view.frames.received} frames received, ${view.frames.read} read\n  ${tally.notes.join('\n  ')}`);
    // Nothing the camera committed was wrong; it read most moves by itself (the headless replay:
    // short-s5 20/20, demo 115/115, docs/tracking.md, "Measured").
    expect(tally.wrong, `wrong commits; the table's notes: ${tally.notes.join('; ')}`).toBe(0);
    expect(view.counts.committed).toBeGreaterThanOrEqual(Math.floor(cameraMoves * 0.75));
    // The page sent its frames to the frame socket: the services' thread fetched only the kept ones.
    const socket = app.server.frameSocket!;
    expect(socket.fetched).toBeGreaterThan(0);
    expect(socket.fetched).toBeLessThanOrEqual(app.camera.intakeFigures.kept);
  }, 900_000);

  it('the camera unplugged mid-game: a clear message, nothing committed wrongly, nothing lost; it reads again once reconnected', async () => {
    await openPage();
    await setUpGame();
    const tally: Tally = { missed: 0, answered: 0, rejected: 0, wrong: 0, byHand: 0, notes: [] };
    const unplugAt = manifest.visits[5]!.camera[0]!;
    const backAt = manifest.visits[7]!.camera[0]!;
    await playTable(tally, () => 0, (p) => p >= unplugAt);
    const before = game().commands.length;

    await show('camera');
    await page.getByTestId('camera-video').waitFor();
    // What an unplugged camera does to the page: its track ends (a track stopped by the page fires no
    // 'ended' itself, so the event is sent as the browser would send it). Run in the page, hence a string.
    await page.evaluate(`(() => {
      const track = document.querySelector('[data-testid=camera-video]').srcObject.getVideoTracks()[0];
      track.stop();
      track.dispatchEvent(new Event('ended'));
    })()`);
    await page.getByTestId('camera-banner-unplugged').waitFor();
    expect(await page.getByTestId('camera-banner-unplugged').textContent()).toMatch(/The camera stopped \(its video track ended.*manual entry/);
    expect(await page.getByTestId('camera-status').getAttribute('data-status')).toBe('unplugged');
    await shot('5-unplugged');
    // Nothing committed from it meanwhile, and everything accepted so far is still there.
    await app.camera.settled();
    expect(agreed(truth, game().commands), `the game from command ${before - 1} on: ${JSON.stringify(game().commands.slice(before - 1))}; the truth: ${JSON.stringify(truth.slice(before - 1, game().commands.length))}`).toBe(game().commands.length);
    expect(game().commands.length).toBeGreaterThanOrEqual(before);
    expect(app.store.log(app.session.currentGameId!).length, `the log holds only the game's moves (the table took none back): ${JSON.stringify(tally)}`).toBe(game().commands.length);

    // The table goes on by hand for two turns.
    await playTable(tally, () => 0, (p) => p >= backAt);
    const committedBefore = app.camera.view().counts.committed;

    // Reconnected: the fake camera plays its file from the start again.
    await show('camera');
    const offset = app.camera.view().frames.received;
    await page.getByTestId('camera-reconnect').click();
    await expect.poll(() => app.camera.view().status).toBe('live');
    await expect.poll(() => page.getByTestId('camera-banner-unplugged').count()).toBe(0);
    await playTable(tally, () => offset);
    expect(game().commands).toHaveLength(truth.length);
    expect(tally.wrong, `wrong commits; the table's notes: ${tally.notes.join('; ')}`).toBe(0);
    expect(app.camera.view().counts.committed).toBeGreaterThan(committedBefore);
    console.log(`camera e2e ${NAME}, unplugged game: ${app.camera.view().counts.committed} committed by the camera, ${tally.byHand} entered by hand, ${tally.rejected} rejected, ${tally.missed} missed\n  ${tally.notes.join('\n  ')}`);
    await checkScoresAndAudit('6-after-reconnect-');
  }, 600_000);
});

