/**
 * The tracker's worker reads frames for seconds at a time on a machine that may have two cores; the
 * services' thread answers the table's commands. On Linux the nice value is a thread's own, so the
 * worker lowers its thread's priority (and, inherited, that of the threads it starts: ONNX's), and a
 * command never waits for the scheduler to give a frame's read its turn first.
 * Elsewhere (a process-wide setting there) nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value the tracker's thread runs at (0 normal, 19 lowest). */
export const TRACKER_NICE = 10;

/** Lowers the calling thread's priority on Linux; says what it did, or why it did nothing. */
export function lowerThisThreadsPriority(nice = TRACKER_NICE): string {
  if (process.platform !== 'linux') return `priority left as it is (per-thread priority is Linux's)`;
  try {
    // /proc/thread-self → "<pid>/task/<tid>": setpriority on a thread id sets that thread alone.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return 'priority left as it is (no thread id)';
    setPriority(tid, nice);
    return `thread ${tid} at nice ${nice}`;
  } catch (e) {
    return `priority left as it is (${(e as Error).message})`;
  }
}
