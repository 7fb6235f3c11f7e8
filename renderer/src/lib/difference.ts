/**
 * Why a score track and the companion disagree: the arithmetic behind the audit's "your track says"
 * field. It compares numbers only; every score it names was explained by the engine.
 */
export interface AuditScore {
  readonly points: number;
  readonly text: string;
}

/** The track's scoring board laps every 50 points (the 50/100 tiles mark the laps). */
export const LAP = 50;

export function explainDifference(companion: number, track: number, scores: readonly AuditScore[]): string[] {
  const diff = track - companion;
  if (diff === 0) return ['The track and the companion agree.'];
  const size = Math.abs(diff);
  const lines = [`The track shows ${track}, the companion ${companion}: ${size} point${size === 1 ? '' : 's'} ${diff > 0 ? 'more' : 'fewer'} on the track.`];
  if (size % LAP === 0) lines.push(`That is ${size / LAP === 1 ? 'one whole lap' : `${size / LAP} whole laps`} of the track: check the 50/100 tile.`);
  const single = scores.filter((s) => s.points === size);
  for (const s of single.slice(0, 3)) lines.push(diff < 0 ? `Perhaps this score was never moved on the track: ${s.text}` : `Perhaps this score was moved twice: ${s.text}`);
  if (single.length === 0) {
    for (let i = 0; i < scores.length && lines.length < 4; i++) {
      for (let j = i + 1; j < scores.length && lines.length < 4; j++) {
        if (scores[i]!.points + scores[j]!.points === size) lines.push(`Perhaps these two were ${diff < 0 ? 'missed' : 'counted twice'}: ${scores[i]!.text}; ${scores[j]!.text}`);
      }
    }
  }
  if (lines.length === 1) lines.push('No one score explains it: walk the list above feature by feature against the track.');
  return lines;
}
