/** Small helpers for benchmarks: medians of repeated runs, and the `name: value unit` line format. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function line(name: string, value: number, unit: string, digits = 0): string {
  return `${name}: ${value.toFixed(digits)} ${unit}`;
}

/**
 * Runs `fn` `rounds` times and returns each round's CPU time in ms (user + system of this process).
 * CPU time, not wall time: the build machine is shared, and another job's load would otherwise be
 * counted against the engine. For single-threaded work this is the "one core" figure.
 */
export function time(rounds: number, fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t0);
    out.push((d.user + d.system) / 1000);
  }
  return out;
}

/** Wall-clock durations, for figures that include waiting (I/O, start-up). */
export function wallTime(rounds: number, fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}
