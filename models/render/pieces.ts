/** Player pieces as SVG (viewBox 0..100): meeples (normal, big, abbot), tower floors and catapults. */
export const PIECE_COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'grey'] as const;
export type PieceColor = (typeof PIECE_COLORS)[number];
export type PieceKind = 'meeple' | 'big' | 'abbot' | 'tower-floor' | 'catapult';

const FILL: Record<PieceColor, string> = {
  red: '#c8281e', blue: '#1f4fb8', green: '#2b8a2f', yellow: '#f0c419', black: '#1c1c1c', grey: '#8e8e8e',
};

export function pieceFill(color: PieceColor): string {
  return FILL[color];
}

const MEEPLE = 'M50 6c9 0 15 7 15 15c0 5-2 9-5 12l26 12c6 3 8 9 4 13c-3 3-9 2-15 0l-6 0 14 30c2 5-1 8-6 8h-16l-7-18-7 18h-16c-5 0-8-3-6-8l14-30-6 0c-6 2-12 3-15 0c-4-4-2-10 4-13l26-12c-3-3-5-7-5-12c0-8 6-15 15-15z';
const ABBOT = 'M50 4c8 0 14 6 15 14c1 6-1 10-3 13l10 6c4 14 9 34 14 54c1 4-1 5-5 5h-62c-4 0-6-1-5-5c5-20 10-40 14-54l10-6c-2-3-4-7-3-13c1-8 7-14 15-14z';

