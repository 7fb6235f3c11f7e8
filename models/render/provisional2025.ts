/**
 * Placeholders for the 2025 pieces (Jousts & Crests, Siege & Defense). Their printed geometry is not
 * known yet (engine/catalog/data/tiles-2025.json says so), so these drawings are PROVISIONAL: each
 * carries a visible "provisional" mark and none of them is a recognition class until the table
 * confirms real geometry. They exist so that the display can show the pieces at all.
 */
export type ProvisionalPiece =
  | { kind: 'tournament'; cols: number; rows: number }
  | { kind: 'fortress'; cols: number; rows: number }
  | { kind: 'prize'; statue: true }
  | { kind: 'siege-symbol'; post: 'knights' | 'travelers' | 'monks' | 'any' };

const MARK = `<text x="4" y="96" font-size="7" font-family="sans-serif" fill="#b00020">provisional</text>`;

export function provisionalSvg(piece: ProvisionalPiece, cellPx = 100): string {
  if (piece.kind === 'tournament' || piece.kind === 'fortress') {
    const w = 100 * piece.cols;
    const h = 100 * piece.rows;
    const inner =
      piece.kind === 'tournament'
        ? `<ellipse cx="${w / 2}" cy="${h / 2}" rx="${w * 0.38}" ry="${h * 0.3}" fill="#d8c49a" stroke="#5a4630" stroke-width="3"/><path d="M${w * 0.2} ${h / 2}H${w * 0.8}" stroke="#8a6a40" stroke-width="4" stroke-dasharray="6 4"/><path d="M${w * 0.15} ${h * 0.2}l8 -12 8 12z M${w * 0.85} ${h * 0.2}l8 -12 8 12z" fill="#b8442f"/>`
        : `<rect x="${w * 0.12}" y="${h * 0.12}" width="${w * 0.76}" height="${h * 0.76}" fill="#cdb48a" stroke="#4a3f33" stroke-width="8"/><g fill="#4a3f33">${[0.12, 0.88].flatMap((fx) => [0.12, 0.88].map((fy) => `<rect x="${w * fx - 9}" y="${h * fy - 9}" width="18" height="18"/>`)).join('')}</g>`;
    const grid = Array.from({ length: piece.cols - 1 }, (_, i) => `<path d="M${(i + 1) * 100} 0V${h}" stroke="rgba(0,0,0,0.25)" stroke-dasharray="4 4"/>`).join('') +
      Array.from({ length: piece.rows - 1 }, (_, i) => `<path d="M0 ${(i + 1) * 100}H${w}" stroke="rgba(0,0,0,0.25)" stroke-dasharray="4 4"/>`).join('');
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${cellPx * piece.cols}" height="${cellPx * piece.rows}" viewBox="0 0 ${w} ${h}" data-provisional="true"><rect width="${w}" height="${h}" fill="#9cbc5a"/>${inner}${grid}${MARK}</svg>`;
  }
  if (piece.kind === 'prize') {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${cellPx}" height="${cellPx}" viewBox="0 0 100 100" data-provisional="true"><rect width="100" height="100" fill="#9cbc5a"/><path d="M0 0H100Q50 60 0 0Z" fill="#d8b77c" stroke="#6f6453" stroke-width="4"/><g fill="#a7a7a7" stroke="#333" stroke-width="1.5"><rect x="42" y="62" width="16" height="8"/><path d="M46 62v-14h8v14z"/><circle cx="50" cy="44" r="5"/></g>${MARK}</svg>`;
  }
  const glyph = { knights: 'M50 30l12 20-12 20-12-20z', travelers: 'M35 65l15-35 15 35z', monks: 'M44 30h12v40h-12zM36 40h28v8h-28z', any: '' }[piece.post];
  const body = piece.post === 'any'
    ? `<text x="50" y="64" font-size="40" text-anchor="middle" font-family="sans-serif" fill="#222">?</text>`
    : `<path d="${glyph}" fill="#222"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${cellPx}" height="${cellPx}" viewBox="0 0 100 100" data-provisional="true"><circle cx="50" cy="50" r="34" fill="#e9dcc0" stroke="#7a2a1a" stroke-width="5"/>${body}${MARK}</svg>`;
}
