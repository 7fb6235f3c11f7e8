/**
 * What a player's screen must never show (issue 29, part 4): the engine's notation. Shared by the
 * words layer's unit test and the browser walk over every screen.
 */
const FORBIDDEN: readonly [string, RegExp][] = [
  ['a tile id', /\b(?:BASE|IC|TOWER|RIVER)_[A-Z0-9_]+\b|\b(?:JC|SD)-[A-Z0-9]/],
  ['a coordinate', /\[\s*-?\d+\s*,\s*-?\d+\s*\]/],
  ['a segment code', /\b[NESW][012]\b/],
  // Command and operation names are camelCase (placeTowerFloor, newGame, removeMeepleForAttack).
  ['a command name', /\b[a-z]+[A-Z][A-Za-z]*\b/],
  ['an argument path', /\bargument \d|\b\w+\.\d+\.\w+|\w\[\d+\]\.\w/],
  ['a 0-based player number', /\bplayer 0\b/],
];

/** The engine notation found in `text`, one line per find (empty: none). */
export function engineNotation(text: string): string[] {
  const out: string[] = [];
  for (const [what, re] of FORBIDDEN) {
    const g = new RegExp(re.source, 'g');
    for (const m of text.matchAll(g)) {
      const at = m.index ?? 0;
      out.push(`${what} “${m[0]}” in “…${text.slice(Math.max(0, at - 60), at + m[0].length + 40).replace(/\s+/g, ' ')}…”`);
    }
  }
  return out;
}
