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
  // Jousts & Crests / Siege & Defense steps that come before the land tile (docs/record-format.md).
  let pre: Partial<MutableTurn> = {};
  const preTurn = (player: number): MutableTurn => ({ player, tile: null, ...pre, ...(ransoms.length ? { ransoms } : {}) });
  const need = (c: Command, i: number): Result<MutableTurn> =>
    open ? ok(open) : fail(`command ${i + 1} (${c.type}) comes before any tile of its turn`);
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i]!;
    switch (c.type) {
      case 'payRansom':
        ransoms.push({ payer: c.player, prisonerOf: c.prisonerOf, meeple: c.kind });
        break;
      case 'discardTile':
        turns.push({ ...preTurn(c.player), discarded: c.tile });
        ransoms = [];
        pre = {};
        break;
      case 'placeTile':
        open = { ...preTurn(c.player), tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot };
        ransoms = [];
        pre = {};
        break;
      case 'drawTile':
        break;
      case 'resolveTournament': {
        const t = pre.tournament;
        pre.tournament = t === undefined ? { reveals: [] } : [...(Array.isArray(t) ? t : [t]), { reveals: [] }];
        pre.player = c.player;
        break;
      }
      case 'revealEmblem': {
        const t = pre.tournament;
        (Array.isArray(t) ? t.at(-1) : t)?.reveals.push({ player: c.owner, at: [c.at[0], c.at[1]], on: c.on, value: c.value });
        break;
      }
      case 'resolveSiegeSymbol':
        pre.siege = [...(pre.siege ?? []), { post: c.post }];
        break;
      case 'removeMeepleForAttack': {
        const last = pre.siege?.at(-1);
        if (last) last.removals = [...(last.removals ?? []), { player: c.owner, at: [c.at[0], c.at[1]], on: c.on, ...(c.kind ? { meeple: c.kind } : {}) }];
        break;
      }
      case 'placePrizeTile':
      case 'discardPrizeTile': {
        const entry = c.type === 'placePrizeTile' ? { tile: c.tile, at: [c.at[0], c.at[1]] as [number, number], rot: c.rot } : { tile: c.tile, discarded: true as const };
        if (open) open.prizeTiles = [...(open.prizeTiles ?? []), entry];
        else pre.prizeTiles = [...(pre.prizeTiles ?? []), entry];
        pre.player ??= c.player;
        break;
      }
      case 'placeTournamentTile':
        pre.tournamentTile = { at: [c.at[0], c.at[1]], rot: c.rot };
        break;
      case 'skipTurn':
        turns.push({ ...preTurn(c.player), skip: true });
        ransoms = [];
        pre = {};
        break;
      case 'nominate':
      case 'placeAtDefencePost': {
        // In a placement lap there is no land tile: the turn entry opens with the prize tile.
        if (!open) {
          open = preTurn(c.player);
          ransoms = [];
          pre = {};
        }
        if (c.type === 'nominate') open.nominate = { at: [c.at[0], c.at[1]], on: c.on };
        else open.post = { post: c.post, space: c.space };
        break;
      }
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
        if (!open && pre.prizeTiles) {
          open = preTurn(c.player);
          ransoms = [];
          pre = {};
        }
        const t = need(c, i);
        if (!t.ok) return t;
        turns.push(t.value);
        open = null;
        break;
      }
      case 'finishGame':
        if (pre.player !== undefined) {
          turns.push(preTurn(pre.player));
          pre = {};
        }
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
    start: setup.start.map((s) => ({ tile: s.tile, at: [s.at[0], s.at[1]] as [number, number], rot: s.rot, ...(s.piece ? { piece: s.piece } : {}) })),
    ...(setup.options ? { options: JSON.parse(JSON.stringify(setup.options)) as NonNullable<GameRecord['options']> } : {}),
    turns,
    ...(final ? { expect: { final: [...final] } } : {}),
  };
  const checked = parseRecord(record);
  return checked.ok ? ok(checked.record) : fail(`the exported record does not pass its own schema: ${checked.reason}`);
}
