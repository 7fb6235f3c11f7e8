/**
 * What the table must do now, each item with who and why: the display's banner. A pure function of
 * the state; it knows the classic turn and every expansion's extra steps, in the order the turn
 * pipeline runs them (docs/jousts-crests-siege-defense.md).
 */
import { formatPosition } from '../geometry/position.js';
import {
  crownCategory, isFinalStack, isRiverBend, nominationCandidates, nominatedMeeples, tournamentDue, tournamentTileSpots, tournamentTileWaiting,
} from '../expansions/jousts-crests.js';
import { attackRemovers, meeplesAtPost, postOption } from '../expansions/siege-defense.js';
import { meeplesInReach, RANSOM } from '../expansions/tower.js';
import { legalMeepleSpots } from './legal.js';
import type { GameState } from './state.js';

export type ReminderCode =
  | 'resolveTournament' | 'revealEmblem' | 'drawTile' | 'resolveSiegeSymbol' | 'removeMeeple'
  | 'placePrizeTile' | 'placeTournamentTile' | 'placeTile' | 'nominate' | 'placeMeeple' | 'towerCapture'
  | 'returnAbbot' | 'placeAtDefencePost' | 'counterAttack' | 'endTurn' | 'payRansom' | 'skipTurn'
  | 'finalScoring' | 'gameOver';

export interface Reminder {
  readonly what: ReminderCode;
  /** Players who act (or are concerned), in the order they act. */
  readonly who: readonly number[];
  /** What to do, in the table's words. */
  readonly text: string;
  /** The rule behind it. */
  readonly why: string;
  /** Must it happen before the game goes on (false: an option). */
  readonly required: boolean;
}

const KIND_WORD = { road: 'traveler', city: 'knight', field: 'farmer' } as const;
const POST_WORD = { knights: 'knight', travelers: 'traveler', monks: 'monk or the abbot' } as const;

function tilesLeft(state: GameState): number {
  let n = 0;
  for (const c of state.supply.values()) n += c;
  return n;
}

function name(state: GameState, p: number): string {
  return state.setup.players[p]?.name ?? `player ${p}`;
}

function ransoms(state: GameState): Reminder[] {
  const p = state.turn.player;
  if (state.turn.ransomPaid || !state.pipeline.commands.has('payRansom')) return [];
  const out: Reminder[] = [];
  state.players.forEach((holder, i) => {
    const mine = holder.prisoners.filter((x) => x.owner === p);
    if (mine.length === 0) return;
    const affordable = state.players[p]!.score >= RANSOM;
    out.push({
      what: 'payRansom',
      who: [p],
      text: `${name(state, p)} may pay ${RANSOM} points to ${name(state, i)} to free a ${mine[0]!.kind} meeple${affordable ? '' : ' (not enough points yet)'}`,
      why: 'The Tower: once per turn, a prisoner can be bought back for 3 points',
      required: false,
    });
  });
  return out;
}

function towerCaptures(state: GameState): Reminder[] {
  const p = state.turn.player;
  if (state.players[p]!.floors <= 0) return [];
  const out: Reminder[] = [];
  for (const t of state.towers.values()) {
    if (t.top) continue;
    const range = t.height + 1;
    const reach = meeplesInReach(state, t.x, t.y, range);
    if (reach.length === 0) continue;
    const mandatory = state.setup.rules.towerCapture === 'mandatory';
    out.push({
      what: 'towerCapture',
      who: [p],
      text: `a floor on the tower at ${formatPosition([t.x, t.y])} reaches range ${range}: ${mandatory ? 'capture' : 'may capture'} one of ${reach.map((m) => `${name(state, m.player)}'s ${m.kind} at ${formatPosition([m.x, m.y])}`).join(', ')}`,
      why: 'The Tower: a new floor captures a meeple on the tower\'s tile or up to its height along the four straight lines',
      required: false,
    });
  }
  return out;
}

function finalSteps(state: GameState): Reminder[] {
  const steps: string[] = [];
  if (state.sd) steps.push('a final counter attack at each of the 3 defence posts: 3 points per meeple, row and meeple space');
  if (state.jc) steps.push('emblems still under meeples are removed (they score nothing)', 'each statue emblem scores 3 per coat of arms in its city');
  steps.push('unfinished roads, cities, cloisters and gardens score their owners');
  if (state.setup.rules.farmers) steps.push(`farmers score 3 per completed city next to their field${state.sd ? ' (the fortress counts as one)' : ''}`);
  return steps.map((s, i) => ({ what: 'finalScoring' as const, who: [], text: `${i + 1}. ${s}`, why: 'final scoring, in this order', required: true }));
}

