/**
 * A game's commands written back as a record@1 file (the inverse of engine/record/convert.ts), and
 * checked with the engine's own record schema before it leaves the app.
 */
import type { Command } from '../../engine/game/commands.js';
import type { GameSetup } from '../../engine/game/setup.js';
import { fail, ok, type Result } from '../../engine/result.js';
import { parseRecord, type GameRecord, type RecordTurn } from '../../engine/record/schema.js';

type MutableTurn = { -readonly [K in keyof RecordTurn]: RecordTurn[K] };

export function recordFromGame(setup: GameSetup, commands: readonly Command[], final: readonly number[] | null): Result<GameRecord> {
  const turns: MutableTurn[] = [];
  let open: MutableTurn | null = null;
  let ransoms: NonNullable<RecordTurn['ransoms']> = [];
  const need = (c: Command, i: number): Result<MutableTurn> =>
    open ? ok(open) : fail(`command ${i + 1} (${c.type}) comes before any tile of its turn`);
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i]!;
    switch (c.type) {
      case 'payRansom':
        ransoms.push({ payer: c.player, prisonerOf: c.prisonerOf, meeple: c.kind });
        break;
      case 'discardTile':
        turns.push({ player: c.player, tile: null, discarded: c.tile, ...(ransoms.length ? { ransoms } : {}) });
        ransoms = [];
        break;
      case 'placeTile':
        open = { player: c.player, tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot, ...(ransoms.length ? { ransoms } : {}) };
        ransoms = [];
        break;
      case 'placeMeeple':
      case 'placeTowerFloor':
      case 'closeTower':
      case 'returnAbbot': {
        const t = need(c, i);
        if (!t.ok) return t;
        t.value.action =
          c.type === 'placeMeeple'
            ? { meeple: c.kind, on: c.on }
            : c.type === 'closeTower'
              ? { meeple: c.kind, tower: [c.at[0], c.at[1]] }
              : c.type === 'returnAbbot'
                ? { returnAbbot: [c.at[0], c.at[1]] }
                : {
                    towerPiece: [c.at[0], c.at[1]],
                    ...(c.capture
                      ? {
                          capture: {
                            player: c.capture.player,
                            at: [c.capture.at[0], c.capture.at[1]],
                            on: c.capture.on,
                            ...(c.capture.kind ? { meeple: c.capture.kind } : {}),
                            ...(c.capture.exchangeFor ? { exchangeFor: c.capture.exchangeFor } : {}),
                          },
                        }
                      : {}),
                  };
        break;
      }
      case 'endTurn': {
        const t = need(c, i);
        if (!t.ok) return t;
        turns.push(t.value);
        open = null;
        break;
      }
      case 'finishGame':
        break;
    }
  }
  if (open) turns.push(open);
  const record = {
    format: 'record@1' as const,
    expansions: [...setup.expansions],
    rules: { ...setup.rules },
    tileSet: { ...setup.tileSet },
    players: setup.players.map((p) => ({ name: p.name, color: p.color })),
    start: setup.start.map((s) => ({ tile: s.tile, at: [s.at[0], s.at[1]] as [number, number], rot: s.rot })),
    turns,
    ...(final ? { expect: { final: [...final] } } : {}),
  };
  const checked = parseRecord(record);
  return checked.ok ? ok(checked.record) : fail(`the exported record does not pass its own schema: ${checked.reason}`);
}
