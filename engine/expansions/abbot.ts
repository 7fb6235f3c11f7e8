/** The Abbot: one abbot per player, on a cloister or garden; it may be taken back early, scoring as unfinished. */
import { formatPosition } from '../geometry/position.js';
import type { AbbotReturned, GameEvent } from '../game/events.js';
import type { ReturnAbbot } from '../game/commands.js';
import type { ExpansionModule } from '../game/expansion.js';
import { fail, ok } from '../result.js';
import { featureScore } from '../scoring/features.js';
import { liftMeeple } from './base.js';

export const abbotModule: ExpansionModule = {
  id: 'abbot',
  figures: [{ kind: 'abbot', perPlayer: 1, on: ['cloister', 'garden'] }],
  commands: {
    returnAbbot: {
      steps: ['action'],
      decide(state, command) {
        const c = command as ReturnAbbot;
        const m = state.meeples.find((x) => x.kind === 'abbot' && x.player === c.player && x.x === c.at[0] && x.y === c.at[1]);
        if (!m) return fail(`player ${c.player} has no abbot at ${formatPosition(c.at)}`);
        if (state.board.isComplete(m.part)) return fail('the abbot\'s feature is complete; it has already scored');
        const s = featureScore(state, m.part, false);
        const events: GameEvent[] = [
          { type: 'abbotReturned', player: c.player, at: [m.x, m.y], on: m.on },
          { type: 'scored', players: [c.player], points: s.points, kind: s.kind, feature: { at: [m.x, m.y], on: m.on }, items: s.items, final: false },
        ];
        return ok(events);
      },
    },
  },
  reducers: {
    abbotReturned(state, e) {
      const s = e as AbbotReturned;
      liftMeeple(state, s.player, 'abbot', s.at, s.on);
      state.players[s.player]!.supply.abbot++;
      state.turn.step = 'actionDone';
    },
  },
};