function jcBeforeTile(state: GameState): Reminder[] | null {
  const j = state.jc;
  if (!j) return null;
  const p = state.turn.player;
  const t = j.tournament;
  if (t) {
    const next = t.participants[t.reveals.length]!;
    const kind = KIND_WORD[t.category];
    return [{
      what: 'revealEmblem',
      who: t.participants.slice(t.reveals.length),
      text: `${name(state, next)} reveals the emblem under one of their nominated ${kind}s (${nominatedMeeples(state, next, t.category).map((m) => formatPosition([m.x, m.y])).join(', ')})`,
      why: `${t.category} tournament: each player with a nominated ${kind} reveals one, clockwise from the active player`,
      required: true,
    }];
  }
  if (tournamentDue(state)) {
    return [{
      what: 'resolveTournament',
      who: [p],
      text: `resolve the ${crownCategory(j)} tournament now${isFinalStack(j) ? ' (the final one: prizes from the final prize stack)' : ''}`,
      why: `stack ${j.current + 1} is empty; the crown points at ${crownCategory(j)}`,
      required: true,
    }];
  }
  if (j.laps) {
    if (j.players.every((x) => x.prizesHeld === 0)) return [{ what: 'gameOver', who: [], text: 'every won prize tile is placed: final scoring', why: 'the game ends after the final tournament and its placement laps', required: true }, ...finalSteps(state)];
    if (j.players[p]!.prizesHeld === 0) return [{ what: 'skipTurn', who: [p], text: `${name(state, p)} has no prize tile: next player`, why: 'after the final tournament, players without a prize tile are skipped', required: true }];
    return prizeReminder(state);
  }
  return null;
}

function prizeReminder(state: GameState): Reminder[] {
  const j = state.jc;
  if (!j) return [];
  const p = state.turn.player;
  const held = j.players[p]!.prizesHeld;
  if (held === 0) return [];
  const emblem = j.players[p]!.keptEmblems[0];
  return [{
    what: 'placePrizeTile',
    who: [p],
    text: `${name(state, p)} places their prize tile first${emblem !== undefined ? `, with the kept emblem (${emblem}) on its statue` : ''}${held > 1 ? ` (${held} prize tiles)` : ''}`,
    why: j.laps ? 'placement laps after the final tournament' : 'a won prize tile goes down before the land tile; no meeple may stand on it',
    required: true,
  }];
}

