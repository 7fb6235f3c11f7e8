/**
 * A refused argument said in the table's words: "New game: player 1's name: a player needs a name",
 * never "newGame: argument 0.players.0.name: …". The operation and the argument path stay exact in
 * the thrown-away developer detail only; a screen shows what and where as a player would say it.
 */

const OPERATION_WORDS: Readonly<Record<string, string>> = {
  newGame: 'New game',
  play: 'The move',
  undo: 'Undo',
  redo: 'Redo',
  correct: 'The correction',
  insert: 'The inserted move',
  importRecord: 'The import',
  exportRecord: 'The export',
  loadGame: 'Opening the game',
  saveTile: 'The tile description',
  readTilePhoto: 'The photo',
  pairingAllow: 'Pairing',
  unpairScreen: 'Unpairing',
  secondScreenMoves: 'Second screens',
  tileChoices: 'The tile pictures',
  placements: 'Where the tile may go',
  demoStart: 'The demo game',
  demoStop: 'The demo game',
};

const FIELD_WORDS: Readonly<Record<string, string>> = {
  color: 'colour',
  at: 'place',
  on: 'spot on the tile',
  rot: 'turn',
  tile: 'tile',
  owner: 'player',
  prisonerOf: 'prisoner holder',
  value: 'emblem value',
  post: 'defence post',
  space: 'defence post space',
  capture: 'capture',
  exchangeFor: 'figure that comes back',
  tileSet: 'tile set',
  riverStartTile: 'river start tile',
  base64: 'photo data',
};

/** `crownStart` → "crown start". */
const spaced = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function operationWords(op: string): string {
  return OPERATION_WORDS[op] ?? (op.startsWith('camera') ? 'The camera' : 'That request');
}

/** Where in the arguments, as words: ["0", "players", 1, "name"] → "player 2's name". */
export function pathWords(path: readonly PropertyKey[], op = ''): string {
  // In a move, `kind` is the figure's; elsewhere (a tile's features) it stays the kind.
  const fields: Readonly<Record<string, string>> = op === 'play' || op === 'correct' || op === 'insert' ? { ...FIELD_WORDS, kind: 'figure' } : FIELD_WORDS;
  const parts: string[] = [];
  // The first element is the argument's position: it says nothing to a player.
  const rest = typeof path[0] === 'number' ? path.slice(1) : path;
  for (let i = 0; i < rest.length; i++) {
    const p = rest[i]!;
    const next = rest[i + 1];
    if (p === 'players' && typeof next === 'number') {
      parts.push(`player ${next + 1}`);
      i++;
    } else if (typeof p === 'number') {
      parts.push(`item ${p + 1}`);
    } else {
      parts.push(fields[String(p)] ?? spaced(String(p)));
    }
  }
  if (parts.length === 0) return '';
  return parts.reduce((a, b) => (/^player \d+$/.test(a.split(', ').at(-1)!) ? `${a}'s ${b}` : `${a}, ${b}`));
}

export function argumentIssueWords(op: string, path: readonly PropertyKey[], message: string): string {
  const where = pathWords(path, op);
  return `${operationWords(op)}: ${where ? `${where}: ` : ''}${message}`;
}
