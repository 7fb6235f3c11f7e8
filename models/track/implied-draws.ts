/**
 * The table types no draw where the placement implies it (Jousts & Crests, Siege & Defense: the tile
 * laid is the tile drawn): a recorded game's commands and manifest as such a table plays them. Used
 * by the camera's table (electron/services/demo/demo-table.ts), the camera tests and `replay`.
 */
import type { Command } from '../../engine/game/commands.js';

/**
 * A recorded game's commands less every draw its placement implies (Jousts & Crests, Siege &
 * Defense: the tile laid is the tile drawn). A draw stays where the rules put something between it
 * and its tile (a siege symbol, the tournament tile at the first river bend) or the tile is discarded.
 */
export function withoutImpliedDraws(commands: readonly Command[]): Command[] {
  return commands.filter((_, i) => !drawImplied(commands, i));
}

function drawImplied(commands: readonly Command[], i: number): boolean {
  const c = commands[i]!;
  if (c.type !== 'drawTile') return false;
  const rest = commands.slice(i + 1);
  const end = rest.findIndex((x) => x.type === 'placeTile' || x.type === 'discardTile' || x.type === 'endTurn' || x.type === 'skipTurn');
  const laid = end < 0 ? undefined : rest[end];
  return laid?.type === 'placeTile' && laid.tile === c.tile && rest.slice(0, end).every((x) => x.type === 'placePrizeTile' || x.type === 'payRansom');
}

/**
 * A recording's manifest as the table now plays it: its commands less the draws their placements
 * imply (`withoutImpliedDraws`), and its visits' command indices moved to match.
 */
export function manifestWithoutDraws<M extends { readonly commands: readonly Command[]; readonly visits: readonly { readonly camera: readonly number[] }[] }>(m: M): M {
  const moved: number[] = [];
  let n = 0;
  for (let i = 0; i < m.commands.length; i++) {
    moved.push(n);
    if (!drawImplied(m.commands, i)) n++;
  }
  return { ...m, commands: withoutImpliedDraws(m.commands), visits: m.visits.map((v) => ({ ...v, camera: v.camera.map((i) => moved[i]!) })) };
}
