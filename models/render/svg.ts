/**
 * Draws a catalog tile as SVG from its data alone (viewBox 0..100, catalog orientation). Pure string
 * building with no Node APIs, so the display can draw its board with the same code.
 */
import type { TileType } from '../../engine/catalog/types.js';
import { distToPolyline, layoutTile, pointInPolygon, type Pt, type TileLayout } from './layout.js';
import { between, mixSeed, pick, rng, type Rng } from './random.js';
import { jitterColor, type ArtStyle, type Texture } from './styles.js';

export interface TileDrawOptions {
  /** Varies decorations, textures and colours within the style. */
  readonly variant?: number;
  /**
   * Training only: also varies the geometry (`layoutTile`'s `vary`) and the style itself — texture,
   * line weights, road and wall widths, pennant size, colours further from the style's — so the
   * model meets many drawings of each tile rather than five.
   */
  readonly vary?: boolean;
  /** With `vary`: the pennant anywhere well inside its city (default), or where the plain drawing has it. */
  readonly movePennants?: boolean;
  /**
   * With `vary`: each small mark — pennant, cloister, garden, cathedral, inn — drawn in one of
   * several forms (a printed edition draws them its own way; the model should know a cloister by
   * being a building in the field's middle, not by one drawing of it). Off, the varied drawings are
   * exactly as before.
   */
  readonly varyMarks?: boolean;
  /**
   * With `vary`: three faces in four drawn through a paint filter — edges wobbled by fractal noise,
   * the fills mottled in colour and grained — as printed art is painted, not flat fills with strokes.
   * Off, the varied drawings are exactly as before.
   */
  readonly paint?: boolean;
  /** Pixel size written into the SVG's width/height. */
  readonly size?: number;
}

const f1 = (n: number) => (Math.round(n * 10) / 10).toString();
const pts = (ps: readonly Pt[]) => ps.map((p) => `${f1(p[0])},${f1(p[1])}`).join(' ');

const TEXTURES: readonly Texture[] = ['grass', 'dots', 'hatch', 'plain', 'stipple'];

/** A style drawn around `base`: what `vary` changes besides the geometry. */
function variedStyle(base: ArtStyle, r: Rng): ArtStyle {
  const j = (c: string) => jitterColor(c, r, 26);
  return {
    ...base,
    field: j(base.field), fieldDark: j(base.fieldDark), road: j(base.road), roadEdge: j(base.roadEdge), city: j(base.city),
    cityDark: j(base.cityDark), roof: j(base.roof), wall: j(base.wall), river: j(base.river), riverEdge: j(base.riverEdge),
    tree: j(base.tree), shieldA: j(base.shieldA), outline: j(base.outline),
    line: base.line * between(r, 0.5, 1.7),
    roadWidth: base.roadWidth * between(r, 0.75, 1.35),
    wallWidth: base.wallWidth * between(r, 0.6, 1.5),
    texture: pick(r, TEXTURES),
    decorations: Math.round(base.decorations * between(r, 0.3, 1.8)),
    bevel: between(r, 0, 3),
  };
}

function palette(style: ArtStyle, r: Rng): ArtStyle {
  const j = (c: string) => jitterColor(c, r, 14);
  return {
    ...style,
    field: j(style.field), fieldDark: j(style.fieldDark), road: j(style.road), city: j(style.city), cityDark: j(style.cityDark),
    roof: j(style.roof), river: j(style.river), tree: j(style.tree),
  };
}

function texture(s: ArtStyle, r: Rng, color: string, count: number, inside: (p: Pt) => boolean): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const p: Pt = [r() * 100, r() * 100];
    if (!inside(p)) continue;
    switch (s.texture) {
      case 'grass': {
        const a = between(r, -0.6, 0.6);
        out.push(`<path d="M${f1(p[0])} ${f1(p[1])}l${f1(Math.sin(a) * 3)} ${f1(-Math.cos(a) * 3)}" stroke="${color}" stroke-width="0.7"/>`);
        break;
      }
      case 'dots':
        out.push(`<circle cx="${f1(p[0])}" cy="${f1(p[1])}" r="${f1(between(r, 0.6, 1.4))}" fill="${color}"/>`);
        break;
      case 'stipple':
        out.push(`<rect x="${f1(p[0])}" y="${f1(p[1])}" width="0.9" height="0.9" fill="${color}"/>`);
        break;
      case 'hatch':
        out.push(`<path d="M${f1(p[0])} ${f1(p[1])}l4 -4" stroke="${color}" stroke-width="0.5"/>`);
        break;
      case 'plain':
        break;
    }
  }
  return out.join('');
}

