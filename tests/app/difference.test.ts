import { describe, expect, it } from 'vitest';
import { explainDifference } from '../../renderer/src/lib/difference.js';

const scores = [
  { points: 22, text: 'city: 9 tiles × 2 + 2 pennants × 2 = 22' },
  { points: 4, text: 'road: 4 tiles × 1 = 4' },
  { points: 8, text: 'road: 8 tiles × 1 = 8' },
];

describe('the audit explains a difference from the score track', () => {
  it('agrees when equal', () => {
    expect(explainDifference(34, 34, scores)).toEqual(['The track and the companion agree.']);
  });
  it('names a score never moved on the track', () => {
    const lines = explainDifference(34, 26, scores);
    expect(lines[0]).toBe('The track shows 26, the companion 34: 8 points fewer on the track.');
    expect(lines[1]).toBe('Perhaps this score was never moved on the track: road: 8 tiles × 1 = 8');
  });
  it('names a pair moved twice', () => {
    expect(explainDifference(34, 60, scores)).toContain('Perhaps these two were counted twice: city: 9 tiles × 2 + 2 pennants × 2 = 22; road: 4 tiles × 1 = 4');
  });
  it('spots a lap of the track', () => {
    expect(explainDifference(84, 34, scores)[1]).toMatch(/one whole lap/);
  });
  it('says when no score explains it', () => {
    expect(explainDifference(34, 35, scores)[1]).toMatch(/No one score explains it/);
  });
});
