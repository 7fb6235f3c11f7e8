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

/** One piece seen from above, slightly from the side; `shade` darkens for shadows. */
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