function house(x: number, y: number, w: number, roof: string, wall: string, outline: string, line: number, angle = 0): string {
  const h = w * 0.8;
  return `<g transform="translate(${f1(x)} ${f1(y)}) rotate(${f1(angle)})"><rect x="${f1(-w / 2)}" y="${f1(-h / 2)}" width="${f1(w)}" height="${f1(h)}" fill="${wall}" stroke="${outline}" stroke-width="${f1(line * 0.5)}"/><path d="M${f1(-w / 2 - 1)} ${f1(-h / 2 + h * 0.45)}L0 ${f1(-h / 2 - h * 0.35)}L${f1(w / 2 + 1)} ${f1(-h / 2 + h * 0.45)}Z" fill="${roof}" stroke="${outline}" stroke-width="${f1(line * 0.5)}"/></g>`;
}

function shield(p: Pt, s: ArtStyle, scale: number): string {
  const w = 9 * scale;
  const h = 11 * scale;
  const x = p[0] - w / 2;
  const y = p[1] - h / 2;
  return `<g><path d="M${f1(x)} ${f1(y)}h${f1(w)}v${f1(h * 0.55)}q0 ${f1(h * 0.35)} ${f1(-w / 2)} ${f1(h * 0.45)}q${f1(-w / 2)} ${f1(-h * 0.1)} ${f1(-w / 2)} ${f1(-h * 0.45)}Z" fill="${s.shieldA}" stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"/><path d="M${f1(p[0])} ${f1(y + 1.5 * scale)}v${f1(h * 0.7)}M${f1(x + 1.5 * scale)} ${f1(p[1] - 1)}h${f1(w - 3 * scale)}" stroke="${s.shieldB}" stroke-width="${f1(1.6 * scale)}"/></g>`;
}

function cathedral(p: Pt, s: ArtStyle): string {
  const [x, y] = p;
  return `<g stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"><rect x="${f1(x - 12)}" y="${f1(y - 7)}" width="24" height="14" fill="#c9c3b6"/><rect x="${f1(x - 15)}" y="${f1(y - 12)}" width="7" height="24" fill="#b5ae9f"/><rect x="${f1(x + 8)}" y="${f1(y - 12)}" width="7" height="24" fill="#b5ae9f"/><path d="M${f1(x - 12)} ${f1(y)}h24M${f1(x)} ${f1(y - 7)}v14" stroke="${s.roof}" stroke-width="2"/><circle cx="${f1(x)}" cy="${f1(y)}" r="3" fill="#e8d27a"/></g>`;
}

function cloister(p: Pt, s: ArtStyle): string {
  const [x, y] = p;
  return `<g stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"><rect x="${f1(x - 13)}" y="${f1(y - 10)}" width="26" height="20" fill="#e9e1cf"/><rect x="${f1(x - 9)}" y="${f1(y - 6)}" width="18" height="12" fill="${s.field}"/><path d="M${f1(x - 15)} ${f1(y - 10)}h30v-5h-30z" fill="${s.roof}"/><path d="M${f1(x)} ${f1(y - 22)}v10M${f1(x - 3.5)} ${f1(y - 18.5)}h7" stroke="${s.outline}" stroke-width="1.6"/><rect x="${f1(x - 3)}" y="${f1(y - 14)}" width="6" height="4" fill="${s.roof}"/></g>`;
}

