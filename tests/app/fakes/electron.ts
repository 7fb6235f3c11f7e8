/**
 * A stand-in for the `electron` module in the IPC test only: Electron's binary cannot run on the
 * build machines, so this records what main/ipc.ts registers, and the test calls it as Electron would.
 */
type Handler = (event: { sender: unknown }, ...args: unknown[]) => unknown;
export const handlers = new Map<string, Handler>();
export const ipcMain = {
  handle(channel: string, h: Handler) {
    if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    handlers.set(channel, h);
  },
};
