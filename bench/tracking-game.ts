/**
 * Game-level tracking figures on held-out synthetic recordings (seeds 9101…, style c3, never used for
 * tuning; generated here, complete games at 640×480 like the bundled demo): `new tile` (still frame
 * to proposal, ms, median), `frame after a new tile` (the next frame's whole `feed`, ms, median),
 * `moves exact without confirmation` (camera-committed moves equal to the truth over all
 * camera-readable moves, %), `final scores exact` (games), and the share of still scenes whose
 * markers were looked for only where the plane put them. Imported by bench/tracking.ts when that
 * exists; runnable alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';
import { replayRecording } from '../models/track/replay.js';
import { classifyOutcome } from '../models/track/errors.js';

export const HELD_OUT_SEEDS = [9101, 9102, 9103];
/** The laid-tile check's notices (models/track/tracker.ts checkLaidTiles). */
export const LAID_TILE_NOTICE = /^the tile \S+ at \(-?\d+, -?\d+\) seems (lifted|turned)/;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

export async function trackingGameLines(seeds = HELD_OUT_SEEDS, turns?: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tracking-bench-'));
  try {
    const ms: number[] = [], after: number[] = [];
    let exact = 0, moves = 0, games = 0, falseAlarms = 0, needless = 0;
    const searches = { regions: 0, frame: 0 };
    const classes = new Map<string, number>();
    for (const seed of seeds) {
      const g = await generateRecording({ seed, style: 'c3', ...(turns !== undefined ? { maxTurns: turns } : {}) });
      const d = join(dir, String(seed));
      writeRecording(d, g.manifest, g.frames, g.record);
      // Nothing is lifted or turned in these games: every such notice is a false alarm.
      const r = await replayRecording(d, { onEvent: (e) => { if (e.kind === 'notice' && LAID_TILE_NOTICE.test(e.message)) falseAlarms++; } });
      ms.push(...r.proposalMs);
      after.push(...r.afterProposalMs);
      searches.regions += r.tracker.markerSearches.regions;
      searches.frame += r.tracker.markerSearches.frame;
      exact += r.exact;
      moves += r.cameraMoves;
      needless += r.needlessQuestions.length;
      if (r.scores.every((s, i) => s === r.truthScores[i])) games++;
      for (const o of r.outcomes) { const c = classifyOutcome(o); classes.set(c, (classes.get(c) ?? 0) + 1); }
    }
    // Where the moves that were not exact went (docs/tracking.md), on stderr: not a figure line.
    if (process.env.BENCH_BREAKDOWN) for (const [c, n] of [...classes].sort((a, b) => b[1] - a[1])) console.error(`  ${c}: ${n}`);
    return [
      `new tile: ${median(ms).toFixed(0)} ms`,
      `frame after a new tile: ${median(after).toFixed(0)} ms`,
      `moves exact without confirmation: ${((100 * exact) / Math.max(1, moves)).toFixed(1)} %`,
      `final scores exact: ${games}/${seeds.length} games`,
      `laid tiles said to be lifted or turned (none is): ${falseAlarms}`,
      // The camera asked the table to pick a move no one made (a figure where none stood).
      `questions about a move none made: ${needless}`,
      // How often the cheap path held (calibration/markers.ts `markerRegions`): the rest searched whole frames.
      `still scenes whose markers were looked for where the plane put them: ${((100 * searches.regions) / Math.max(1, searches.regions + searches.frame)).toFixed(1)} %`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await trackingGameLines()) console.log(line);
}
