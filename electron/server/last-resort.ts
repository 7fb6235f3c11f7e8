/**
 * The process's last resort (browser mode, Electron's main process). Every handler answers its own
 * faults (issue 28); an error that still escapes one is a bug, and ending the process for it would
 * end a table's evening over, at worst, one lost reply: the truth is in SQLite, written before any
 * acknowledgement, so the services go on and the error is logged for the bug report.
 */
export function keepRunningOnStrayErrors(log: (line: string) => void = (l) => console.error(l)): void {
  process.on('unhandledRejection', (e) => log(`unhandled rejection (the app goes on): ${describe(e)}`));
  process.on('uncaughtException', (e) => log(`uncaught exception (the app goes on): ${describe(e)}`));
}

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
