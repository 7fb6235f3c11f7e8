/**
 * The one interface the screens talk to. Two implementations: Electron IPC (the preload's API) and
 * WebSocket (browser mode and second screens). Screens never know which one they have.
 */
import type { CompanionApi } from '../../../electron/contract/api.js';
import type { CameraView } from '../../../electron/contract/camera.js';
import type { Snapshot } from '../../../electron/contract/snapshot.js';

export type Role = 'main' | 'screen';

export interface Backend {
  readonly api: CompanionApi;
  onSnapshot(listener: (s: Snapshot) => void): () => void;
  /** The transport is gone (browser mode's server stopped); IPC never calls it. */
  onClosed(listener: () => void): void;
  onCamera(listener: (v: CameraView) => void): () => void;
  /** One JPEG frame of this screen's camera to the services (fire and forget; order kept). */
  sendFrame(jpeg: Uint8Array<ArrayBuffer>): void;
}

/** What the preload exposes on window.companion. */
export type PreloadApi = CompanionApi & { onSnapshot(listener: (s: Snapshot) => void): () => void; onCamera(listener: (v: CameraView) => void): () => void };
