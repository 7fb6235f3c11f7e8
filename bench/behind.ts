/**
 * The table behind the video, swept: short-s5 fed to the camera service with frames missed (one or
 * two, or four consecutive, from each of 14 places; 24 seeded random patterns missing 15–50 %), the
 * table typing a missed move for 3, 6 or 10 frames of video. Prints per pattern the moves committed
 * wrong (the figure that must stay 0), entered by hand and committed by the camera, and the totals.
 * `npm run bench:behind` (about 8 minutes on the 2-core machine).
 */
import { behind } from '../tests/app/helpers/behind.js';

const patterns: [string, number[], number][] = [];
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let i = 0; i < 24; i++) {
  const rate = [0.15, 0.3, 0.5][i % 3]!;
  const drop: number[] = [];
  for (let f = 4; f < 60; f++) if (rnd() < rate) drop.push(f);
  patterns.push([`random ${i} (${rate * 100} %), typing ${3 + (i % 4) * 2}`, drop, 3 + (i % 4) * 2]);
}
for (const typing of [3, 6, 10]) {
  for (let start = 8; start < 50; start += 3) patterns.push([`frames ${start}–${start + 1}, typing ${typing}`, [start, start + 1], typing]);
  for (let start = 8; start < 50; start += 5) patterns.push([`frames ${start}–${start + 3}, typing ${typing}`, [start, start + 1, start + 2, start + 3], typing]);
}

let wrong = 0, wrongPatterns = 0, committed = 0, byHand = 0;
for (const [name, drop, typing] of patterns) {
  const r = await behind('short-s5', new Set(drop), typing);
  wrong += r.log.wrong;
  if (r.log.wrong) wrongPatterns++;
  committed += r.view.counts.committed;
  byHand += r.log.byHand;
  console.log(`${name}: ${r.log.wrong} wrong, ${r.log.byHand} by hand, ${r.view.counts.committed} committed by the camera${r.log.wrong ? `; ${r.log.notes.join('; ')}` : ''}`);
}
console.log(`\n${patterns.length} patterns: ${wrong} moves committed wrong in ${wrongPatterns} patterns; ${committed} committed by the camera, ${byHand} entered by hand`);
