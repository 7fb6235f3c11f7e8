/** `npm run --silent bench`: every benchmark, one `name: value unit` line each (medians of several runs). */
import { allExpansionsGames } from './all-expansions.js';
import { appFigures } from './app.js';
import { corpusReplay, legalPlacementsOn100 } from './engine.js';

const benches: (() => string | Promise<string>)[] = [corpusReplay, legalPlacementsOn100, allExpansionsGames, appFigures];

for (const b of benches) console.log(await b());