function garden(p: Pt, s: ArtStyle, r: Rng): string {
  const [x, y] = p;
  const flowers: string[] = [];
  for (let i = 0; i < 9; i++) {
    const fx = x - 8 + r() * 16;
    const fy = y - 6 + r() * 12;
    flowers.push(`<circle cx="${f1(fx)}" cy="${f1(fy)}" r="1.1" fill="${i % 3 === 0 ? '#f2d94c' : i % 3 === 1 ? '#e86c8a' : '#ffffff'}"/>`);
  }
  return `<g><rect x="${f1(x - 11)}" y="${f1(y - 9)}" width="22" height="18" rx="3" fill="#4f8a2e" stroke="${s.tree}" stroke-width="2.2"/><path d="M${f1(x - 11)} ${f1(y)}h22M${f1(x)} ${f1(y - 9)}v18" stroke="#c8b98a" stroke-width="1.2"/>${flowers.join('')}</g>`;
}

// ── the marks' other forms (`varyMarks`); each keeps within the plain form's footprint ──

type MarkDraw = (p: Pt, s: ArtStyle, r: Rng, scale: number) => string;

const SHIELD_FORMS: MarkDraw[] = [
  (p, s, _r, k) => shield(p, s, k),
  // A roundel with a cross.
  (p, s, _r, k) => `<g><circle cx="${f1(p[0])}" cy="${f1(p[1])}" r="${f1(5 * k)}" fill="${s.shieldA}" stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"/><path d="M${f1(p[0] - 3.5 * k)} ${f1(p[1])}h${f1(7 * k)}M${f1(p[0])} ${f1(p[1] - 3.5 * k)}v${f1(7 * k)}" stroke="${s.shieldB}" stroke-width="${f1(1.4 * k)}"/></g>`,
  // A swallow-tailed banner on a pole.
  (p, s, _r, k) => `<g><path d="M${f1(p[0] - 4 * k)} ${f1(p[1] + 6 * k)}v${f1(-12 * k)}" stroke="${s.outline}" stroke-width="${f1(1.1 * k)}"/><path d="M${f1(p[0] - 4 * k)} ${f1(p[1] - 6 * k)}h${f1(9 * k)}l${f1(-2.5 * k)} ${f1(3 * k)}l${f1(2.5 * k)} ${f1(3 * k)}h${f1(-9 * k)}Z" fill="${s.shieldA}" stroke="${s.outline}" stroke-width="${f1(s.line * 0.5)}"/><path d="M${f1(p[0] - 4 * k)} ${f1(p[1] - 3 * k)}h${f1(7 * k)}" stroke="${s.shieldB}" stroke-width="${f1(1.3 * k)}"/></g>`,
  // A lozenge with a band.
  (p, s, _r, k) => `<g><path d="M${f1(p[0])} ${f1(p[1] - 6 * k)}l${f1(4.5 * k)} ${f1(6 * k)}l${f1(-4.5 * k)} ${f1(6 * k)}l${f1(-4.5 * k)} ${f1(-6 * k)}Z" fill="${s.shieldA}" stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"/><path d="M${f1(p[0] - 3 * k)} ${f1(p[1] - 2 * k)}l${f1(6 * k)} ${f1(4 * k)}" stroke="${s.shieldB}" stroke-width="${f1(1.5 * k)}"/></g>`,
];

const CLOISTER_FORMS: MarkDraw[] = [
  (p, s) => cloister(p, s),
  // A church seen from above: a cross-shaped roof with its ridges, a round bell tower.
  (p, s, r) => {
    const [x, y] = p;
    const a = between(r, -20, 20);
    return `<g transform="rotate(${f1(a)} ${f1(x)} ${f1(y)})" stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"><path d="M${f1(x - 5)} ${f1(y - 13)}h10v7h8v10h-8v9h-10v-9h-8v-10h8Z" fill="${s.roof}"/><path d="M${f1(x)} ${f1(y - 13)}v26M${f1(x - 13)} ${f1(y - 1)}h26" stroke="${s.cityDark}" stroke-width="1"/><circle cx="${f1(x)}" cy="${f1(y - 1)}" r="3.2" fill="#e9e1cf"/></g>`;
  },
  // A long chapel with a pitched roof and a cross at its end, a yard wall round it.
  (p, s, r) => {
    const [x, y] = p;
    const a = between(r, -90, 90);
    return `<g transform="rotate(${f1(a)} ${f1(x)} ${f1(y)})" stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"><rect x="${f1(x - 14)}" y="${f1(y - 11)}" width="28" height="22" rx="2" fill="none" stroke="#d8cdb4" stroke-width="1.6"/><rect x="${f1(x - 10)}" y="${f1(y - 6)}" width="20" height="12" fill="#e9e1cf"/><path d="M${f1(x - 10)} ${f1(y - 6)}l4 6l-4 6M${f1(x - 6)} ${f1(y)}h16" fill="${s.roof}"/><path d="M${f1(x + 12)} ${f1(y - 4)}v8M${f1(x + 10)} ${f1(y - 1.5)}h4" stroke-width="1.4"/></g>`;
  },
];

