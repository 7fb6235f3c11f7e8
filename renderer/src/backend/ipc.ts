import type { Backend, PreloadApi } from './types.js';

export function ipcBackend(api: PreloadApi): Backend {
  return { api, onSnapshot: (l) => api.onSnapshot(l), onClosed: () => {}, onCamera: (l) => api.onCamera(l), sendFrame: (jpeg) => void api.cameraFrame(jpeg) };
}
