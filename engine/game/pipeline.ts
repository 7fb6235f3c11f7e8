/** The turn pipeline assembled from the enabled modules, once per setup. */
import type { MeepleKind } from '../features/board.js';
import type { CommandHandler, ExpansionModule, FigureRule, Reducer } from './expansion.js';

export interface Pipeline {
  readonly modules: readonly ExpansionModule[];
  readonly commands: ReadonlyMap<string, CommandHandler>;
  readonly reducers: ReadonlyMap<string, Reducer>;
  readonly figures: ReadonlyMap<MeepleKind, FigureRule>;
  readonly tileRules: readonly NonNullable<ExpansionModule['tileRule']>[];
  readonly placementRules: readonly NonNullable<ExpansionModule['placementRule']>[];
  readonly meepleRules: readonly NonNullable<ExpansionModule['meepleRule']>[];
  readonly afterTilePlaced: readonly NonNullable<ExpansionModule['afterTilePlaced']>[];
  readonly featureScore: readonly NonNullable<ExpansionModule['featureScore']>[];
  readonly beforeScoring: readonly NonNullable<ExpansionModule['beforeScoring']>[];
  /** Expansions first, the base game's last. */
  readonly finalScoring: readonly NonNullable<ExpansionModule['finalScoring']>[];
  readonly maxPlayers: number;
  readonly commandRules: readonly NonNullable<ExpansionModule['commandRule']>[];
  readonly afterMeepleLifted: readonly NonNullable<ExpansionModule['afterMeepleLifted']>[];
  readonly nextPlayer: readonly NonNullable<ExpansionModule['nextPlayer']>[];
  readonly afterTileDrawn: readonly NonNullable<ExpansionModule['afterTileDrawn']>[];
}

export function buildPipeline(modules: readonly ExpansionModule[]): Pipeline {
  const commands = new Map<string, CommandHandler>();
  const reducers = new Map<string, Reducer>();
  const figures = new Map<MeepleKind, FigureRule>();
  for (const m of modules) {
    for (const [type, h] of Object.entries(m.commands ?? {})) {
      if (commands.has(type)) throw new Error(`command ${type} is claimed by two modules`);
      commands.set(type, h as CommandHandler);
    }
    for (const [type, r] of Object.entries(m.reducers ?? {})) {
      if (reducers.has(type)) throw new Error(`event ${type} is claimed by two modules`);
      reducers.set(type, r as Reducer);
    }
    for (const f of m.figures ?? []) figures.set(f.kind, f);
  }
  const hooks = <K extends keyof ExpansionModule>(k: K) =>
    modules.flatMap((m) => (m[k] ? [(m[k] as (...a: never[]) => unknown).bind(m)] : [])) as NonNullable<ExpansionModule[K]>[];
  const base = modules.filter((m) => m.id === 'base');
  const others = modules.filter((m) => m.id !== 'base').sort((a, b) => (a.finalOrder ?? 0) - (b.finalOrder ?? 0));
  return {
    modules,
    commands,
    reducers,
    figures,
    tileRules: hooks('tileRule'),
    placementRules: hooks('placementRule'),
    meepleRules: hooks('meepleRule'),
    afterTilePlaced: hooks('afterTilePlaced'),
    featureScore: hooks('featureScore'),
    beforeScoring: hooks('beforeScoring'),
    finalScoring: [...others, ...base].flatMap((m) => (m.finalScoring ? [m.finalScoring.bind(m)] : [])),
    commandRules: hooks('commandRule'),
    afterMeepleLifted: hooks('afterMeepleLifted'),
    nextPlayer: hooks('nextPlayer'),
    afterTileDrawn: hooks('afterTileDrawn'),
    maxPlayers: Math.max(...modules.map((m) => m.maxPlayers ?? 0)),
  };
}
