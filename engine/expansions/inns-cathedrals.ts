/**
 * Inns & Cathedrals (first edition, 18 tiles): big meeples (count 2 for majority), a sixth colour,
 * inns doubling a finished road and cathedrals tripling a finished city; unfinished, both score
 * nothing under the `innCathedralIncomplete: "zero"` rule.
 */
import type { ScoreItem } from '../game/events.js';
import type { ExpansionModule } from '../game/expansion.js';
import { addExpansionTiles } from '../game/supply.js';

export const innsCathedralsModule: ExpansionModule = {
  id: 'inns-cathedrals',
  maxPlayers: 6,
  figures: [{ kind: 'big', perPlayer: 1, on: ['road', 'city', 'field', 'cloister'] }],
  setup(state) {
    addExpansionTiles(state, 'inns-cathedrals');
  },
  featureScore({ state, feature, tiles, complete }, items): ScoreItem[] {
    const zero = state.setup.rules.innCathedralIncomplete === 'zero';
    if (feature.kind === 'road' && feature.inns > 0) {
      if (complete) return [...items, { name: 'inn', points: tiles }];
      if (zero) return [{ name: 'inn', points: 0 }];
    }
    if (feature.kind === 'city' && feature.cathedrals > 0) {
      if (complete) return [...items, { name: 'cathedral', points: tiles + feature.pennants }];
      if (zero) return [{ name: 'cathedral', points: 0 }];
    }
    return items;
  },
};