const GARDEN_FORMS: MarkDraw[] = [
  (p, s, r) => garden(p, s, r),
  // A round hedge with flowers inside.
  (p, s, r) => {
    const [x, y] = p;
    const flowers: string[] = [];
    for (let i = 0; i < 8; i++) {
      const a = r() * Math.PI * 2;
      const d = r() * 7;
      flowers.push(`<circle cx="${f1(x + Math.cos(a) * d)}" cy="${f1(y + Math.sin(a) * d)}" r="1.2" fill="${i % 2 ? '#e86c8a' : '#f2d94c'}"/>`);
    }
    return `<g><circle cx="${f1(x)}" cy="${f1(y)}" r="10.5" fill="#4f8a2e" stroke="${s.tree}" stroke-width="2.4"/>${flowers.join('')}</g>`;
  },
  // Rows of plants in tilled beds.
  (p, s, r) => {
    const [x, y] = p;
    const rows: string[] = [];
    for (let i = 0; i < 4; i++) rows.push(`<path d="M${f1(x - 9)} ${f1(y - 6 + i * 4)}h18" stroke="${r() < 0.5 ? '#3f7a24' : '#6a9a2e'}" stroke-width="2" stroke-dasharray="2 1"/>`);
    return `<g><rect x="${f1(x - 11)}" y="${f1(y - 9)}" width="22" height="18" fill="#8a6a3c" stroke="${s.outline}" stroke-width="${f1(s.line * 0.5)}"/>${rows.join('')}</g>`;
  },
];

const CATHEDRAL_FORMS: MarkDraw[] = [
  (p, s) => cathedral(p, s),
  // A cross-shaped nave with a dome where its arms meet.
  (p, s) => {
    const [x, y] = p;
    return `<g stroke="${s.outline}" stroke-width="${f1(s.line * 0.6)}"><path d="M${f1(x - 4)} ${f1(y - 13)}h8v8h9v8h-9v10h-8v-10h-9v-8h9Z" fill="#c9c3b6"/><circle cx="${f1(x)}" cy="${f1(y - 1)}" r="4.5" fill="#8c8fa0"/><path d="M${f1(x)} ${f1(y - 13)}v-3" stroke-width="1.4"/></g>`;
  },
];

function towerFoundation(p: Pt, s: ArtStyle): string {
  const [x, y] = p;
  return `<g><circle cx="${f1(x)}" cy="${f1(y)}" r="10" fill="#a19a8c" stroke="${s.outline}" stroke-width="${f1(s.line)}"/><circle cx="${f1(x)}" cy="${f1(y)}" r="6.5" fill="#77705f" stroke="#d9d3c4" stroke-width="1" stroke-dasharray="2 1.5"/></g>`;
}

function tree(p: Pt, s: ArtStyle, r: Rng): string {
  const rad = between(r, 2.5, 4.5);
  return `<g><circle cx="${f1(p[0] + 0.8)}" cy="${f1(p[1] + 0.8)}" r="${f1(rad)}" fill="rgba(0,0,0,0.25)"/><circle cx="${f1(p[0])}" cy="${f1(p[1])}" r="${f1(rad)}" fill="${s.tree}" stroke="${s.outline}" stroke-width="${f1(s.line * 0.3)}"/></g>`;
}

function strokePath(points: readonly Pt[], color: string, width: number, extra = '', cap = 'round'): string {
  return `<polyline points="${pts(points)}" fill="none" stroke="${color}" stroke-width="${f1(width)}" stroke-linecap="${cap}" stroke-linejoin="round"${extra}/>`;
}