/** One piece seen from above, slightly from the side: the flat drawing every model and template of figures learnt. */
export function pieceSvg(kind: PieceKind, color: PieceColor, size = 100): string {
  const fill = FILL[color];
  const stroke = color === 'black' ? '#555555' : '#1a1a1a';
  let body: string;
  switch (kind) {
    case 'meeple':
      body = `<path d="${MEEPLE}" transform="translate(12 12) scale(0.76)" fill="${fill}" stroke="${stroke}" stroke-width="3"/>`;
      break;
    case 'big':
      body = `<path d="${MEEPLE}" fill="${fill}" stroke="${stroke}" stroke-width="3"/>`;
      break;
    case 'abbot':
      body = `<path d="${ABBOT}" transform="translate(10 8) scale(0.8)" fill="${fill}" stroke="${stroke}" stroke-width="3"/>`;
      break;
    case 'tower-floor':
      body = `<rect x="18" y="18" width="64" height="64" rx="4" fill="${fill === FILL.black ? '#3a3a3a' : '#d9d0bd'}" stroke="${stroke}" stroke-width="3"/><path d="M18 30h64M30 18v64M70 18v64M18 70h64" stroke="#7a705e" stroke-width="2"/>`;
      break;
    case 'catapult':
      body = `<g stroke="${stroke}" stroke-width="3"><rect x="20" y="55" width="60" height="16" fill="#8a5a2b"/><circle cx="28" cy="76" r="8" fill="#5a3a1b"/><circle cx="72" cy="76" r="8" fill="#5a3a1b"/><path d="M35 58L72 18" stroke="#6d4521" stroke-width="6"/><circle cx="72" cy="18" r="7" fill="${fill}"/></g>`;
      break;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">${body}</svg>`;
}

/**
 * How large drawn figures are laid on the table: `drawing`, as every recording and the tracker's
 * enrolled figures have them (a follower about 10 mm from head to feet, a big one 16), or `real`, as
 * large as real figures (about 16 and 21 mm).
 */
export type FigureSize = 'drawing' | 'real';
/**
 * The box, mm on the table, a `pieceSvg` drawing is laid in (the drawings fill 0.705 of their box's
 * height, a big one 0.93, the abbot 0.76): `real` gives a real figure's size, every kind the same box,
 * the drawings' own proportions telling the kinds apart.
 */
export const DRAWN_FIGURE_BOX_MM: Record<FigureSize, Record<'meeple' | 'big' | 'abbot', number>> = {
  drawing: { meeple: 14, big: 17, abbot: 14 },
  real: { meeple: 23, big: 23, abbot: 23 },
};
/** The box a `woodenFigureSvg` figure is laid in: as large as a real one (about 16 mm across, a big one 21). */
export const WOODEN_FIGURE_BOX_MM: Record<'meeple' | 'big' | 'abbot', number> = { meeple: 18, big: 22, abbot: 18 };

/**
 * How a real wooden figure looks to an overhead camera, for measuring what the figure readers make
 * of figures they never learnt (models/scene/generate.ts `figures: 'wooden'`; never in training or
 * in the tracker's enrolled figures). `pieceSvg` draws every figure flat, lying, outlined in black;
 * a real one stands (from above: the top of its head and arms, a sliver of its front under the
 * camera's tilt), is shaded by the room's light, has no outline, casts a shadow, faces any way, and
 * its colour is a dye on wood, not the drawing's. A farmer lies on its back, as players lay them.
 */
export interface WoodenPose {
  readonly standing: boolean;
  /** Which way it faces on the table, degrees clockwise. */
  readonly facing: number;
}

/** Dyed wood, as it photographs: each a little off the drawing's colour (FILL), darker or paler. */
const WOOD: Record<PieceColor, string> = {
  red: '#b8402c', blue: '#2c64b0', green: '#3f9440', yellow: '#e8bd35', black: '#2d2a27', grey: '#a29d95',
};

const shadeOf = (hex: string, k: number): string => {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const t = c.map((v) => Math.round(k >= 1 ? v + (255 - v) * (k - 1) : v * k));
  return `#${t.map((v) => Math.max(0, Math.min(255, v)).toString(16).padStart(2, '0')).join('')}`;
};

export function woodenFigureSvg(kind: 'meeple' | 'big' | 'abbot', color: PieceColor, pose: WoodenPose, size = 100): string {
  const wood = WOOD[color];
  const lit = shadeOf(wood, 1.25), mid = wood, dark = shadeOf(wood, 0.62), edge = shadeOf(wood, 0.5);
  const scale = kind === 'big' ? 1 : 0.88;
  const defs = `<defs><linearGradient id="w" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${lit}"/><stop offset="0.55" stop-color="${mid}"/><stop offset="1" stop-color="${dark}"/></linearGradient>`
    + `<filter id="s" x="-0.3" y="-0.3" width="1.6" height="1.6"><feGaussianBlur stdDeviation="3"/></filter></defs>`;
  const turned = `translate(50 50) rotate(${pose.facing}) scale(${scale}) translate(-50 -50)`;
  // From above a standing figure shows the tops of its head and arms; lying, its whole outline.
  const outline = !pose.standing
    ? `<path d="${kind === 'abbot' ? ABBOT : MEEPLE}"/>`
    : '<rect x="6" y="36" width="88" height="20" rx="10"/><circle cx="50" cy="42" r="15"/>';
  const paint = (fill: string, extra = '') => `<g transform="${turned}" fill="${fill}" ${extra}>${outline}</g>`;
  const shadow = `<g transform="translate(6 8)" opacity="0.35" filter="url(#s)">${paint('#000')}</g>`;
  // A standing figure's sides: its outline again, lower in the picture, in the shade (the camera's tilt).
  const sides = pose.standing ? `<g transform="translate(0 9)">${paint(dark)}</g>` : '';
  const top = paint('url(#w)', `stroke="${edge}" stroke-width="1.5"`);
  const grain = `<g clip-path="url(#c)"><path d="M0 30c30 8 70 8 100 0M0 62c30 7 70 7 100 0" stroke="${dark}" stroke-width="1.2" opacity="0.3" fill="none" transform="${turned}"/></g>`;
  const clip = `<clipPath id="c"><g transform="${turned}">${outline}</g></clipPath>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">${defs}${clip}${shadow}${sides}${top}${grain}</svg>`;
}
