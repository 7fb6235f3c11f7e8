/**
 * The Tower (classic): floors on foundations, capture within the tower's height along the four
 * straight lines (its own tile included), automatic prisoner exchange, ransom of 3 points, and a
 * meeple on top closing the tower (rules digest §11).
 */
import type { MeepleKind, MeepleOnBoard } from '../features/board.js';
import { formatPosition, posKey } from '../geometry/position.js';
import type { CloseTower, PayRansom, PlaceTowerFloor } from '../game/commands.js';
import type {
  GameEvent, MeepleCaptured, PrisonersExchanged, RansomPaid, TowerClosed, TowerFloorPlaced,
} from '../game/events.js';
import type { ExpansionModule } from '../game/expansion.js';
import { towerFloorsPerPlayer } from '../game/setup.js';
import type { GameState } from '../game/state.js';
import { addExpansionTiles } from '../game/supply.js';
import { fail, ok } from '../result.js';
import { liftMeeple, putMeeple } from './base.js';

export const RANSOM = 3;

/** Does a tower on the tile at (x, y) have a floor (or a top) on it? It then covers most of the tile. */
export function underTowerFloor(state: GameState, t: { readonly x: number; readonly y: number }): boolean {
  for (const w of state.towers.values()) if (w.x === t.x && w.y === t.y && (w.height > 0 || w.top !== null)) return true;
  return false;
}

/** Meeples a tower of height `h` at (x, y) can reach: its own tile and h tiles along each straight line. */
export function meeplesInReach(state: GameState, x: number, y: number, h: number, out: MeepleOnBoard[] = []): MeepleOnBoard[] {
  for (const m of state.meeples) if ((m.x === x && Math.abs(m.y - y) <= h) || (m.y === y && Math.abs(m.x - x) <= h)) out.push(m);
  return out;
}

function describe(m: MeepleOnBoard): string {
  return `player ${m.player}'s ${m.kind} meeple at ${formatPosition([m.x, m.y])} ${m.on}`;
}

