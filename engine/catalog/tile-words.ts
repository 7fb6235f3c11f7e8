/**
 * A tile named as a player would name it: "City cap with a road curve", never `BASE_K`.
 *
 * The catalog's names describe each tile in its rotation-0 pose ("City cap N; road curve E-S"), which
 * is right for the data and wrong for a table: the tile on the table is turned any way. The words here
 * are the catalog name with every compass direction taken out (kept only where it tells two shapes
 * apart: two caps facing each other or side by side), and multi-cell pieces named as the piece.
 */
import type { ExpansionId, TileType } from './types.js';

const DIR = '[NESW]';
const OPPOSITE = new Set(['NS', 'SN', 'EW', 'WE']);

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four'];

/** Rewrites, in order; each takes the text a step closer to table words. */
const REWRITES: readonly [RegExp, string | ((...m: string[]) => string)][] = [
  [/\bcoat\(s\) of arms/g, 'coats of arms'],
  [/\b1 coats of arms/g, '1 coat of arms'],
  [/\b0 coats of arms/g, 'no coat of arms'],
  [/\(with inn\)/g, 'with inn'],
  // The 2025 data's letter captions ("(T) city cap N") and the catalog's asides "(the START tile …)".
  [/^\([A-Z ]+\)\s*/, ''],
  [/\s*\([^)]*\)/g, ''],
  [/\bC3 (spring|lake)/gi, (_m, w) => w],
  [/\bmonastery\b/gi, 'cloister'],
  [/\bcity corner\b/gi, 'corner city'],
  [/\bthe SE corner\b/g, 'a corner'],
  [/\bthe southern field\b/g, 'the field'],
  // Two curves in opposite corners ("N-W and S-E"): their directions say nothing more.
  [new RegExp(`\\s*\\b${DIR}-${DIR} and ${DIR}-${DIR}\\b`, 'g'), ''],
  // "city caps N and S" / "N and W": the only place where directions tell two shapes apart.
  [new RegExp(`\\b(${DIR}) and (${DIR})\\b`, 'g'), (_m, a, b) => (OPPOSITE.has(`${a}${b}`) ? 'on opposite sides' : 'on adjacent sides')],
  [new RegExp(`\\b(?:on )?${DIR}(?:\\+${DIR})+\\b`, 'g'), (m) => `on ${COUNT_WORDS[m.split('+').length]} sides`],
  [new RegExp(`\\b(roads?) ${DIR}(?:, ${DIR})+\\b`, 'g'), (m, w) => `${COUNT_WORDS[m.split(',').length]} ${w}s`.replace(/ss$/, 's')],
  [new RegExp(`\\s+${DIR}(?:, ${DIR})+\\b`, 'g'), ''],
  [new RegExp(`\\s*\\b${DIR}-${DIR}\\b`, 'g'), ''],
  [new RegExp(`\\b(from|leaves|enters from) ${DIR}\\b`, 'g'), (_m, w) => (w === 'from' ? '' : w === 'leaves' ? 'flows out' : 'flows in')],
  [new RegExp(`\\s+${DIR}\\b(?![-+])`, 'g'), ''],
  [/\bcorner city on two sides\b/gi, 'corner city'],
  [/\s+,/g, ','],
  [/\s{2,}/g, ' '],
  [/;\s*$/, ''],
];

/** Where the rewritten catalog name would not tell a tile from its mirror image. */
const OVERRIDES: Readonly<Record<string, string>> = {
  BASE_J: 'City cap; road curving right below it',
  BASE_K: 'City cap; road curving left below it',
  IC_G: 'City cap whose wall runs to a corner; two fields',
};

function rewrite(name: string): string {
  let s = name;
  for (const [re, to] of REWRITES) s = s.replace(re, to as string);
  s = s.trim().replace(/\s+through$/, ' through the tile');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The words for one tile type; multi-cell pieces are named as the whole piece. */
export function tileWords(tile: Pick<TileType, 'id' | 'name'>): string {
  const fixed = OVERRIDES[tile.id];
  if (fixed) return fixed;
  const piece = /^(tournament tile|fortress tile \d+)(, river side)?, cell \d+ of \d+/i.exec(tile.name);
  if (piece) return rewrite(`${piece[1]}${piece[2] ?? ''}`);
  return rewrite(tile.name);
}

/** Expansions as the box names them. */
export const EXPANSION_WORDS: Readonly<Record<ExpansionId, string>> = {
  base: 'Base game',
  river: 'The River',
  abbot: 'The Abbot',
  'inns-cathedrals': 'Inns & Cathedrals',
  tower: 'The Tower',
  'jousts-crests': 'Jousts & Crests',
  'siege-defense': 'Siege & Defense',
};

type Named = Pick<TileType, 'id' | 'name' | 'expansion'>;

/**
 * Words for every tile of a list, made distinct where two types would read the same: by their box
 * where they come from different expansions, else by a number (the pictures tell them apart).
 */
export function tileWordsAll(tiles: readonly Named[]): Map<string, string> {
  const words = new Map(tiles.map((t) => [t.id, tileWords(t)] as const));
  const byWords = new Map<string, Named[]>();
  for (const t of tiles) {
    const w = words.get(t.id)!;
    byWords.set(w, [...(byWords.get(w) ?? []), t]);
  }
  for (const [w, same] of byWords) {
    // Pieces share their words on purpose: every cell is the same piece.
    if (same.length < 2 || /^(Tournament|Fortress) tile/.test(w)) continue;
    const boxes = new Set(same.map((t) => t.expansion));
    const seenInBox = new Map<string, number>();
    for (const t of same) {
      const inBox = same.filter((o) => o.expansion === t.expansion).length;
      const n = (seenInBox.get(t.expansion) ?? 0) + 1;
      seenInBox.set(t.expansion, n);
      const parts = [boxes.size > 1 ? EXPANSION_WORDS[t.expansion] : '', inBox > 1 ? `${n} of ${inBox}` : ''];
      words.set(t.id, `${w} (${parts.filter(Boolean).join(', ')})`);
    }
  }
  return words;
}
