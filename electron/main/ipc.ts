/** One IPC channel per operation; every argument checked against the contract before it is used. */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { OPERATION_NAMES, parseArgs, type Reply } from '../contract/api.js';
import { handlers, invoke, type Services } from '../services/api/handlers.js';

export const channel = (op: string) => `companion:${op}`;

export function registerIpc(services: Services, isOurWindow: (e: IpcMainInvokeEvent) => boolean): void {
  const api = handlers(services);
  for (const op of OPERATION_NAMES) {
    ipcMain.handle(channel(op), (event, args: unknown): Reply<unknown> | Promise<Reply<unknown>> => {
      if (!isOurWindow(event)) return { ok: false, error: `${op}: refused, the request did not come from the companion's window` };
      const parsed = parseArgs(op, args);
      if (!parsed.ok) return parsed;
      return invoke(api, op, parsed.value);
    });
  }
}