/** The tile drawn at catalog rotation 0. */
export function tileSvg(tile: TileType, style: ArtStyle, options: TileDrawOptions = {}): string {
  const layout = layoutTile(tile, options.vary ? rng(mixSeed(options.variant ?? 0, 0x1a7)) : undefined, { movePennants: options.movePennants ?? true });
  return tileSvgFromLayout(layout, tile, style, options);
}

export function tileSvgFromLayout(layout: TileLayout, tile: TileType, base: ArtStyle, options: TileDrawOptions = {}): string {
  // The varied style has its own generator so that the plain drawings stay exactly as they were.
  const variant = options.variant ?? 0;
  const varied = options.vary ? rng(mixSeed(variant, 0x57e)) : null;
  const r = rng(variant);
  const s = palette(varied ? variedStyle(base, varied) : base, r);
  const shieldScale = varied ? between(varied, 0.7, 1.35) : 1;
  // The marks' forms have a generator of their own, so that the varied drawings without them stay as they were.
  const marks = varied && options.varyMarks ? rng(mixSeed(variant, 0x3a4)) : null;
  const shieldForm = marks ? pick(marks, SHIELD_FORMS) : SHIELD_FORMS[0]!;
  const size = options.size ?? 100;
  const parts: string[] = [];
  parts.push(`<rect x="0" y="0" width="100" height="100" fill="${s.field}"/>`);
  const inCity = (p: Pt) => layout.cities.some((c) => pointInPolygon(p, c.outline));
  const nearPath = (p: Pt, d: number) => layout.paths.some((q) => distToPolyline(p, q.points) < d);
  parts.push(texture(s, r, s.fieldDark, varied ? Math.round(between(varied, 150, 750)) : 420, (p) => !inCity(p)));

  // Field decorations first so that roads and cities cover any overlap.
  const free = (p: Pt) =>
    !inCity(p) && !nearPath(p, 9) && layout.interiors.every((i) => Math.hypot(p[0] - i.at[0], p[1] - i.at[1]) > 17) &&
    p[0] > 6 && p[0] < 94 && p[1] > 6 && p[1] < 94;
  const decoCount = Math.round(s.decorations * between(r, 0.5, 1.5));
  for (let i = 0, placed = 0; i < 60 && placed < decoCount; i++) {
    const p: Pt = [r() * 100, r() * 100];
    if (!free(p)) continue;
    placed++;
    parts.push(r() < 0.85 ? tree(p, s, r) : house(p[0], p[1], 6, s.roof, '#d8cdb4', s.outline, s.line, r() * 40 - 20));
  }

  for (const p of layout.paths.filter((q) => q.kind === 'river')) {
    parts.push(strokePath(p.points, s.riverEdge, s.roadWidth * 1.7 + s.line * 2));
    parts.push(strokePath(p.points, s.river, s.roadWidth * 1.7));
  }
  if (layout.spring) parts.push(`<circle cx="${f1(layout.spring[0])}" cy="${f1(layout.spring[1])}" r="9" fill="${s.river}" stroke="${s.riverEdge}" stroke-width="${f1(s.line)}"/>`);
  if (layout.lake) parts.push(`<ellipse cx="${f1(layout.lake[0])}" cy="${f1(layout.lake[1])}" rx="24" ry="17" fill="${s.river}" stroke="${s.riverEdge}" stroke-width="${f1(s.line)}"/>`);
  const roads = layout.paths.filter((q) => q.kind === 'road');
  for (const p of roads) parts.push(strokePath(p.points, s.roadEdge, s.roadWidth + s.line * 2));
  for (const p of roads) parts.push(strokePath(p.points, s.road, s.roadWidth));
  const bridges = layout.paths.some((q) => q.kind === 'river') && roads.some((q) => q.ends === 2);
  if (bridges) parts.push(`<rect x="${f1(50 - s.roadWidth)}" y="${f1(50 - s.roadWidth)}" width="${f1(s.roadWidth * 2)}" height="${f1(s.roadWidth * 2)}" fill="none" stroke="${s.outline}" stroke-width="${f1(s.line)}"/>`);
  if (layout.junction) parts.push(house(layout.junction[0], layout.junction[1], 11, s.roof, '#e0d6c0', s.outline, s.line));

  for (const c of layout.cities) {
    parts.push(`<polygon points="${pts(c.outline)}" fill="${s.city}" stroke="none"/>`);
    const houses: string[] = [];
    for (let i = 0; i < 40; i++) {
      const p: Pt = [r() * 100, r() * 100];
      if (!pointInPolygon(p, c.outline) || c.walls.some((w) => distToPolyline(p, w) < 6)) continue;
      if (Math.hypot(p[0] - c.anchor[0], p[1] - c.anchor[1]) < (c.pennants || c.cathedral ? 12 : 0)) continue;
      houses.push(house(p[0], p[1], between(r, 4, 7), r() < 0.5 ? s.roof : s.cityDark, '#efe3c8', s.outline, s.line * 0.8, r() * 60 - 30));
    }
    parts.push(houses.join(''));
    for (const wall of c.walls) {
      parts.push(strokePath(wall, s.outline, s.wallWidth + s.line * 2));
      parts.push(strokePath(wall, s.wall, s.wallWidth));
      parts.push(strokePath(wall, s.outline, s.wallWidth * 0.45, ` stroke-dasharray="1.6 1.6"`, 'butt'));
    }
    if (c.cathedral) parts.push(marks ? pick(marks, CATHEDRAL_FORMS)(c.anchor, s, marks, 1) : cathedral(c.anchor, s));
    for (let k = 0; k < c.pennants; k++) parts.push(shieldForm([c.anchor[0] + k * 10 * shieldScale, c.anchor[1]], s, r, shieldScale));
  }

  for (const wall of layout.fieldWalls) {
    parts.push(strokePath(wall, s.outline, s.wallWidth + s.line * 2));
    parts.push(strokePath(wall, s.wall, s.wallWidth));
  }

  for (const p of roads.filter((q) => q.inn)) {
    const mid = p.points[Math.floor(p.points.length / 2)]!;
    const first = p.points[0]!;
    const dx = mid[0] - first[0];
    const dy = mid[1] - first[1];
    const l = Math.hypot(dx, dy) || 1;
    const at: Pt = [mid[0] - (dx / l) * 12 + (-dy / l) * 12, mid[1] - (dy / l) * 12 + (dx / l) * 12];
    // With varied marks: the pond and the inn in other sizes and places beside each other.
    const pond = marks ? { dx: between(marks, 3, 9), dy: between(marks, 2, 8), rx: between(marks, 5.5, 9.5), ry: between(marks, 3.5, 6) } : { dx: 6, dy: 5, rx: 8, ry: 5 };
    const inn = marks ? { w: between(marks, 8, 12), a: between(marks, -25, 25), roof: pick(marks, ['#c23b22', '#8e3b26', s.roof]) } : { w: 10, a: 0, roof: '#c23b22' };
    parts.push(`<ellipse cx="${f1(at[0] + pond.dx)}" cy="${f1(at[1] + pond.dy)}" rx="${f1(pond.rx)}" ry="${f1(pond.ry)}" fill="${s.river}" stroke="${s.riverEdge}" stroke-width="0.8"/>`);
    parts.push(house(at[0] - 3, at[1] - 2, inn.w, inn.roof, '#f0e6cf', s.outline, s.line, inn.a));
  }
  for (const i of layout.interiors) {
    if (i.kind === 'cloister') parts.push(marks ? pick(marks, CLOISTER_FORMS)(i.at, s, marks, 1) : cloister(i.at, s));
    // A garden's flowers come from the main generator in every form, as in the plain one.
    else if (i.kind === 'garden') parts.push(marks ? pick(marks, GARDEN_FORMS)(i.at, s, r, 1) : garden(i.at, s, r));
    else parts.push(towerFoundation(i.at, s));
  }
  if (s.bevel > 0) {
    const b = s.bevel;
    parts.push(`<path d="M0 100V0H100" fill="none" stroke="rgba(255,255,255,0.45)" stroke-width="${f1(b * 2)}"/>`);
    parts.push(`<path d="M100 0V100H0" fill="none" stroke="rgba(0,0,0,0.35)" stroke-width="${f1(b * 2)}"/>`);
  }
  const painter = varied && options.paint ? rng(mixSeed(variant, 0x9a1)) : null;
  const filter = painter && painter() < 0.75 ? paintFilter(painter, `paint-${variant}`) : null;
  const body = filter ? `${filter.defs}<g filter="url(#${filter.id})">${parts.join('')}</g>` : parts.join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100"><g data-tile="${tile.id}">${body}</g></svg>`;
}