export function reminders(state: GameState): Reminder[] {
  if (state.finished) return [{ what: 'gameOver', who: [], text: 'The game is over: compare the audit with the score track.', why: 'final scoring is done', required: true }];
  const p = state.turn.player;
  const out: Reminder[] = [];
  const draws = state.jc !== null || state.sd !== null;

  if (state.turn.step === 'tile') {
    out.push(...ransoms(state));
    const jcFirst = jcBeforeTile(state);
    if (jcFirst) return [...jcFirst, ...out];
    const sd = state.sd;
    if (sd?.attack) {
      const who = sd.attack.removers;
      return [{
        what: 'removeMeeple',
        who,
        text: `attack at the ${sd.attack.post} post: ${who.map((x) => name(state, x)).join(', then ')} ${who.length > 1 ? 'must each remove' : 'must remove'} one ${POST_WORD[sd.attack.post]} of theirs from the board`,
        why: 'players with no meeple at the attacked post lose a matching meeple, clockwise from the active player; then the post is cleared',
        required: true,
      }, ...out];
    }
    if (sd && sd.pending.length > 0) {
      const symbol = sd.pending[0]!;
      const post = symbol === 'any' ? null : sd.posts[symbol];
      const attack = post?.catapult ?? false;
      const scorers = post ? state.players.map((_, i) => i).filter((i) => meeplesAtPost(post, i) > 0) : [];
      return [{
        what: 'resolveSiegeSymbol',
        who: [p],
        text: symbol === 'any'
          ? `${name(state, p)} chooses a defence post for the question-mark symbol: a catapult there, or an attack if one stands there`
          : attack
            ? `attack at the ${symbol} post: ${scorers.length ? `${scorers.map((i) => name(state, i)).join(', ')} score 3 per meeple there; ` : ''}${attackRemovers(state, symbol).map((i) => name(state, i)).join(', ') || 'nobody'} must remove a ${POST_WORD[symbol]}`
            : `put a catapult on the ${symbol} post`,
        why: 'siege symbols of the drawn tile are resolved before it (and any prize tile) is placed, left to right',
        required: true,
      }, ...out];
    }
    if (!state.jc && state.turn.drawn === null && tilesLeft(state) === 0) {
      return [{ what: 'gameOver', who: [], text: 'No tiles left: run final scoring.', why: 'the game ends when the last tile is placed', required: true }, ...finalSteps(state)];
    }
    const prizes = prizeReminder(state);
    if (draws && state.turn.drawn === null) {
      // The tile laid is the tile drawn (its placement implies the draw): the draw is entered by
      // itself only for a tile that fits nowhere, or one with a siege symbol to resolve first.
      const drawFirst: Reminder = {
        what: 'drawTile',
        who: [p],
        text: `a tile that fits nowhere${state.sd ? ', or one showing a siege symbol,' : ''}${state.jc && tournamentTileWaiting(state) ? ', or the first river bend (the tournament tile comes first),' : ''} is shown to the companion before anything else`,
        why: state.sd ? 'a siege symbol is resolved before its tile is placed; a tile that fits nowhere goes back in the box' : 'a tile that fits nowhere goes back in the box and the player draws again',
        required: false,
      };
      if (prizes.length) return [...prizes, drawFirst, ...out];
      const j = state.jc;
      const left = j ? (j.stacks[j.current]?.land ?? 0) : tilesLeft(state);
      const stack = `${j ? ` from stack ${j.current + 1}` : ''} (${left} ${left === 1 ? 'tile' : 'tiles'} left)`;
      return [
        { what: 'placeTile', who: [p], text: `${name(state, p)} draws a land tile${stack} and places it`, why: 'step 1 of a turn: the tile laid is the tile drawn', required: true },
        drawFirst,
        ...out,
      ];
    }
    if (prizes.length) return [...prizes, ...out];
    if (state.jc && state.turn.drawn && tournamentTileWaiting(state) && isRiverBend(state, state.turn.drawn) && tournamentTileSpots(state).length > 0) {
      out.unshift({ what: 'placeTournamentTile', who: [p], text: 'the first river bend: place the tournament tile so that its river continues the river, then the bend flowing away from it', why: 'Jousts & Crests with The River', required: true });
      return out;
    }
    const tile = state.turn.drawn;
    out.unshift({
      what: 'placeTile',
      who: [p],
      text: tile ? `${name(state, p)}: place ${tile} (or discard it if it fits nowhere).` : `${name(state, p)}: draw a tile and place it (${tilesLeft(state)} left).`,
      why: 'step 1 of a turn',
      required: true,
    });
    return out;
  }

  if (state.turn.step === 'action') {
    const candidates = nominationCandidates(state);
    if (candidates.length) {
      out.push({
        what: 'nominate',
        who: [p],
        text: `${name(state, p)} may slide an emblem under one of: ${candidates.map((m) => `${m.kind === 'big' ? 'big ' : ''}meeple at ${formatPosition([m.x, m.y])}`).join(', ')}`,
        why: 'a tile placed this turn extended a feature holding your traveler, knight or farmer; one nomination per turn',
        required: false,
      });
    }
    const spots = legalMeepleSpots(state);
    if (spots.length) {
      const kinds = [...new Set(spots.map((s) => s.featureKind))];
      out.push({ what: 'placeMeeple', who: [p], text: `${name(state, p)} may place a meeple on the new tile (${kinds.join(', ')})`, why: 'step 2 of a turn', required: false });
    }
    out.push(...towerCaptures(state));
    if (state.meeples.some((m) => m.player === p && m.kind === 'abbot')) {
      out.push({ what: 'returnAbbot', who: [p], text: `${name(state, p)} may take the abbot back instead, scoring it now`, why: 'The Abbot: instead of placing a meeple', required: false });
    }
    out.push(...ransoms(state));
  }

  if (state.turn.step === 'actionDone') {
    const option = postOption(state);
    if (option) {
      out.push({
        what: 'placeAtDefencePost',
        who: [p],
        text: option.post !== 'any'
          ? `${name(state, p)} may put a standard meeple into the ${option.post} row (${state.sd!.posts[option.post].row.length}/${state.sd!.rowLength} filled${state.sd!.posts[option.post].row.length + 1 === state.sd!.rowLength ? ': the last space, a counter attack' : ''})`
          : `${name(state, p)} may put a standard meeple on any defence post's meeple space`,
        why: option.space === 'row' ? 'Siege & Defense: after placing a knight, traveler, monk or abbot' : 'Siege & Defense: after placing a farmer',
        required: false,
      });
    }
    out.push(...ransoms(state));
  }

  const counter = state.sd?.counterAttack;
  if (counter) {
    const posts = state.sd!.posts[counter];
    const scorers = state.players.map((_, i) => i).filter((i) => meeplesAtPost(posts, i) > 0);
    out.push({
      what: 'counterAttack',
      who: scorers,
      text: `counter attack at the ${counter} post: ${scorers.map((i) => `${name(state, i)} ${3 * meeplesAtPost(posts, i)}`).join(', ')}; the meeples go home, the catapult is removed`,
      why: 'the row\'s last space was filled: the counter attack comes before the usual scoring',
      required: true,
    });
  }
  out.push({ what: 'endTurn', who: [p], text: `${name(state, p)} ends the turn: completed features score`, why: 'step 3 of a turn', required: true });
  return out;
}

