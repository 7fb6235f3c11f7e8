/** `npm run --silent replay -- DIR`: a recording through the tracker, headless. */
import { replayRecording } from '../models/track/replay.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run --silent replay -- RECORDING_DIR');
  process.exit(2);
}
try {
  const r = await replayRecording(dir, {
    onEvent: (e) => {
      if (e.kind === 'error' || e.kind === 'notice') console.log(`frame ${e.frame}: ${e.kind}: ${e.message}`);
    },
  });
  const names = r.game.state.setup.players.map((p) => p.name);
  r.game.history.forEach((h, i) => {
    const c = h.command;
    if (c.type === 'placeTile' || c.type === 'placePrizeTile')
      console.log(`${String(i).padStart(4)} ${names[c.player]} ${c.type === 'placePrizeTile' ? 'prize ' : ''}${c.tile} at (${c.at[0]}, ${c.at[1]}) rot ${c.rot} [${r.by[i]}]`);
    else if (c.type === 'placeMeeple') console.log(`${String(i).padStart(4)} ${names[c.player]} ${c.kind} meeple on ${c.on} [${r.by[i]}]`);
    else console.log(`${String(i).padStart(4)} ${c.type} [table]`);
  });
  console.log(`final scores: ${names.map((n, i) => `${n} ${r.scores[i]}`).join(', ')} (ground truth: ${r.truthScores.join(', ')})`);
  if (r.frames === 0) console.log('no frames read');
  console.log(`moves exact: ${r.exact}/${r.cameraMoves}`);
} catch (e) {
  console.error(`replay: ${(e as Error).message}`);
  process.exit(1);
}
