import { describe, expect, it } from 'vitest';
import { DRAWN_FIGURE_BOX_MM, pieceSvg, WOODEN_FIGURE_BOX_MM, woodenFigureSvg } from '../../models/render/pieces.js';
import { rasterise } from '../../models/render/rasterise.js';
import { generateRecording } from '../../models/scene/generate.js';
import { LEARNT_FIGURE_BOX_MM } from '../../models/synth/crop.js';
import type { Rgba } from '../../models/synth/image.js';

/** The opaque pixels' box (width, height) and whether any of them is near black. */
function opaque(img: Rgba): { w: number; h: number; black: number; n: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1, black = 0, n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const o = (y * img.width + x) * 4;
      if (img.data[o + 3]! < 230) continue;
      n++;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      if (Math.max(img.data[o]!, img.data[o + 1]!, img.data[o + 2]!) < 50) black++;
    }
  return { w: x1 - x0 + 1, h: y1 - y0 + 1, black, n };
}

describe('wooden figures: real figures as an overhead camera sees them, which no reader learnt', () => {
  it('stand (a bar and a head, turned the way they face) or lie, shaded, with no black outline', async () => {
    const drawn = opaque(await rasterise(pieceSvg('meeple', 'red'), 64));
    const standing = opaque(await rasterise(woodenFigureSvg('meeple', 'red', { standing: true, facing: 0 }), 64));
    const turned = opaque(await rasterise(woodenFigureSvg('meeple', 'red', { standing: true, facing: 90 }), 64));
    const lying = opaque(await rasterise(woodenFigureSvg('meeple', 'red', { standing: false, facing: 0 }), 64));
    // The drawing is outlined in black; dyed wood is not.
    expect(drawn.black).toBeGreaterThan(20);
    for (const f of [standing, turned, lying]) expect(f.black).toBe(0);
    // Seen from above a standing figure is its arms' span wide and a head deep, and turns as it faces.
    expect(standing.w).toBeGreaterThan(1.5 * standing.h);
    expect(turned.h).toBeGreaterThan(1.5 * turned.w);
    // Lying, its whole outline: about as tall as wide, and more of it than standing.
    expect(lying.h / lying.w).toBeGreaterThan(0.8);
    expect(lying.n).toBeGreaterThan(standing.n);
  });

  it('are drawn in a recording where its figures stand, and only there, and the manifest says so', async () => {
    const o = { seed: 7115, style: 'c3', maxTurns: 6, expansions: ['base'] } as const;
    const [drawn, wooden] = await Promise.all([generateRecording(o), generateRecording({ ...o, figures: 'wooden' })]);
    expect(wooden.manifest.commands).toEqual(drawn.manifest.commands);
    expect(wooden.manifest.commands.some((c) => c.type === 'placeMeeple')).toBe(true);
    expect(wooden.manifest.source.figures).toBe('wooden');
    expect(drawn.manifest.source.figures).toBeUndefined();
    // Before the first figure the frames are the same bytes; after it they differ.
    const firstFigure = wooden.manifest.visits.find((v) => v.camera.some((i) => wooden.manifest.commands[i]!.type === 'placeMeeple'))!;
    expect(Buffer.from(wooden.frames[firstFigure.handFrom - 1]!).equals(Buffer.from(drawn.frames[firstFigure.handFrom - 1]!))).toBe(true);
    const last = wooden.frames.length - 1;
    expect(Buffer.from(wooden.frames[last]!).equals(Buffer.from(drawn.frames[last]!))).toBe(false);
  });
});

describe('figure sizes: real ones, and the drawings every reader learnt', () => {
  /** Head to feet (a lying figure) or arm to arm (a standing one), mm, of a sprite laid in a box of `boxMm`. */
  const mm = async (svg: string, boxMm: number, along: 'h' | 'w') => {
    const px = 200;
    const f = opaque(await rasterise(svg, px));
    return (f[along] / px) * boxMm;
  };

  it('draws a follower about 16 mm tall and a big follower about 21 at real size, drawn or wooden', async () => {
    const follower = await mm(pieceSvg('meeple', 'red'), DRAWN_FIGURE_BOX_MM.real.meeple, 'h');
    const big = await mm(pieceSvg('big', 'red'), DRAWN_FIGURE_BOX_MM.real.big, 'h');
    expect(follower).toBeGreaterThan(15);
    expect(follower).toBeLessThan(17.5);
    expect(big).toBeGreaterThan(20);
    expect(big).toBeLessThan(22.5);
    const woodFollower = await mm(woodenFigureSvg('meeple', 'red', { standing: true, facing: 0 }), WOODEN_FIGURE_BOX_MM.meeple, 'w');
    const woodBig = await mm(woodenFigureSvg('big', 'red', { standing: true, facing: 0 }), WOODEN_FIGURE_BOX_MM.big, 'w');
    expect(woodFollower).toBeGreaterThan(13.5);
    expect(woodFollower).toBeLessThan(17.5);
    expect(woodBig).toBeGreaterThan(18.5);
    expect(woodBig).toBeLessThan(22.5);
  });

  it('keeps the learnt and recorded drawings smaller than real figures, and a real-sized recording says so', async () => {
    // Both models learnt figures in these boxes, and the recordings and the enrolled figures draw them
    // so: a follower about 10 mm tall, where a real one is 16.
    for (const box of [LEARNT_FIGURE_BOX_MM[0], DRAWN_FIGURE_BOX_MM.drawing.meeple]) expect(await mm(pieceSvg('meeple', 'red'), box, 'h')).toBeLessThan(12);
    const o = { seed: 7115, style: 'c3', maxTurns: 6, expansions: ['base'] } as const;
    const [drawing, real] = await Promise.all([generateRecording(o), generateRecording({ ...o, figureSize: 'real' })]);
    expect(real.manifest.source.figureSize).toBe('real');
    expect(drawing.manifest.source.figureSize).toBeUndefined();
    const last = real.frames.length - 1;
    expect(Buffer.from(real.frames[last]!).equals(Buffer.from(drawing.frames[last]!))).toBe(false);
  });
});