export const towerModule: ExpansionModule = {
  id: 'tower',

  setup(state) {
    addExpansionTiles(state, 'tower');
    const floors = towerFloorsPerPlayer(state.players.length);
    for (const p of state.players) p.floors = floors;
  },

  afterTilePlaced(state, placed) {
    for (const f of placed.view.features) {
      if (f.kind !== 'tower') continue;
      state.towers.set(placed.key, { x: placed.x, y: placed.y, height: 0, top: null });
      return;
    }
  },

  commands: {
    placeTowerFloor: {
      steps: ['action'],
      decide(state, command) {
        const c = command as PlaceTowerFloor;
        const [x, y] = c.at;
        const tower = state.towers.get(posKey(x, y));
        if (!tower) return fail(`there is no tower foundation at ${formatPosition(c.at)}`);
        if (tower.top) return fail(`the tower at ${formatPosition(c.at)} is closed by a meeple on top`);
        if (state.players[c.player]!.floors <= 0) return fail(`player ${c.player} has no tower floors left`);
        const height = tower.height + 1;
        const events: GameEvent[] = [{ type: 'towerFloorPlaced', player: c.player, at: [x, y], height }];
        const reach = meeplesInReach(state, x, y, height);
        if (!c.capture) {
          if (reach.length > 0 && state.setup.rules.towerCapture === 'mandatory') {
            return fail(`a meeple in reach must be captured (towerCapture: mandatory), e.g. ${describe(reach[0]!)}`);
          }
          return ok(events);
        }
        const cap = c.capture;
        const target = reach.find((m) => m.player === cap.player && m.x === cap.at[0] && m.y === cap.at[1] && m.on === cap.on && (!cap.kind || m.kind === cap.kind))
          ?? reach.find((m) => m.player === cap.player && m.x === cap.at[0] && m.y === cap.at[1] && (!cap.kind || m.kind === cap.kind) && state.board.partAt(m.x, m.y, cap.on) === m.part && m.part >= 0);
        if (!target) return fail(`no meeple of player ${cap.player} at ${formatPosition(cap.at)} ${cap.on} within reach of the tower (height ${height})`);
        events.push({ type: 'meepleCaptured', by: c.player, player: target.player, kind: target.kind, at: [target.x, target.y], on: target.on });
        if (target.player !== c.player) {
          const back = state.players[target.player]!.prisoners.filter((p) => p.owner === c.player);
          if (back.length > 0) {
            const kinds = [...new Set(back.map((p) => p.kind))];
            let kind: MeepleKind;
            if (kinds.length === 1) kind = kinds[0]!;
            else if (cap.exchangeFor && kinds.includes(cap.exchangeFor)) kind = cap.exchangeFor;
            else return fail(`player ${target.player} holds several kinds of player ${c.player}'s meeples (${kinds.join(', ')}): say which comes back (exchangeFor)`);
            events.push({
              type: 'prisonersExchanged',
              released: [
                { owner: target.player, holder: c.player, kind: target.kind },
                { owner: c.player, holder: target.player, kind },
              ],
            });
          }
        }
        return ok(events);
      },
    },
    closeTower: {
      steps: ['action'],
      decide(state, command) {
        const c = command as CloseTower;
        const tower = state.towers.get(posKey(c.at[0], c.at[1]));
        if (!tower) return fail(`there is no tower at ${formatPosition(c.at)}`);
        if (tower.height < 1) return fail(`the foundation at ${formatPosition(c.at)} has no floor yet`);
        if (tower.top) return fail(`the tower at ${formatPosition(c.at)} is already closed`);
        if (c.kind !== 'normal' && c.kind !== 'big') return fail(`only a normal or big meeple may close a tower, not the ${c.kind}`);
        if (!state.pipeline.figures.has(c.kind)) return fail(`there are no ${c.kind} meeples in this game`);
        if (state.players[c.player]!.supply[c.kind] <= 0) return fail(`player ${c.player} has no ${c.kind} meeple in supply`);
        return ok([{ type: 'towerClosed', player: c.player, kind: c.kind, at: [c.at[0], c.at[1]] }]);
      },
    },
    payRansom: {
      steps: ['tile', 'action', 'actionDone'],
      decide(state, command) {
        const c = command as PayRansom;
        if (state.turn.ransomPaid) return fail('a ransom has already been paid this turn');
        if (c.prisonerOf === c.player) return fail('a player cannot ransom from themselves');
        const holder = state.players[c.prisonerOf];
        if (!holder) return fail(`there is no player ${c.prisonerOf}`);
        if (!holder.prisoners.some((p) => p.owner === c.player && p.kind === c.kind)) {
          return fail(`player ${c.prisonerOf} holds no ${c.kind} meeple of player ${c.player}`);
        }
        if (state.players[c.player]!.score < RANSOM) return fail(`a ransom costs ${RANSOM} points; player ${c.player} has ${state.players[c.player]!.score}`);
        return ok([
          { type: 'ransomPaid', payer: c.player, prisonerOf: c.prisonerOf, kind: c.kind },
          { type: 'scored', players: [c.player], points: -RANSOM, kind: 'ransom', items: [], final: false },
          { type: 'scored', players: [c.prisonerOf], points: RANSOM, kind: 'ransom', items: [], final: false },
        ]);
      },
    },
  },

  reducers: {
    towerFloorPlaced(state, e) {
      const s = e as TowerFloorPlaced;
      state.towers.get(posKey(s.at[0], s.at[1]))!.height = s.height;
      state.players[s.player]!.floors--;
      state.turn.step = 'actionDone';
    },
    meepleCaptured(state, e) {
      const s = e as MeepleCaptured;
      const m = liftMeeple(state, s.player, s.kind, s.at, s.on);
      if (m.part < 0) {
        const tower = state.towers.get(posKey(m.x, m.y));
        if (tower) tower.top = null;
      }
      if (s.by === s.player) state.players[s.player]!.supply[s.kind]++;
      else state.players[s.by]!.prisoners.push({ owner: s.player, kind: s.kind });
    },
    prisonersExchanged(state, e) {
      const s = e as PrisonersExchanged;
      for (const r of s.released) {
        const held = state.players[r.holder]!.prisoners;
        const i = held.findIndex((p) => p.owner === r.owner && p.kind === r.kind);
        if (i >= 0) held.splice(i, 1);
        state.players[r.owner]!.supply[r.kind]++;
      }
    },
    towerClosed(state, e) {
      const s = e as TowerClosed;
      const tower = state.towers.get(posKey(s.at[0], s.at[1]))!;
      tower.top = putMeeple(state, s.player, s.kind, s.at[0], s.at[1], -1, 'TOWER');
      state.turn.step = 'actionDone';
    },
    ransomPaid(state, e) {
      const s = e as RansomPaid;
      const held = state.players[s.prisonerOf]!.prisoners;
      const i = held.findIndex((p) => p.owner === s.payer && p.kind === s.kind);
      if (i >= 0) held.splice(i, 1);
      state.players[s.payer]!.supply[s.kind]++;
      state.turn.ransomPaid = true;
    },
  },
};
