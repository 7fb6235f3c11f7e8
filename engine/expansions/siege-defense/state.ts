/** Siege & Defense's slice of the game state (see docs/jousts-crests-siege-defense.md). */
import type { SiegeSymbol } from '../../catalog/provisional2025.js';
import type { DefencePostName } from '../../game/events.js';

export interface DefencePost {
  /** Owners of the meeples in the row, in order. */
  readonly row: number[];
  /** Owners of the meeples stacked on the meeple space. */
  readonly space: number[];
  catapult: boolean;
}

export interface SdState {
  readonly rowLength: number;
  readonly posts: Record<DefencePostName, DefencePost>;
  /** Siege symbols of the drawn tile still to resolve, left to right. */
  readonly pending: SiegeSymbol[];
  /** An attack waiting for forced removals. */
  attack: { readonly post: DefencePostName; readonly removers: number[] } | null;
  /** Turn number of this turn's post placement, or 0. */
  postedTurn: number;
  /** The post whose row was filled this turn: a counter attack before step 3's scoring. */
  counterAttack: DefencePostName | null;
}
