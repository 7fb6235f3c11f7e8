/**
 * The table's words (issue 29, part 4): every reminder, every refusal the engine gives to a move a
 * player could try, and every line of the event log, said through electron/services/session/words.ts,
 * carry no tile id, coordinate, segment code, command name or 0-based player number; and the places
 * they speak of are given for the board to light. Over random games of The Tower + The Abbot (+ the
 * River and Inns & Cathedrals, as corpus game g101) and of Jousts & Crests + Siege & Defense.
 */
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import type { Game } from '../../engine/game/game.js';
import { reminders } from '../../engine/game/reminders.js';
import { randomGame } from '../../engine/sim/random-game.js';
import { setupFromNewGame } from '../../electron/contract/setup.js';
import { argumentIssueWords } from '../../electron/contract/issue-words.js';
import { parseArgs } from '../../electron/contract/api.js';
import { gameView } from '../../electron/services/session/view.js';
import { TableWords, withoutGame } from '../../electron/services/session/words.js';
import { engineNotation } from './helpers/table-words.js';
import { loadRecord, setupFromRecord } from './helpers/records.js';
import { NEW_GAME } from './helpers/panels-2025.js';

/** Moves a player could try at any moment, most of them illegal now: the refusals to check. */
function tries(game: Game): Command[] {
  const s = game.state;
  const p = s.turn.player;
  const other = (p + 1) % s.players.length;
  const last = s.board.tiles.at(-1)!;
  const tile = [...s.supply.keys()][0] ?? 'BASE_A';
  const at = [last.x, last.y] as const;
  const m = s.meeples[0];
  return [
    { type: 'placeTile', player: p, tile, at: [last.x + 5, last.y], rot: 0 },
    { type: 'placeTile', player: other, tile, at, rot: 90 },
    { type: 'placeTile', player: p, tile: 'NO_SUCH', at, rot: 0 },
    { type: 'placeMeeple', player: p, kind: 'normal', on: 'N0' },
    { type: 'placeMeeple', player: p, kind: 'big', on: 'CLOISTER' },
    { type: 'placeTowerFloor', player: p, at },
    { type: 'placeTowerFloor', player: p, at: [0, 0], capture: { player: other, at, on: 'E1' } },
    { type: 'closeTower', player: p, kind: 'normal', at },
    { type: 'payRansom', player: p, prisonerOf: other, kind: 'normal' },
    { type: 'returnAbbot', player: p, at },
    { type: 'discardTile', player: p, tile },
    { type: 'endTurn', player: other },
    { type: 'drawTile', player: p, tile },
    { type: 'resolveTournament', player: p },
    { type: 'revealEmblem', owner: other, at, on: 'S1', value: 3 },
    { type: 'nominate', player: p, at, on: 'W1' },
    { type: 'placePrizeTile', player: p, tile: 'JC-P-A', at, rot: 0 },
    { type: 'resolveSiegeSymbol', player: p, post: 'monks' },
    { type: 'removeMeepleForAttack', owner: other, at: m ? [m.x, m.y] : at, on: m?.on ?? 'N1' },
    { type: 'placeAtDefencePost', player: p, post: 'knights', space: 'row' },
  ];
}

function walk(game: Game, problems: string[], stats: { refusals: number; lit: number }): void {
  const w = new TableWords(game.state);
  for (const r of reminders(game.state)) problems.push(...engineNotation(w.rewrite(r.text).text).map((x) => `reminder: ${x}`));
  for (const c of tries(game)) {
    const r = game.play(c);
    if (r.ok) {
      game.undo();
      continue;
    }
    stats.refusals++;
    const said = w.rewrite(r.reason);
    if (said.places.length) stats.lit++;
    problems.push(...engineNotation(said.text).map((x) => `refusal of ${c.type}: ${x} (engine: ${r.reason})`));
  }
}

function check(game: Game, problems: string[]): void {
  const v = gameView(1, game);
  for (const e of v.log) for (const t of [e.text, ...e.events]) problems.push(...engineNotation(t).map((x) => `log: ${x}`));
  for (const s of v.scores) problems.push(...engineNotation(s.text).map((x) => `score: ${x}`));
}

describe('the table’s words', () => {
  it.each([
    ['Tower + Abbot (g101 setup)', () => setupFromRecord(loadRecord('g101-base-river-abbot-ic-tower-2p.json')), 101],
    ['Jousts & Crests + Siege & Defense', () => setupFromNewGame(NEW_GAME), 6],
  ])('%s: reminders, refusals and the log carry no engine notation', (_name, setup, seed) => {
    const problems: string[] = [];
    const stats = { refusals: 0, lit: 0 };
    let n = 0;
    const game = randomGame(setup(), seed, { nominateRate: 0.7, postRate: 0.7, onCommand: (g) => { if (n++ % 3 === 0) walk(g, problems, stats); } });
    walk(game, problems, stats);
    check(game, problems);
    expect([...new Set(problems)].slice(0, 20)).toEqual([]);
    // Enough refusals seen to mean something, and places given for the board to light.
    expect(stats.refusals).toBeGreaterThan(500);
    expect(stats.lit).toBeGreaterThan(20);
  }, 120_000);

  it('says the issue’s examples in words', () => {
    const game = randomGame(setupFromRecord(loadRecord('g101-base-river-abbot-ic-tower-2p.json')), 101, { maxTurns: 20, finish: false });
    const w = new TableWords(game.state);
    const t = game.state.board.tiles[3]!;
    const said = w.rewrite(`no meeple of player 1 at [${t.x}, ${t.y}] ${t.view.features[0]!.name}`);
    expect(said.text).toMatch(new RegExp(`^no meeple of ${game.state.setup.players[1]!.name} at the lit (road|city|field|cloister|river)$`));
    expect(said.places).toEqual([{ x: t.x, y: t.y, on: t.view.features[0]!.name }]);
    expect(w.rewrite('command 13 (placeTowerFloor): nothing').text).toBe('move 13 (adding a tower floor): nothing');
    expect(w.rewrite('place BASE_W').text).toBe(`place ${w.tile('BASE_W')}`);
    expect(w.tile('BASE_W')).not.toMatch(/BASE/);
    expect(withoutGame('command 2 (placeTile): BASE_K cannot go to [1, 0] turned 90: player 0')).toBe('move 2 (laying a tile): a tile cannot go to a place on the board turned 90: player 1');
    expect(argumentIssueWords('newGame', [0, 'players', 0, 'name'], 'a player needs a name')).toBe("New game: player 1's name: a player needs a name");
    const capture = parseArgs('play', [{ type: 'placeTowerFloor', player: 0, at: [0, 0], capture: { player: 1, at: [1, 0], on: '' } }]);
    expect(capture.ok).toBe(false);
    if (!capture.ok) expect(engineNotation(capture.error)).toEqual([]);
  });
});
