import { createRequire } from 'node:module';

// Loaded with Node's own require: the 13 MB emscripten bundle must not go through a bundler's or
// a test runner's module transform (vitest hangs transforming it).
const require = createRequire(import.meta.url);

/**
 * The opencv.js module object. Typed loosely on purpose: the package's bundled .d.ts lacks the
 * aruco/charuco bindings and differs from the 4.12 runtime in places. Every use of `Cv` is wrapped
 * in a small typed function inside calibration/, so the looseness stops at this folder's edge.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Cv = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Mat = any;

let loading: Promise<Cv> | undefined;
let loaded: Cv | undefined;

/** The module once loaded, else undefined (never loads it). */
export function loadedCv(): Cv | undefined {
  return loaded;
}

/**
 * Loads the opencv.js WASM module once per process (it is ~10 MB and takes ~0.2 s to instantiate).
 * The module object is thenable in some builds; it is unwrapped by hand so `await` cannot loop on it.
 */
export function loadCv(): Promise<Cv> {
  loading ??= new Promise<Cv>((resolve, reject) => {
    const mod = withoutProcessHandlers(() => require('@techstark/opencv-js') as Cv);
    const ready = (cv: Cv): void => {
      if (typeof cv.then === 'function') delete cv.then;
      loaded = cv;
      resolve(cv);
    };
    try {
      if (mod && typeof mod.Mat === 'function') ready(mod);
      else if (mod && typeof mod.then === 'function') mod.then((cv: Cv) => ready(cv));
      else if (mod) mod.onRuntimeInitialized = () => ready(mod);
      else reject(new Error('opencv.js did not load'));
    } catch (err) {
      reject(err);
    }
  });
  return loading;
}

/**
 * Emscripten's Node glue registers `process.on('unhandledRejection', abort)` and an
 * `uncaughtException` handler that rethrows: once OpenCV was loaded, any stray rejection anywhere in
 * the process (a socket, a file read) ended it. What a stray error does is the host's decision
 * (electron/server/last-resort.ts), so the handlers OpenCV adds are taken off again.
 */
function withoutProcessHandlers<T>(load: () => T): T {
  // Typed as plain emitter events: the overloads of process.listeners are per event name.
  const emitter = process as unknown as NodeJS.EventEmitter;
  const events = ['unhandledRejection', 'uncaughtException'];
  const before = events.map((e) => new Set(emitter.listeners(e)));
  try {
    return load();
  } finally {
    events.forEach((e, i) => {
      for (const l of emitter.listeners(e)) if (!before[i]!.has(l)) emitter.off(e, l as (...a: unknown[]) => void);
    });
  }
}

/** Runs `fn` with Mats that are deleted afterwards whatever happens (WASM memory is not GC'd). */
export function withMats<T>(mats: Mat[], fn: () => T): T {
  try {
    return fn();
  } finally {
    for (const m of mats) if (m && !m.isDeleted?.()) m.delete();
  }
}
