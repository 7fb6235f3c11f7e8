/** Every module the engine knows, by record expansion id. */
import type { ExpansionId } from '../catalog/types.js';
import type { ExpansionModule } from '../game/expansion.js';
import { abbotModule } from './abbot.js';
import { baseModule } from './base.js';
import { innsCathedralsModule } from './inns-cathedrals.js';
import { joustsCrestsModule } from './jousts-crests.js';
import { riverModule } from './river.js';
import { siegeDefenseModule } from './siege-defense.js';
import { towerModule } from './tower.js';

export const MODULES: ReadonlyMap<ExpansionId, ExpansionModule> = new Map(
  [baseModule, riverModule, abbotModule, innsCathedralsModule, towerModule, joustsCrestsModule, siegeDefenseModule].map((m) => [m.id, m]),
);
