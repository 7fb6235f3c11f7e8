/** The box: how many of each tile a set of expansions brings, in the chosen edition. */
import type { ExpansionId } from '../catalog/types.js';
import type { GameState } from './state.js';

export function addExpansionTiles(state: GameState, expansion: ExpansionId): void {
  const edition = state.setup.tileSet.edition;
  for (const t of state.catalog.all()) {
    if (t.expansion !== expansion) continue;
    const n = t.counts[edition] ?? 0;
    if (n > 0) state.supply.set(t.id, (state.supply.get(t.id) ?? 0) + n);
  }
}
