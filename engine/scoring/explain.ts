/** Plain-language explanations of scores, for the scoreboard and the end-game audit. */
import type { ScoreItem, Scored } from '../game/events.js';

const UNIT: Record<string, [string, string]> = {
  tiles: ['tile', 'tiles'],
  pennants: ['pennant', 'pennants'],
  cities: ['completed city', 'completed cities'],
  'coats of arms': ['coat of arms', 'coats of arms'],
  'tiles around': ['tile around', 'tiles around'],
  'meeples at the knights post': ['meeple at the knights post', 'meeples at the knights post'],
  'meeples at the travelers post': ['meeple at the travelers post', 'meeples at the travelers post'],
  'meeples at the monks post': ['meeple at the monks post', 'meeples at the monks post'],
};

const KIND_WORDS: Record<string, string> = { counterAttack: 'counter attack' };

export function explainItem(item: ScoreItem): string {
  if (item.count === undefined) {
    if (item.points === 0) return `${item.name}: no points (unfinished)`;
    return `${item.name} bonus ${item.points}`;
  }
  const [one, many] = UNIT[item.name] ?? [item.name, item.name];
  const per = item.count === 0 ? 0 : item.points / item.count;
  return `${item.count} ${item.count === 1 ? one : many} × ${per}`;
}

export function explain(score: Scored): string {
  const what = KIND_WORDS[score.kind] ?? score.kind.replace('.incomplete', ' (unfinished)');
  const parts = score.items.map(explainItem);
  const body = parts.length > 0 ? `${parts.join(' + ')} = ${score.points}` : `${score.points}`;
  return `${what}: ${body}`;
}
