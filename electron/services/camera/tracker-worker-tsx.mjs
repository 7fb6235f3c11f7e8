// The tracker's worker started from the TypeScript sources (tests, benches, browser mode under tsx):
// a worker thread does not inherit the loader its parent was started with, so tsx is registered here
// before the worker's module is imported. The built app starts out/main/tracker-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./tracker-worker.ts');