/**
 * A painted look for a flat drawing: the shapes' edges displaced by fractal noise (a brush's
 * uneven border), then colour noise in large patches (paint laid unevenly) and grey grain on top.
 * Frequencies are per viewBox unit (the tile is 100 units across).
 */
function paintFilter(r: Rng, id: string): { id: string; defs: string } {
  const seed = () => Math.floor(r() * 10000);
  const wobble = { freq: between(r, 0.05, 0.2), scale: between(r, 0, 3) };
  const mottle = { freq: between(r, 0.02, 0.08), amp: between(r, 0.1, 0.35) };
  const grain = { freq: between(r, 0.2, 0.5), amp: between(r, 0, 0.2) };
  const opaque = '0 0 0 0 1';
  const defs =
    `<defs><filter id="${id}" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100" color-interpolation-filters="sRGB">` +
    `<feTurbulence type="fractalNoise" baseFrequency="${wobble.freq.toFixed(3)}" numOctaves="2" seed="${seed()}" result="w"/>` +
    `<feDisplacementMap in="SourceGraphic" in2="w" scale="${wobble.scale.toFixed(2)}" xChannelSelector="R" yChannelSelector="G" result="d"/>` +
    `<feTurbulence type="fractalNoise" baseFrequency="${mottle.freq.toFixed(3)}" numOctaves="3" seed="${seed()}"/>` +
    `<feColorMatrix type="matrix" values="1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 ${opaque}" result="m"/>` +
    `<feComposite in="d" in2="m" operator="arithmetic" k1="0" k2="1" k3="${mottle.amp.toFixed(3)}" k4="${(-mottle.amp / 2).toFixed(3)}" result="dm"/>` +
    `<feTurbulence type="fractalNoise" baseFrequency="${grain.freq.toFixed(3)}" numOctaves="2" seed="${seed()}"/>` +
    `<feColorMatrix type="matrix" values="0.33 0.33 0.33 0 0 0.33 0.33 0.33 0 0 0.33 0.33 0.33 0 0 ${opaque}" result="g"/>` +
    `<feComposite in="dm" in2="g" operator="arithmetic" k1="0" k2="1" k3="${grain.amp.toFixed(3)}" k4="${(-grain.amp / 2).toFixed(3)}"/>` +
    `</filter></defs>`;
  return { id, defs };
}

