/** Text tables for the command line: per-turn events and the final score table. */
import type { Scored } from '../engine/game/events.js';
import type { ReplayReport } from '../engine/record/replay.js';
import type { GameRecord } from '../engine/record/schema.js';
import { explain } from '../engine/scoring/explain.js';

const GROUPS: [string, (kind: string) => boolean][] = [
  ['roads', (k) => k.startsWith('road')],
  ['cities', (k) => k.startsWith('city')],
  ['cloisters', (k) => k.startsWith('cloister')],
  ['gardens', (k) => k.startsWith('garden')],
  ['fields', (k) => k === 'field'],
  ['ransom', (k) => k === 'ransom'],
];

/** Columns shown only when a game has such scores (Jousts & Crests, Siege & Defense). */
const EXTRA_GROUPS: [string, (kind: string) => boolean][] = [
  ['statues', (k) => k === 'statue'],
  ['posts', (k) => k === 'attack' || k === 'counterAttack'],
];

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

export function describeScored(e: Scored, names: readonly string[]): string {
  const who = e.players.map((p) => names[p] ?? `player ${p}`).join(' & ');
  const where = e.feature ? ` [${e.feature.at[0]}, ${e.feature.at[1]}] ${e.feature.on}` : '';
  return `${who} +${e.points}  ${explain(e)}${where}`.replace('+-', '-');
}

export function formatScoreTable(record: GameRecord, report: ReplayReport): string {
  const names = record.players.map((p) => p.name);
  const all = [...report.turns.flatMap((t) => t.scores), ...report.finalEvents];
  const groups = [...GROUPS, ...EXTRA_GROUPS.filter(([, match]) => all.some((e) => match(e.kind)))];
  const rows = names.map((name, i) => {
    const cells = groups.map(([, match]) => all.filter((e) => e.players.includes(i) && match(e.kind)).reduce((s, e) => s + e.points, 0));
    return { name, cells, total: report.final[i] ?? 0 };
  });
  const w = Math.max(6, ...names.map((n) => n.length));
  const head = `${pad('player', w)}  ${groups.map(([g]) => pad(g, 9, true)).join(' ')}  ${pad('total', 6, true)}`;
  const lines = rows.map((r) => `${pad(r.name, w)}  ${r.cells.map((c) => pad(String(c), 9, true)).join(' ')}  ${pad(String(r.total), 6, true)}`);
  return [head, '-'.repeat(head.length), ...lines].join('\n');
}

function describeAction(a: GameRecord['turns'][number]['action'], names: readonly string[]): string {
  if (!a) return '';
  if ('towerPiece' in a) {
    const c = a.capture;
    const cap = c ? `, captures ${names[c.player] ?? c.player}'s ${c.meeple ?? ''} meeple at [${c.at[0]}, ${c.at[1]}] ${c.on}` : '';
    return `; tower floor at [${a.towerPiece[0]}, ${a.towerPiece[1]}]${cap}`;
  }
  if ('tower' in a) return `; ${a.meeple} meeple closes the tower at [${a.tower[0]}, ${a.tower[1]}]`;
  if ('returnAbbot' in a) return `; takes the abbot back from [${a.returnAbbot[0]}, ${a.returnAbbot[1]}]`;
  return `; ${a.meeple} meeple on ${a.on}`;
}

export function formatTurns(record: GameRecord, report: ReplayReport): string {
  const names = record.players.map((p) => p.name);
  const out: string[] = [];
  record.turns.forEach((t, i) => {
    const rep = report.turns[i];
    const what = t.tile === null ? `discards ${t.discarded ?? '(nothing)'}` : `${t.tile} at [${t.at![0]}, ${t.at![1]}] turned ${t.rot}`;
    const ransoms = (t.ransoms ?? []).map((r) => `pays ${names[r.prisonerOf] ?? r.prisonerOf} a ransom; `).join('');
    out.push(`turn ${pad(String(i + 1), 3, true)}  ${names[t.player] ?? t.player}: ${ransoms}${what}${describeAction(t.action, names)}`);
    for (const e of rep?.scores ?? []) out.push(`           ${describeScored(e, names)}`);
  });
  out.push('final scoring');
  for (const e of report.finalEvents) out.push(`           ${describeScored(e, names)}`);
  return out.join('\n');
}
