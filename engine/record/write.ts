/** A game as a record@1 document: setup, every turn with its scores, and the final result. */
import type { Command } from '../game/commands.js';
import type { GameEvent, Scored } from '../game/events.js';
import type { Game } from '../game/game.js';
import { DEFAULT_TILE_SET } from '../game/setup.js';
import type { GameRecord, RecordAction, RecordScoreEvent, RecordTurn } from './schema.js';

function scoreEvent(e: Scored): RecordScoreEvent {
  return {
    players: [...e.players],
    points: e.points,
    kind: e.kind,
    ...(e.feature ? { at: [e.feature.at[0], e.feature.at[1]] as [number, number], on: e.feature.on } : {}),
    ...(e.items.length ? { items: e.items.map((i) => ({ ...i })) } : {}),
  };
}

function actionOf(c: Command): RecordAction | undefined {
  switch (c.type) {
    case 'placeMeeple':
      return { meeple: c.kind, on: c.on };
    case 'placeTowerFloor':
      return {
        towerPiece: [c.at[0], c.at[1]],
        ...(c.capture
          ? {
              capture: {
                player: c.capture.player,
                at: [c.capture.at[0], c.capture.at[1]] as [number, number],
                on: c.capture.on,
                ...(c.capture.kind ? { meeple: c.capture.kind } : {}),
                ...(c.capture.exchangeFor ? { exchangeFor: c.capture.exchangeFor } : {}),
              },
            }
          : {}),
      };
    case 'closeTower':
      return { meeple: c.kind, tower: [c.at[0], c.at[1]] };
    case 'returnAbbot':
      return { returnAbbot: [c.at[0], c.at[1]] };
    default:
      return undefined;
  }
}

const scored = (events: readonly GameEvent[]) => events.filter((e): e is Scored => e.type === 'scored');

type OpenTurn = Partial<RecordTurn> & { events: Scored[]; ransoms: NonNullable<RecordTurn['ransoms']>; tournamentExpect?: NonNullable<NonNullable<RecordTurn['expect']>['tournament']> };

/** The 2025 expansions' steps of a turn (docs/record-format.md); false for any other command. */
function expansionStep(current: OpenTurn, c: Command, events: readonly GameEvent[]): boolean {
  switch (c.type) {
    case 'drawTile':
      return true;
    case 'resolveTournament':
      // A second tournament in one turn (an empty stack after the first) makes the key a list.
      if (current.tournament === undefined) current.tournament = { reveals: [] };
      else current.tournament = [...(Array.isArray(current.tournament) ? current.tournament : [current.tournament]), { reveals: [] }];
      break;
    case 'revealEmblem': {
      const t = current.tournament;
      const last = Array.isArray(t) ? t.at(-1) : t;
      last?.reveals.push({ player: c.owner, at: [c.at[0], c.at[1]], on: c.on, value: c.value });
      break;
    }
    case 'resolveSiegeSymbol':
      (current.siege ??= []).push({ post: c.post });
      break;
    case 'removeMeepleForAttack': {
      const last = current.siege?.at(-1);
      if (last) (last.removals ??= []).push({ player: c.owner, at: [c.at[0], c.at[1]], on: c.on, ...(c.kind ? { meeple: c.kind } : {}) });
      break;
    }
    case 'placePrizeTile':
      (current.prizeTiles ??= []).push({ tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot });
      break;
    case 'discardPrizeTile':
      (current.prizeTiles ??= []).push({ tile: c.tile, discarded: true });
      break;
    case 'placeTournamentTile':
      current.tournamentTile = { at: [c.at[0], c.at[1]], rot: c.rot };
      break;
    case 'nominate':
      current.nominate = { at: [c.at[0], c.at[1]], on: c.on };
      break;
    case 'placeAtDefencePost':
      current.post = { post: c.post, space: c.space };
      break;
    default:
      return false;
  }
  if ('player' in c && current.player === undefined) current.player = c.player;
  const t = events.find((e) => e.type === 'tournamentResolved');
  if (t && t.type === 'tournamentResolved' && !current.tournamentExpect) {
    current.tournamentExpect = { ranking: t.ranking.map((r) => ({ ...r })), prizes: [...t.prizes], kept: t.kept?.player ?? null };
  }
  current.events.push(...scored(events));
  return true;
}

/** Closes a turn entry: `tile: null` when no land tile was placed, expectations from what happened. */
function close(current: OpenTurn): RecordTurn {
  const { events: evs, ransoms, tournamentExpect, ...turn } = current;
  return {
    ...(turn as RecordTurn),
    tile: turn.tile ?? null,
    ...(ransoms.length ? { ransoms } : {}),
    expect: { events: evs.map(scoreEvent), ...(tournamentExpect ? { tournament: tournamentExpect } : {}) },
  };
}

export function recordFromGame(game: Game, extra: { source?: string } = {}): GameRecord {
  const setup = game.setup;
  const turns: RecordTurn[] = [];
  let current: OpenTurn = { events: [], ransoms: [] };
  let final: { final: number[]; finalEvents: RecordScoreEvent[] } | null = null;
  for (const { command: c, events } of game.history) {
    if (expansionStep(current, c, events)) continue;
    switch (c.type) {
      case 'payRansom':
        current.ransoms.push({ payer: c.player, prisonerOf: c.prisonerOf, meeple: c.kind });
        current.events.push(...scored(events));
        break;
      case 'discardTile':
        turns.push(close({ ...current, player: c.player, tile: null, discarded: c.tile }));
        current = { events: [], ransoms: [] };
        break;
      case 'skipTurn':
        turns.push(close({ ...current, player: c.player, tile: null, skip: true }));
        current = { events: [], ransoms: [] };
        break;
      case 'placeTile':
        Object.assign(current, { player: c.player, tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot });
        current.events.push(...scored(events));
        break;
      case 'endTurn': {
        current.events.push(...scored(events));
        current.player ??= c.player;
        turns.push(close(current));
        current = { events: [], ransoms: [] };
        break;
      }
      case 'finishGame':
        if (current.player !== undefined) turns.push(close(current));
        final = { final: game.state.players.map((p) => p.score), finalEvents: scored(events).map(scoreEvent) };
        break;
      default: {
        const a = actionOf(c);
        if (a) current.action = a;
        current.events.push(...scored(events));
      }
    }
  }
  const tileSet = setup.tileSet.edition !== DEFAULT_TILE_SET.edition || setup.tileSet.riverStartTile !== DEFAULT_TILE_SET.riverStartTile;
  return {
    format: 'record@1',
    ...(extra.source ? { source: extra.source } : {}),
    expansions: [...setup.expansions],
    rules: { ...setup.rules },
    ...(tileSet ? { tileSet: { ...setup.tileSet } } : {}),
    players: setup.players.map((p) => ({ name: p.name, color: p.color })),
    start: setup.start.map((s) => ({ tile: s.tile, at: [s.at[0], s.at[1]] as [number, number], rot: s.rot, ...(s.piece ? { piece: s.piece } : {}) })),
    ...(setup.options ? { options: JSON.parse(JSON.stringify(setup.options)) as NonNullable<GameRecord['options']> } : {}),
    turns,
    ...(final ? { expect: final } : {}),
  };
}