/** The tile as placed on the board: turned `rot` degrees clockwise (the engine's rotation). */
export function placedTileSvg(tile: TileType, style: ArtStyle, rot: 0 | 90 | 180 | 270, options: TileDrawOptions = {}): string {
  const svg = tileSvg(tile, style, options);
  const open = svg.indexOf('<g data-tile=');
  return `${svg.slice(0, open)}<g transform="rotate(${rot} 50 50)">${svg.slice(open, -'</svg>'.length)}</g></svg>`;
}

/**
 * Only the tile's garden marks, on a transparent face (viewBox 0..100, catalog orientation), each in
 * one of the garden forms and scaled by `scale`: laid over a printed face of the same tile without
 * its garden, it makes a garden tile the first edition never printed (models/synth/print-faces.ts).
 */
export function gardenMarksSvg(tile: TileType, style: ArtStyle, variant: number, scale = 1, shift: Pt = [0, 0]): string {
  const r = rng(mixSeed(variant, 0x6a2));
  const marks = layoutTile(tile).interiors.filter((i) => i.kind === 'garden');
  const parts = marks.map((i) => {
    const at: Pt = [i.at[0] + shift[0], i.at[1] + shift[1]];
    return `<g transform="translate(${f1(at[0])} ${f1(at[1])}) scale(${scale.toFixed(3)}) translate(${f1(-at[0])} ${f1(-at[1])})">${pick(r, GARDEN_FORMS)(at, palette(style, r), r, 1)}</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">${parts.join('')}</svg>`;
}
