// The frame socket's worker started from the TypeScript sources (tests, benches, browser mode under
// tsx): a worker thread does not inherit its parent's loader, so tsx is registered here first. The
// built app starts out/main/frame-socket-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./frame-socket-worker.ts');
