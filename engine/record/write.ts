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

export function recordFromGame(game: Game, extra: { source?: string } = {}): GameRecord {
  const setup = game.setup;
  const turns: RecordTurn[] = [];
  let current: Partial<RecordTurn> & { events: Scored[]; ransoms: NonNullable<RecordTurn['ransoms']> } = { events: [], ransoms: [] };
  let final: { final: number[]; finalEvents: RecordScoreEvent[] } | null = null;
  for (const { command: c, events } of game.history) {
    switch (c.type) {
      case 'payRansom':
        current.ransoms.push({ payer: c.player, prisonerOf: c.prisonerOf, meeple: c.kind });
        current.events.push(...scored(events));
        break;
      case 'discardTile':
        turns.push({ player: c.player, tile: null, discarded: c.tile, ...(current.ransoms.length ? { ransoms: current.ransoms } : {}), expect: { events: current.events.map(scoreEvent) } });
        current = { events: [], ransoms: [] };
        break;
      case 'placeTile':
        Object.assign(current, { player: c.player, tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot });
        current.events.push(...scored(events));
        break;
      case 'endTurn': {
        current.events.push(...scored(events));
        const { events: evs, ransoms, ...turn } = current;
        turns.push({ ...(turn as RecordTurn), ...(ransoms.length ? { ransoms } : {}), expect: { events: evs.map(scoreEvent) } });
        current = { events: [], ransoms: [] };
        break;
      }
      case 'finishGame':
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
    start: setup.start.map((s) => ({ tile: s.tile, at: [s.at[0], s.at[1]] as [number, number], rot: s.rot })),
    turns,
    ...(final ? { expect: final } : {}),
  };
}
