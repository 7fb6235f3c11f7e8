import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The camera in the browser plays a recording in real time: beside another browser game on a 2-core
// machine its page sends a third of the frames, still scenes are missed, and the camera (rightly)
// asks instead of reading. It runs by itself once the rest is done (about a minute more): even two
// tracker tests beside it (OpenCV in WebAssembly) left it 5 of 20 moves.
const REAL_TIME = ['tests/app/e2e-camera.test.ts'];

// The longest files, longest first, as CI measured them (seconds on the 2-core machine). Vitest orders
// a fresh clone's files by size, not time, and its two workers then end apart: started first, the long
// ones overlap the rest instead of finishing alone.
const LONGEST = [
  'tests/app/e2e.test.ts', // 144
  'tests/app/e2e-2025.test.ts', // 117
  'tests/app/e2e-demo.test.ts', // 77
  'tests/app/camera-service.test.ts', // 72
  'tests/app/camera-worker.test.ts', // 63
  'tests/app/e2e-2025-river.test.ts', // 48
  'tests/track/tracking.test.ts', // 42
  'tests/app/e2e-words.test.ts', // 40
  'tests/app/camera-nomination.test.ts', // 39
  'tests/app/e2e-teach.test.ts', // 39
  'tests/app/camera-draw.test.ts', // 34
  'tests/track/laid-tile-check.test.ts', // 33
  'tests/track/anchored-crops.test.ts', // 30
  'tests/calibration/grow-plane.test.ts', // 29
  'tests/track/start-piece-corners.test.ts', // 28
  'tests/app/e2e-camera-corners.test.ts', // 27
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST.indexOf(relative(f.project.config.root, f.moduleId).replaceAll('\\', '/'));
      return i < 0 ? LONGEST.length : i;
    };
    // Within a project group: the listed files first, in their order, then the rest as vitest had them.
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => group(a.f) - group(b.f) || rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}

export default defineConfig({
  test: {
    pool: 'threads',
    // Vitest's default is one worker per core less one: a single worker on the 2-core build machines,
    // where the browser games and the tracker replays then run one after another. The browser tests
    // wait on the page much of their time: two workers kept the two cores only two thirds busy
    // (vitest 862 s in CI); three ran the same files in 740 s, every test passing. Four were worse
    // (a third of the files done after 13 minutes, 45 % of the CPU in the kernel).
    maxWorkers: 3,
    // A worker keeps its modules from one test file to the next: OpenCV's WebAssembly, the model and
    // the tile renderer were loaded again for every file (tests/track and tests/calibration: 258 s of
    // CPU → 222 s, 140 → 118 s). No test file mocks a module but ipc.test.ts's 'electron', which no
    // other file imports.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    // Set-up hooks render tile faces or start a browser; on a shared 2-core machine that can take long.
    hookTimeout: 120_000,
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'tests', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, ...REAL_TIME], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'real-time', include: [...REAL_TIME], sequence: { groupOrder: 1 } } },
    ],
  },
});
