/** The box: how many of each tile a set of expansions brings, in the chosen edition. */
import type { ExpansionId } from '../catalog/types.js';
import type { GameState } from './state.js';
import { tiles2025 } from '../catalog/provisional2025.js';

export function addExpansionTiles(state: GameState, expansion: ExpansionId): void {
  const edition = state.setup.tileSet.edition;
  for (const t of state.catalog.ofExpansion(expansion)) {
    const n = t.counts[edition] ?? 0;
    if (n > 0) state.supply.set(t.id, (state.supply.get(t.id) ?? 0) + n);
  }
}

/** With The River, the river tiles an expansion shuffles into the river tiles (Jousts & Crests, Siege & Defense). */
export function addExpansionRiverTiles(state: GameState, expansion: ExpansionId): void {
  if (!state.setup.expansions.includes('river')) return;
  for (const [id, r] of tiles2025().riverTiles) {
    if (r.expansion === expansion) state.supply.set(id, (state.supply.get(id) ?? 0) + r.count);
  }
}
