import { CX, Y, armAt, legAt, limbOutline, torsoHW } from './figure';
import { Pt, darken, el, lighten, mirrorX, polyPath, smoothPath, symmetric } from './svg';
import type { Accessory, FabricPattern, Footwear, OutfitArtwork, OutfitShape } from '../catalog.types';

/**
 * Garments on the croquis of figure.ts. Every outfit is built from a few primitives that follow
 * the body's measurements (bodices, skirts, legwear, sleeves, straps), filled with the outfit's
 * fabric (a colour, optionally a pattern) and shaded with one shared gradient, so all 72
 * thumbnails share a style. Garments always cover: nothing here draws anatomy.
 */

export const FABRIC = 'url(#fabric)';
export const TRIM = 'url(#trim)';

export interface Paint {
  /** fill for the main fabric (may be a pattern) */
  main: string;
  /** solid colours */
  primary: string;
  secondary: string;
  accent: string;
  sheen: boolean;
}

/** A filled piece with the shared soft shading and a slightly darker edge. */
function piece(d: string, fill: string, edge: string, paint: Paint, options: { shade?: boolean; opacity?: number } = {}): string {
  const base = el('path', {
    d,
    fill,
    stroke: darken(edge, 0.22),
    'stroke-width': 0.8,
    'stroke-linejoin': 'round',
    opacity: options.opacity,
  });
  const shade = options.shade === false ? '' : el('path', { d, fill: 'url(#shade)' });
  const sheen = paint.sheen && options.shade !== false ? el('path', { d, fill: 'url(#sheen)' }) : '';
  return base + shade + sheen;
}

const main = (d: string, p: Paint) => piece(d, p.main, p.primary, p);
const second = (d: string, p: Paint) => piece(d, p.secondary, p.secondary, p);

const line = (d: string, stroke: string, width: number, extra: Record<string, string | number> = {}) =>
  el('path', { d, fill: 'none', stroke, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', ...extra });

/** Outer half-width of the body at a height: the torso above the hips, the legs below. */
function bodyHW(y: number): number {
  if (y <= 232) return torsoHW(y);
  const leg = legAt(y);
  return Math.max(leg.cx + leg.hw - CX, y < 246 ? torsoHW(y) : 0);
}

function sides(from: number, to: number, extra: number, step = 7): Pt[] {
  const pts: Pt[] = [];
  const n = Math.max(1, Math.round((to - from) / step));
  for (let i = 0; i <= n; i++) {
    const y = from + ((to - from) * i) / n;
    pts.push([CX + bodyHW(y) + extra, y]);
  }
  return pts;
}

// ---- bodices and dresses ----------------------------------------------------------------

type Neckline =
  | { kind: 'strapless'; top: number; dip: number } // straight or sweetheart edge across the bust
  | { kind: 'straps'; top: number; dip: number; v?: boolean } // cami/slip edge, straps drawn separately
  | { kind: 'shoulders'; center: number; width: number; v?: boolean } // covers the shoulders (crew, scoop, V)
  | { kind: 'off-shoulder'; top: number };

interface DressSpec {
  neck: Neckline;
  /** looseness at the bust and waist */
  ease?: number;
  /** where the skirt starts to leave the body */
  skirtFrom?: number;
  hem: number;
  /** half-width of the hem */
  hemHW: number;
  /** 1 = straight A-line, < 1 = full skirt that flares at once, > 1 = hugs then flares */
  flarePower?: number;
  hemDip?: number;
}

/** A point, optionally a sharp corner. */
function pt(x: number, y: number, corner = false): Pt {
  return corner ? [x, y, 'corner'] : [x, y];
}

function neckPoints(neck: Neckline, ease: number): { pts: Pt[]; sideTop: number } {
  switch (neck.kind) {
    case 'strapless':
      return {
        pts: [pt(CX, neck.top + neck.dip, neck.dip > 0), pt(CX + 16, neck.top - 2), pt(CX + torsoHW(neck.top) + ease, neck.top + 2, true)],
        sideTop: neck.top + 6,
      };
    case 'straps':
      return {
        pts: [pt(CX, neck.top + neck.dip, !!neck.v), pt(CX + 15, neck.top - 1), pt(CX + torsoHW(neck.top) + ease, neck.top + 3, true)],
        sideTop: neck.top + 8,
      };
    case 'shoulders':
      return {
        pts: [
          pt(CX, neck.center, !!neck.v),
          pt(CX + neck.width * 0.75, neck.center - (neck.center - 99) * 0.6),
          pt(CX + neck.width, 99, true),
          pt(CX + 34 + ease * 0.5, 106),
          pt(CX + 34 + ease * 0.6, 112, true),
          pt(CX + torsoHW(126) + ease, 126),
        ],
        sideTop: 132,
      };
    case 'off-shoulder':
      return {
        pts: [
          pt(CX, neck.top + 2),
          pt(CX + 22, neck.top),
          pt(CX + 40, neck.top - 3, true),
          pt(CX + 38, neck.top + 8, true),
          pt(CX + torsoHW(128) + ease, 132),
        ],
        sideTop: 138,
      };
  }
}

/** Outline of a bodice plus skirt, from the neckline to the hem. */
function dressOutline(spec: DressSpec): Pt[] {
  const ease = spec.ease ?? 1;
  const { pts, sideTop } = neckPoints(spec.neck, ease);
  const skirtFrom = spec.skirtFrom ?? Y.waist;
  const out: Pt[] = [...pts, ...sides(sideTop, skirtFrom, ease, 9)];
  const start = bodyHW(skirtFrom) + ease;
  const power = spec.flarePower ?? 1;
  const n = 7;
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const y = skirtFrom + (spec.hem - skirtFrom) * t;
    const flare = start + (spec.hemHW - start) * Math.pow(t, power);
    const hug = bodyHW(y) + ease;
    out.push(pt(CX + Math.max(flare, hug), y, i === n));
  }
  out.push([CX + spec.hemHW * 0.5, spec.hem + (spec.hemDip ?? 3) * 0.8], [CX, spec.hem + (spec.hemDip ?? 3)]);
  return out;
}

function dress(spec: DressSpec, p: Paint): string {
  return main(smoothPath(symmetric(CX, dressOutline(spec))), p);
}

/** Thin or wide straps from the neckline to the shoulders. */
function straps(p: Paint, from: number, opts: { width?: number; inset?: number; to?: 'shoulder' | 'neck'; colour?: string } = {}): string {
  const w = opts.width ?? 2.2;
  const x0 = CX + (opts.inset ?? torsoHW(from) - 6);
  const end: [number, number] = opts.to === 'neck' ? [CX + 7, 97] : [CX + 22, 103];
  const d = `M${x0} ${from + 1} Q${x0 + 1} ${(from + end[1]) / 2} ${end[0]} ${end[1]}`;
  const colour = opts.colour ?? p.primary;
  const right = line(d, colour, w);
  const left = line(`M${2 * CX - x0} ${from + 1} Q${2 * CX - x0 - 1} ${(from + end[1]) / 2} ${2 * CX - end[0]} ${end[1]}`, colour, w);
  return right + left;
}

function sleeves(p: Paint, to: number, opts: { ease?: number; puff?: number; fill?: string; cuff?: boolean } = {}): string {
  const ease = opts.ease ?? 1.5;
  const outline = limbOutline(armAt, 106, to, ease, 5);
  if (opts.puff) {
    outline[1] = [outline[1][0] + opts.puff, outline[1][1]];
    outline[2] = [outline[2][0] + opts.puff * 0.6, outline[2][1]];
  }
  const cap: Pt[] = [[CX + 24, 101], ...outline, [CX + 30, 130]];
  const fill = opts.fill ?? p.main;
  const d = smoothPath(cap);
  let out = piece(d, fill, p.primary, p) + piece(smoothPath(cap.map(mirrorX(CX))), fill, p.primary, p);
  if (opts.cuff) {
    for (const side of [1, -1]) {
      const a = armAt(to);
      const x = CX + side * (a.cx - CX);
      out += el('rect', { x: x - a.hw - ease, y: to - 5, width: 2 * (a.hw + ease), height: 5, rx: 1.5, fill: p.secondary });
    }
  }
  return out;
}

// ---- legwear and swim bottoms -----------------------------------------------------------

function legwear(
  p: Paint,
  top: number,
  length: number,
  opts: { ease?: number; flare?: number; fill?: string; cuffColour?: string } = {},
): string {
  const ease = opts.ease ?? 0.8;
  const flare = opts.flare ?? 0;
  const pts: Pt[] = [[CX, top + 1], [CX + bodyHW(top) + ease, top, 'corner'], ...sides(top + 7, 236, ease).slice(0)];
  const n = 8;
  const outer: Pt[] = [];
  const inner: Pt[] = [];
  const legTop = 244;
  for (let i = 0; i <= n; i++) {
    const y = legTop + ((length - legTop) * i) / n;
    const t = Math.max(0, (y - Y.knee) / (Y.ankle - Y.knee));
    const { cx, hw } = legAt(y);
    const grow = flare * t * t;
    outer.push([cx + hw + ease + grow, y]);
    inner.push([Math.max(CX + 1.2, cx - hw - ease - grow), y]);
  }
  outer[n] = [outer[n][0], outer[n][1], 'corner'];
  inner[n] = [inner[n][0], inner[n][1], 'corner'];
  const shape = [...pts, ...outer, ...inner.reverse(), [CX + 1, 249] as Pt];
  const fill = opts.fill ?? p.main;
  const right = shape;
  const d = smoothPath([...right, ...right.slice(1).map(mirrorX(CX)).reverse()]);
  let out = piece(d, fill, fill === p.main ? p.primary : p.secondary, p);
  if (opts.cuffColour) {
    out += el('rect', {
      x: CX - bodyHW(top) - ease,
      y: top,
      width: 2 * (bodyHW(top) + ease),
      height: 4,
      fill: opts.cuffColour,
      opacity: 0.9,
    });
  }
  return out;
}

/** Swim or lingerie brief from `top` (at the sides) to the crotch. */
function brief(p: Paint, top: number, opts: { fill?: string; cut?: number; tie?: boolean } = {}): string {
  const cut = opts.cut ?? 10; // how far down the sides go before the leg opening
  const pts: Pt[] = [
    [CX, top + 3],
    [CX + 15, top + 1.5],
    [CX + bodyHW(top) + 0.6, top, 'corner'],
    [CX + bodyHW(top + cut) + 0.6, top + cut, 'corner'],
    [CX + 17, 238],
    [CX + 7, 249.5],
    [CX, 251],
  ];
  const fill = opts.fill ?? p.main;
  let out = piece(smoothPath(symmetric(CX, pts)), fill, fill === p.main ? p.primary : p.secondary, p);
  if (opts.tie) {
    for (const side of [1, -1]) {
      const x = CX + side * (bodyHW(top + 3) + 1);
      out += line(
        `M${x} ${top + 3} l${side * 5} ${7} M${x} ${top + 3} l${side * 1.5} ${10}`,
        p.secondary === fill ? p.accent : p.secondary,
        1.6,
      );
    }
  }
  return out;
}

/** A bodice band that follows the torso between two heights (bandeaus, crop tops, corsets). */
function band(
  top: number,
  bottom: number,
  opts: { ease?: number; dip?: number; v?: boolean; point?: number; bottomDip?: number } = {},
): string {
  const ease = opts.ease ?? 0.8;
  const pts: Pt[] = [
    pt(CX, top + (opts.dip ?? 0), !!(opts.v || opts.dip)),
    [CX + 14, top + (opts.dip ?? 0) * 0.35],
    [CX + torsoHW(top) + ease, top, 'corner'],
    ...sides(top + 6, bottom, ease, 8).slice(0, -1),
    [CX + torsoHW(bottom) + ease, bottom, 'corner'],
    [CX + 12, bottom + (opts.bottomDip ?? 0) * 0.6],
    pt(CX, bottom + (opts.point ?? opts.bottomDip ?? 0), !!opts.point),
  ];
  return smoothPath(symmetric(CX, pts));
}

function triangleCups(p: Paint, opts: { fill?: string; halter?: boolean; ring?: boolean } = {}): string {
  const fill = opts.fill ?? p.main;
  const cup: Pt[] = [
    [CX + 2.5, 153, 'corner'],
    [CX + 14.5, 121, 'corner'],
    [CX + 29, 150, 'corner'],
  ];
  const d = polyPath(cup);
  const dl = polyPath(cup.map(mirrorX(CX)));
  const stroke = { stroke: fill === p.main ? p.primary : p.secondary };
  const soft = (path: string) =>
    el('path', { d: path, fill, ...stroke, 'stroke-width': 3, 'stroke-linejoin': 'round' }) +
    el('path', { d: path, fill: 'url(#shade)' }) +
    (p.sheen ? el('path', { d: path, fill: 'url(#sheen)' }) : '');
  const tie = p.secondary === fill ? p.accent : p.secondary;
  let out = line(`M${CX - 33} 151.5 L${CX + 33} 151.5`, tie, 2.2);
  out += soft(d) + soft(dl);
  out += line(`M${CX + 14.5} 121 L${opts.halter ? CX + 7 : CX + 18} ${opts.halter ? 97 : 103}`, tie, 1.8);
  out += line(`M${CX - 14.5} 121 L${opts.halter ? CX - 7 : CX - 18} ${opts.halter ? 97 : 103}`, tie, 1.8);
  if (opts.ring) out += el('circle', { cx: CX, cy: 151, r: 3.2, fill: 'none', stroke: p.accent, 'stroke-width': 1.8 });
  return out;
}

// ---- details ----------------------------------------------------------------------------

function buttons(p: Paint, from: number, to: number, count: number, x = CX): string {
  let out = '';
  for (let i = 0; i < count; i++)
    out += el('circle', { cx: x, cy: from + ((to - from) * i) / Math.max(1, count - 1), r: 1.4, fill: p.accent });
  return out;
}

function collar(p: Paint, colour: string): string {
  const right: Pt[] = [
    [CX, 104, 'corner'],
    [CX + 9, 97, 'corner'],
    [CX + 17, 101],
    [CX + 14, 114, 'corner'],
  ];
  return (
    piece(polyPath(right), colour, colour, p, { shade: false }) +
    piece(polyPath(right.map(mirrorX(CX))), colour, colour, p, { shade: false })
  );
}

function waistband(y: number, colour: string, height = 4, ease = 1.2): string {
  const hw = bodyHW(y) + ease;
  return el('path', {
    d: `M${CX - hw} ${y} Q${CX} ${y + 2} ${CX + hw} ${y} L${CX + hw - 0.3} ${y + height} Q${CX} ${y + height + 2} ${CX - hw + 0.3} ${y + height}Z`,
    fill: colour,
  });
}

function scallops(y: number, from: number, to: number, colour: string, r = 2.2): string {
  let out = '';
  for (let x = from; x <= to; x += r * 1.8) out += el('circle', { cx: x, cy: y, r, fill: colour });
  return out;
}

function lacing(y0: number, y1: number, colour: string): string {
  let d = '';
  const n = 5;
  for (let i = 0; i < n; i++) {
    const a = y0 + ((y1 - y0) * i) / n;
    const b = y0 + ((y1 - y0) * (i + 1)) / n;
    d += `M${CX - 3.5} ${a} L${CX + 3.5} ${b} M${CX + 3.5} ${a} L${CX - 3.5} ${b} `;
  }
  return line(d, colour, 0.9) + line(`M${CX} ${y0} L${CX} ${y1}`, darken(colour, 0.3), 0.5, { opacity: 0.5 });
}

function boning(p: Paint, top: number, bottom: number): string {
  let d = '';
  for (const dx of [-19, -9, 9, 19]) d += `M${CX + dx} ${top + 8 - Math.abs(dx) * 0.15} L${CX + dx * 0.85} ${bottom - 3}`;
  return line(d, darken(p.primary, 0.25), 0.7, { opacity: 0.6 });
}

function sash(y: number, colour: string): string {
  const hw = bodyHW(y) + 1.5;
  return (
    el('path', { d: `M${CX - hw} ${y - 3} L${CX + hw} ${y - 3} L${CX + hw} ${y + 3} L${CX - hw} ${y + 3}Z`, fill: colour }) +
    el('path', { d: `M${CX + 8} ${y} l-3 14 l6 -1 Z M${CX + 8} ${y} l5 12 l4 -4 Z`, fill: darken(colour, 0.1) }) +
    el('circle', { cx: CX + 8, cy: y, r: 2.8, fill: colour })
  );
}

// ---- the outfits ------------------------------------------------------------------------

/** A garment, or a garment with a part drawn behind the body (a robe's back panel). */
type Renderer = (p: Paint, a: OutfitArtwork) => string | { back: string; front: string };

const SHAPES: Record<OutfitShape, Renderer> = {
  // swimwear
  'bikini-triangle': (p) => brief(p, 218, { tie: true }) + triangleCups(p),
  'bikini-bandeau': (p) => brief(p, 218) + main(band(134, 153, { dip: 2 }), p),
  'bikini-halter': (p) => brief(p, 216) + triangleCups(p, { halter: true }),
  'bikini-sporty': (p) => brief(p, 214, { cut: 14 }) + main(band(126, 156, { dip: 6 }), p) + straps(p, 128, { width: 5, inset: 17 }),
  'bikini-high-waist': (p) =>
    brief(p, 194, { cut: 26 }) +
    waistband(194, p.secondary, 2.5) +
    main(band(130, 155, { dip: 4 }), p) +
    straps(p, 132, { width: 2.4, inset: 16 }),
  'bikini-sarong': (p) => {
    const wrap: Pt[] = [
      [CX - bodyHW(214) - 2, 212, 'corner'],
      [CX + bodyHW(214) + 2, 212, 'corner'],
      [CX + 46, 300, 'corner'],
      [CX + 12, 285],
      [CX - 10, 252],
      [CX - 34, 238, 'corner'],
    ];
    return (
      brief(p, 218) +
      triangleCups(p) +
      piece(smoothPath(wrap), p.secondary, p.secondary, p, { opacity: 0.92 }) +
      el('circle', { cx: CX + 20, cy: 214, r: 3.4, fill: p.accent })
    );
  },
  swimsuit: (p) => {
    const pts: Pt[] = [
      [CX, 136, 'corner'],
      [CX + 12, 128],
      [CX + 19, 121, 'corner'],
      ...sides(128, 214, 0.8).slice(1),
      [CX + bodyHW(216) + 0.6, 216, 'corner'],
      [CX + 17, 238],
      [CX + 7, 249.5],
      [CX, 251],
    ];
    return main(smoothPath(symmetric(CX, pts)), p) + straps(p, 122, { width: 4.5, inset: 21 });
  },
  'swimsuit-halter': (p) => {
    const pts: Pt[] = [
      [CX, 132, 'corner'],
      [CX + 9, 112, 'corner'],
      [CX + 16, 118],
      ...sides(130, 212, 0.8).slice(1),
      [CX + bodyHW(214) + 0.6, 214, 'corner'],
      [CX + 17, 238],
      [CX + 7, 249.5],
      [CX, 251],
    ];
    return main(smoothPath(symmetric(CX, pts)), p) + straps(p, 112, { width: 3.5, inset: 9, to: 'neck' });
  },
  // lingerie
  'bralette-set': (p) =>
    brief(p, 214) +
    main(band(124, 156, { dip: 12, v: true }), p) +
    scallops(156, CX - 25, CX + 25, p.secondary, 1.8) +
    straps(p, 126, { width: 1.8, inset: 17 }),
  'balconette-set': (p) =>
    brief(p, 212) +
    main(band(134, 157, { dip: 6, v: true }), p) +
    line(`M${CX - 27} 146 Q${CX - 14} 152 ${CX} 141 Q${CX + 14} 152 ${CX + 27} 146`, p.secondary, 1.2) +
    straps(p, 136, { width: 2, inset: 24 }),
  'longline-set': (p) =>
    brief(p, 212) +
    main(band(126, 186, { dip: 10, v: true }), p) +
    line(`M${CX - 24} 156 Q${CX} 162 ${CX + 24} 156`, p.secondary, 1.2) +
    straps(p, 128, { width: 2.2, inset: 18 }),
  bodysuit: (p) => {
    const pts: Pt[] = [
      [CX, 142, 'corner'],
      [CX + 14, 124, 'corner'],
      [CX + 22, 124],
      ...sides(132, 212, 0.8).slice(1),
      [CX + bodyHW(214) + 0.6, 214, 'corner'],
      [CX + 17, 238],
      [CX + 7, 249.5],
      [CX, 251],
    ];
    return main(smoothPath(symmetric(CX, pts)), p) + straps(p, 124, { width: 2, inset: 17 });
  },
  'corset-set': (p) =>
    brief(p, 214) +
    main(band(134, 214, { dip: 7, v: true, point: 10 }), p) +
    boning(p, 134, 214) +
    lacing(146, 206, p.secondary) +
    straps(p, 136, { width: 2.4, inset: 24 }),
  slip: (p) =>
    dress({ neck: { kind: 'straps', top: 124, dip: 10, v: true }, hem: 262, hemHW: 40, skirtFrom: 200 }, p) +
    straps(p, 126, { width: 1.6, inset: 16 }),
  chemise: (p) =>
    dress({ neck: { kind: 'straps', top: 126, dip: 8, v: true }, hem: 270, hemHW: 46, skirtFrom: 160, ease: 2 }, p) +
    line(`M${CX - 27} 156 Q${CX} 162 ${CX + 27} 156`, p.secondary, 2) +
    scallops(272, CX - 44, CX + 44, p.secondary, 1.6) +
    straps(p, 128, { width: 1.6, inset: 16 }),
  'robe-set': (p) => ({
    back: robeBack(p, 250),
    front: brief(p, 214) + main(band(126, 156, { dip: 10, v: true }), p) + robeFront(p, 250, true),
  }),
  // active wear
  'bra-leggings': (p) =>
    legwear(p, 186, 366, { fill: p.main }) +
    waistband(186, p.secondary, 4) +
    second(band(122, 162, { dip: 8 }), p) +
    straps(p, 124, { width: 6, inset: 14, colour: p.secondary }),
  'bra-bike-shorts': (p) =>
    legwear(p, 190, 290, {}) +
    waistband(190, p.secondary, 3.5) +
    main(band(124, 162, { dip: 8 }), p) +
    straps(p, 126, { width: 6, inset: 14 }),
  'tank-leggings': (p) =>
    legwear(p, 192, 340, { fill: TRIM }) + main(band(112, 214, { dip: 10, ease: 2 }), p) + straps(p, 114, { width: 7, inset: 15 }),
  'crop-flare-leggings': (p) =>
    legwear(p, 186, 372, { flare: 10, fill: TRIM }) +
    waistband(186, p.secondary, 4) +
    dress({ neck: { kind: 'shoulders', center: 104, width: 9 }, hem: 164, hemHW: 27, skirtFrom: 164 }, p) +
    sleeves(p, 228, { cuff: false }),
  'jacket-leggings': (p) => legwear(p, 186, 366, { fill: TRIM }) + second(band(124, 160, { dip: 8 }), p) + jacket(p, 212),
  'tennis-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 118, width: 11, v: false }, hem: 262, hemHW: 46, skirtFrom: 206, flarePower: 0.9 }, p) +
    line(`M${CX - 44} 258 L${CX + 44} 258`, p.secondary, 1.6) +
    line(`M${CX + 11} 99 L${CX + 11} 99`, p.secondary, 1),
  unitard: (p) =>
    legwear(p, 150, 366, {}) +
    dress({ neck: { kind: 'straps', top: 116, dip: 10 }, hem: 200, hemHW: 26, ease: 0.8 }, p) +
    straps(p, 118, { width: 8, inset: 13 }),
  tracksuit: (p) => legwear(p, 190, 370, { ease: 3.5, flare: 2, fill: p.main }) + stripeDown(p) + jacket(p, 218, true),
  'tank-running-shorts': (p) =>
    legwear(p, 192, 262, { ease: 3.5, flare: 0 }) +
    waistband(192, p.secondary, 3) +
    second(band(112, 212, { dip: 10, ease: 2.5 }), p) +
    straps(p, 114, { width: 7, inset: 15, colour: p.secondary }),
  'hoodie-leggings': (p) =>
    legwear(p, 200, 366, { fill: TRIM }) +
    dress({ neck: { kind: 'shoulders', center: 106, width: 10 }, hem: 226, hemHW: 40, skirtFrom: 150, ease: 6 }, p) +
    sleeves(p, 232, { ease: 4, cuff: true }) +
    el('path', {
      d: `M${CX - 16} 198 L${CX + 16} 198 L${CX + 20} 218 L${CX - 20} 218Z`,
      fill: 'none',
      stroke: darken(p.primary, 0.2),
      'stroke-width': 1,
    }) +
    line(`M${CX - 4} 106 l-1 18 M${CX + 4} 106 l1 18`, p.accent, 1.2),
  // dresses
  bodycon: (p) =>
    dress({ neck: { kind: 'straps', top: 128, dip: 4 }, hem: 288, hemHW: 24, ease: 0.8, skirtFrom: 230 }, p) +
    straps(p, 130, { width: 4, inset: 20 }),
  sundress: (p) =>
    dress({ neck: { kind: 'straps', top: 126, dip: 8 }, hem: 298, hemHW: 58, skirtFrom: 182, flarePower: 0.85 }, p) +
    straps(p, 128, { width: 3, inset: 17 }) +
    waistband(180, p.secondary, 3),
  'wrap-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 150, width: 12, v: true }, hem: 312, hemHW: 52, skirtFrom: 186 }, p) +
    sleeves(p, 200, { ease: 2.5 }) +
    line(`M${CX - 14} 104 L${CX + 12} 182 M${CX + 20} 190 Q${CX + 26} 250 ${CX + 12} 314`, darken(p.primary, 0.25), 1, { opacity: 0.7 }) +
    sash(184, p.secondary),
  'shirt-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 112, width: 10, v: true }, hem: 306, hemHW: 46, skirtFrom: 190, ease: 2.5 }, p) +
    collar(p, lighten(p.primary, 0.15)) +
    sleeves(p, 168, { ease: 3, cuff: true, fill: p.main }) +
    buttons(p, 118, 300, 9) +
    waistband(182, p.secondary, 4),
  'knit-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 101, width: 10 }, hem: 296, hemHW: 30, skirtFrom: 220, ease: 2.5 }, p) +
    sleeves(p, 232, { ease: 3, cuff: true, fill: p.main }),
  'skater-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 112, width: 12 }, hem: 282, hemHW: 62, skirtFrom: 182, flarePower: 0.7 }, p) +
    sleeves(p, 136, { ease: 2 }) +
    waistband(180, p.secondary, 3),
  'slip-dress': (p) =>
    dress({ neck: { kind: 'straps', top: 126, dip: 10, v: true }, hem: 332, hemHW: 40, skirtFrom: 226, ease: 1.2 }, p) +
    straps(p, 128, { width: 1.6, inset: 16 }),
  'sequin-mini': (p) =>
    dress({ neck: { kind: 'straps', top: 124, dip: 4 }, hem: 270, hemHW: 36, skirtFrom: 210, ease: 1 }, p) +
    straps(p, 126, { width: 2, inset: 18 }),
  'maxi-dress': (p) =>
    dress({ neck: { kind: 'straps', top: 124, dip: 12, v: true }, hem: 376, hemHW: 62, skirtFrom: 186 }, p) +
    straps(p, 126, { width: 3.5, inset: 15 }) +
    waistband(182, p.secondary, 3),
  'off-shoulder-dress': (p) =>
    dress({ neck: { kind: 'off-shoulder', top: 118 }, hem: 318, hemHW: 48, skirtFrom: 200, ease: 1.2 }, p) +
    line(`M${CX - 40} 116 Q${CX} 124 ${CX + 40} 116`, lighten(p.primary, 0.2), 3, { opacity: 0.7 }),
  'ball-gown': (p) =>
    dress({ neck: { kind: 'strapless', top: 132, dip: 6 }, hem: 380, hemHW: 100, skirtFrom: 184, flarePower: 0.6, hemDip: 4 }, p) +
    line(
      `M${CX - 20} 200 Q${CX - 40} 300 ${CX - 60} 376 M${CX + 20} 200 Q${CX + 40} 300 ${CX + 60} 376 M${CX} 192 L${CX} 380`,
      darken(p.primary, 0.2),
      0.9,
      { opacity: 0.45 },
    ),
  'blazer-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 160, width: 12, v: true }, hem: 272, hemHW: 40, skirtFrom: 210, ease: 3 }, p) +
    sleeves(p, 228, { ease: 3 }) +
    lapels(p, 160) +
    buttons(p, 178, 196, 2, CX + 6),
  // sleepwear
  'pj-long': (p) =>
    legwear(p, 196, 368, { ease: 5, flare: 4, fill: p.main }) +
    dress({ neck: { kind: 'shoulders', center: 124, width: 11, v: true }, hem: 234, hemHW: 40, skirtFrom: 200, ease: 4 }, p) +
    collar(p, p.secondary) +
    sleeves(p, 230, { ease: 4, cuff: true }) +
    buttons(p, 130, 226, 5) +
    el('rect', { x: CX + 12, y: 140, width: 10, height: 10, rx: 1, fill: 'none', stroke: p.secondary, 'stroke-width': 1 }),
  'pj-shorts': (p) =>
    legwear(p, 196, 262, { ease: 5, flare: 0 }) +
    dress({ neck: { kind: 'shoulders', center: 124, width: 11, v: true }, hem: 234, hemHW: 40, skirtFrom: 200, ease: 4 }, p) +
    collar(p, p.secondary) +
    sleeves(p, 140, { ease: 3, cuff: true }) +
    buttons(p, 130, 226, 5),
  'cami-shorts': (p) =>
    legwear(p, 198, 258, { ease: 5 }) +
    line(`M${CX - 42} 256 L${CX + 42} 256`, p.secondary, 1.6) +
    dress({ neck: { kind: 'straps', top: 126, dip: 8, v: true }, hem: 214, hemHW: 36, skirtFrom: 180, ease: 2 }, p) +
    line(`M${CX - 26} 131 L${CX} 138 L${CX + 26} 131`, p.secondary, 1.6) +
    straps(p, 128, { width: 1.6, inset: 16 }),
  'tee-shorts': (p) =>
    legwear(p, 198, 260, { ease: 4.5, fill: TRIM }) +
    dress({ neck: { kind: 'shoulders', center: 108, width: 11 }, hem: 228, hemHW: 39, skirtFrom: 186, ease: 4 }, p) +
    sleeves(p, 146, { ease: 3 }) +
    el('rect', { x: CX + 11, y: 138, width: 11, height: 11, rx: 1.5, fill: 'none', stroke: p.accent, 'stroke-width': 1.2 }),
  nightgown: (p) =>
    dress({ neck: { kind: 'shoulders', center: 116, width: 14 }, hem: 352, hemHW: 58, skirtFrom: 150, ease: 3 }, p) +
    sleeves(p, 138, { ease: 3, puff: 3 }) +
    line(`M${CX - 18} 116 Q${CX} 122 ${CX + 18} 116`, p.secondary, 2) +
    buttons(p, 124, 150, 3) +
    scallops(354, CX - 56, CX + 56, p.secondary, 1.7),
  onesie: (p) =>
    legwear(p, 170, 368, { ease: 6, flare: 3 }) +
    dress({ neck: { kind: 'shoulders', center: 104, width: 10 }, hem: 236, hemHW: 41, skirtFrom: 160, ease: 6 }, p) +
    sleeves(p, 232, { ease: 4.5, cuff: true }) +
    buttons(p, 112, 224, 6),
  robe: (p) => ({
    back: robeBack(p, 318),
    front: legwear(p, 196, 368, { ease: 5, flare: 4 }) + main(band(118, 200, { dip: 6, ease: 3 }), p) + robeFront(p, 318, false),
  }),
  'lounge-set': (p) =>
    legwear(p, 196, 368, { ease: 5.5, flare: -4, fill: p.main, cuffColour: p.secondary }) +
    dress({ neck: { kind: 'shoulders', center: 106, width: 11 }, hem: 222, hemHW: 42, skirtFrom: 150, ease: 6 }, p) +
    sleeves(p, 232, { ease: 4.5, cuff: true }) +
    waistband(216, p.secondary, 6, 7),
  // costumes and evening looks
  'uniform-dress': (p) =>
    dress({ neck: { kind: 'shoulders', center: 114, width: 10, v: true }, hem: 288, hemHW: 34, skirtFrom: 214, ease: 1.6 }, p) +
    collar(p, p.secondary) +
    sleeves(p, 142, { ease: 2.5, cuff: true }) +
    buttons(p, 122, 230, 5),
  'skirt-suit': (p) =>
    dress({ neck: { kind: 'shoulders', center: 146, width: 12, v: true }, hem: 300, hemHW: 27, skirtFrom: 226, ease: 2.5 }, p) +
    second(band(112, 146, { dip: 8, v: true, ease: -12 }), p) +
    lapels(p, 146) +
    sleeves(p, 230, { ease: 2.8 }) +
    buttons(p, 166, 200, 2) +
    line(`M${CX - 34} 206 L${CX + 34} 206`, darken(p.primary, 0.25), 0.9, { opacity: 0.6 }),
  'corset-gown': (p) =>
    dress({ neck: { kind: 'strapless', top: 134, dip: 7 }, hem: 380, hemHW: 70, skirtFrom: 212, flarePower: 0.9, hemDip: 4 }, p) +
    piece(band(134, 210, { dip: 7, v: true, point: 10 }), p.secondary, p.secondary, p) +
    lacing(146, 206, p.accent),
  burlesque: (p) => {
    const skirt = dressOutline({
      neck: { kind: 'strapless', top: 200, dip: 0 },
      hem: 378,
      hemHW: 84,
      skirtFrom: 200,
      flarePower: 0.7,
      hemDip: 4,
    });
    return (
      piece(smoothPath(symmetric(CX, skirt)), p.secondary, p.secondary, p, { opacity: 0.95 }) +
      main(band(132, 214, { dip: 6, v: true, point: 8 }), p) +
      boning(p, 132, 214) +
      scallops(214, CX - 32, CX + 32, p.accent, 1.6) +
      straps(p, 134, { width: 2.6, inset: 22, colour: p.accent })
    );
  },
  catsuit: (p) =>
    legwear(p, 150, 368, {}) +
    dress({ neck: { kind: 'shoulders', center: 104, width: 9 }, hem: 200, hemHW: 25, ease: 0.8 }, p) +
    sleeves(p, 232, { ease: 1 }) +
    line(`M${CX} 106 L${CX} 170`, p.accent, 1.2),
  'party-dress': (p) =>
    dress({ neck: { kind: 'strapless', top: 132, dip: 8 }, hem: 278, hemHW: 62, skirtFrom: 184, flarePower: 0.6 }, p) +
    line(`M${CX - 60} 270 Q${CX} 280 ${CX + 60} 270`, p.secondary, 2.2, { opacity: 0.8 }) +
    waistband(180, p.secondary, 3),
  pirate: (p) =>
    dress({ neck: { kind: 'off-shoulder', top: 118 }, hem: 350, hemHW: 60, skirtFrom: 200, ease: 2, flarePower: 0.8 }, TRIMPAINT(p)) +
    sleeves(p, 176, { ease: 4, puff: 5, fill: '#fbf8f4' }) +
    main(band(140, 218, { dip: 4, point: 8 }), p) +
    lacing(148, 210, p.accent) +
    el('path', { d: `M${CX + 20} 218 L${CX + 52} 300 L${CX + 36} 330 L${CX + 14} 236Z`, fill: darken(p.primary, 0.1), opacity: 0.9 }),
  'cape-gown': (p) => {
    const cape: Pt[] = [
      [CX + 12, 96, 'corner'],
      [CX + 30, 80, 'corner'],
      [CX + 46, 108],
      [CX + 66, 372, 'corner'],
      [CX + 30, 378],
    ];
    return (
      piece(smoothPath(cape), p.secondary, p.secondary, p) +
      piece(smoothPath(cape.map(mirrorX(CX))), p.secondary, p.secondary, p) +
      dress({ neck: { kind: 'shoulders', center: 126, width: 13, v: true }, hem: 380, hemHW: 52, skirtFrom: 196, hemDip: 3 }, p) +
      sleeves(p, 232, { ease: 2 }) +
      el('circle', { cx: CX, cy: 128, r: 3, fill: p.accent })
    );
  },
};

/** The same paint with the secondary colour as the main fabric. */
function TRIMPAINT(p: Paint): Paint {
  return { ...p, main: p.secondary, primary: p.secondary };
}

function stripeDown(p: Paint): string {
  let out = '';
  for (const side of [1, -1]) {
    const pts: string[] = [];
    for (let y = 226; y <= 366; y += 10) {
      const { cx, hw } = legAt(y);
      pts.push(`${CX + side * (cx + hw + 3 - CX)} ${y}`);
    }
    out += line('M' + pts.join('L'), p.secondary, 2.4);
  }
  return out;
}

function lapels(p: Paint, bottom: number): string {
  const right: Pt[] = [
    [CX + 3, bottom, 'corner'],
    [CX + 11, 100, 'corner'],
    [CX + 16, 104],
    [CX + 22, 128, 'corner'],
    [CX + 14, 130, 'corner'],
  ];
  const colour = darken(p.primary, 0.12);
  return (
    piece(polyPath(right), colour, colour, p, { shade: false }) +
    piece(polyPath(right.map(mirrorX(CX))), colour, colour, p, { shade: false })
  );
}

function jacket(p: Paint, hem: number, closed = false): string {
  const gap = closed ? 0 : 9;
  const right: Pt[] = [
    [CX + gap, 104, 'corner'],
    [CX + 10, 98, 'corner'],
    [CX + 35, 106],
    [CX + 36, 114, 'corner'],
    ...sides(128, hem, 3).slice(0, -1),
    [CX + bodyHW(hem) + 3, hem, 'corner'],
    [CX + gap + 1, hem + 1, 'corner'],
  ];
  const d = smoothPath(right);
  const dl = smoothPath(right.map(mirrorX(CX)));
  let out = main(d, p) + main(dl, p) + sleeves(p, 230, { ease: 3, cuff: true });
  out += line(`M${CX + gap} 106 L${CX + gap + 1} ${hem}`, p.accent, 1.2) + line(`M${CX - gap} 106 L${CX - gap - 1} ${hem}`, p.accent, 1.2);
  out += el('rect', { x: CX - bodyHW(hem) - 3, y: hem - 5, width: 2 * (bodyHW(hem) + 3), height: 5, fill: p.secondary, opacity: 0.9 });
  out += line(`M${CX + 10} 98 L${CX + 35} 106 M${CX - 10} 98 L${CX - 35} 106`, p.secondary, 2);
  return out;
}

/** A robe's back panel (drawn behind the body); robeFront draws its front panels, belt and sleeves. */
function robeBack(p: Paint, hem: number): string {
  const back: Pt[] = [
    [CX - 36, 106],
    [CX + 36, 106],
    [CX + 50, hem, 'corner'],
    [CX - 50, hem, 'corner'],
  ];
  return piece(smoothPath(back), darken(p.secondary, 0.08), p.secondary, p);
}

function robeFront(p: Paint, hem: number, lingerie: boolean): string {
  const right: Pt[] = [
    [CX + 8, 100, 'corner'],
    [CX + 34, 106],
    [CX + 36, 116, 'corner'],
    ...sides(130, 200, 4).slice(0, -1),
    [CX + 44, hem - 40],
    [CX + 50, hem, 'corner'],
    [CX + 22, hem + 2, 'corner'],
    [CX + 16, 200],
    [CX + 22, 150],
  ];
  const d = smoothPath(right);
  const dl = smoothPath(right.map(mirrorX(CX)));
  const robePaint: Paint = { ...p, main: p.secondary, primary: p.secondary };
  let out = piece(d, p.secondary, p.secondary, robePaint) + piece(dl, p.secondary, p.secondary, robePaint);
  out += sleeves(robePaint, lingerie ? 196 : 226, { ease: 5, puff: 2, fill: p.secondary });
  out += line(
    `M${CX + 8} 100 Q${CX + 24} 150 ${CX + 18} 200 M${CX - 8} 100 Q${CX - 24} 150 ${CX - 18} 200`,
    lighten(p.secondary, 0.25),
    2.2,
  );
  out += sash(196, lighten(p.secondary, 0.08));
  return out;
}

// ---- fabrics ----------------------------------------------------------------------------

export function fabricDefs(id: string, base: string, motif: string, accent: string, pattern: FabricPattern = 'solid'): string {
  const dark = darken(base, 0.2);
  let tile = '';
  let size = 12;
  switch (pattern) {
    case 'solid':
      return el('pattern', { id, width: 8, height: 8, patternUnits: 'userSpaceOnUse' }, el('rect', { width: 8, height: 8, fill: base }));
    case 'stripes':
      size = 10;
      tile = el('rect', { y: 5, width: size, height: 3.5, fill: motif });
      break;
    case 'dots':
      size = 10;
      tile = el('circle', { cx: 2.5, cy: 2.5, r: 1.5, fill: motif }) + el('circle', { cx: 7.5, cy: 7.5, r: 1.5, fill: motif });
      break;
    case 'floral':
      size = 16;
      for (const [x, y, c] of [
        [4, 4, motif],
        [12, 12, motif],
      ] as const) {
        for (let k = 0; k < 5; k++) {
          const a = (k / 5) * Math.PI * 2;
          tile += el('circle', { cx: x + Math.cos(a) * 1.7, cy: y + Math.sin(a) * 1.7, r: 1.35, fill: c });
        }
        tile += el('circle', { cx: x, cy: y, r: 0.9, fill: lighten(accent, 0.5) });
      }
      tile += el('path', { d: 'M7.5 11 q1.5 -1.8 3 -0.3 M0.5 14 q1.5 -1.8 3 -0.3', fill: 'none', stroke: accent, 'stroke-width': 0.9 });
      break;
    case 'leopard':
      size = 16;
      tile =
        el('path', {
          d: 'M3 3 q3 -2 5 1 q-1 3 -4 3 q-2 -1 -1 -4Z M10 10 q3 -1 4 2 q-2 3 -4 2 q-2 -2 0 -4Z',
          fill: 'none',
          stroke: motif,
          'stroke-width': 1.4,
        }) +
        el('circle', { cx: 13, cy: 4, r: 1, fill: motif }) +
        el('circle', { cx: 4, cy: 12, r: 1.1, fill: motif });
      break;
    case 'plaid':
    case 'gingham':
      size = pattern === 'plaid' ? 14 : 8;
      tile =
        el('rect', { x: 0, y: 0, width: size / 2, height: size, fill: motif, opacity: 0.45 }) +
        el('rect', { x: 0, y: 0, width: size, height: size / 2, fill: motif, opacity: 0.45 }) +
        (pattern === 'plaid'
          ? el('path', { d: `M${size * 0.75} 0 V${size} M0 ${size * 0.75} H${size}`, stroke: accent, 'stroke-width': 0.8 })
          : '');
      break;
    case 'sequins':
      size = 6;
      tile =
        el('circle', { cx: 1.5, cy: 1.5, r: 1.3, fill: lighten(base, 0.35) }) +
        el('circle', { cx: 4.5, cy: 4.5, r: 1.3, fill: motif }) +
        el('circle', { cx: 1.2, cy: 1.2, r: 0.4, fill: '#ffffff', opacity: 0.8 });
      break;
    case 'lace':
      size = 8;
      tile =
        el('circle', { cx: 4, cy: 4, r: 2.6, fill: 'none', stroke: motif, 'stroke-width': 0.7 }) +
        el('circle', { cx: 0, cy: 0, r: 1.2, fill: motif, opacity: 0.7 });
      break;
    case 'ribbed':
      size = 4;
      tile = el('rect', { x: 0, width: 1.2, height: size, fill: dark, opacity: 0.35 });
      break;
    case 'camo':
      size = 24;
      tile =
        el('path', { d: 'M2 4 q6 -4 10 1 q2 5 -4 6 q-6 1 -6 -7Z M14 14 q5 -3 8 1 q1 6 -5 6 q-5 -1 -3 -7Z', fill: motif }) +
        el('path', { d: 'M15 2 q4 0 5 3 q-3 3 -6 1Z M3 16 q4 -1 5 3 q-4 3 -6 0Z', fill: accent });
      break;
    case 'stars':
      size = 14;
      tile = el('path', { d: 'M4 1 l1 2.2 2.3 .3 -1.7 1.6 .4 2.3 -2 -1.1 -2 1.1 .4 -2.3 -1.7 -1.6 2.3 -.3Z', fill: motif });
      break;
  }
  return el(
    'pattern',
    { id, width: size, height: size, patternUnits: 'userSpaceOnUse' },
    el('rect', { width: size, height: size, fill: base }) + tile,
  );
}

// ---- footwear and accessories -----------------------------------------------------------

export function footwear(kind: Footwear, p: Paint): string {
  let out = '';
  for (const side of [1, -1]) {
    const x = CX + side * 10.5;
    switch (kind) {
      case 'bare':
        break;
      case 'heels':
        out += el('path', {
          d: smoothPath([
            [x - 5, 371],
            [x + 5, 371],
            [x + 5.4, 379],
            [x + 1.5, 387],
            [x - 2.5, 386.5],
            [x - 5.4, 379],
          ]),
          fill: p.accent,
        });
        out += line(`M${x - 4.5} 369 L${x + 4.5} 369`, p.accent, 1.2);
        break;
      case 'sneakers':
        out += el('path', {
          d: smoothPath([
            [x - 7, 368],
            [x + 7, 368],
            [x + 8, 383],
            [x + 2, 388],
            [x - 4, 388],
            [x - 8, 382],
          ]),
          fill: '#fbf8f4',
          stroke: '#d8c8b4',
          'stroke-width': 0.8,
        });
        out += line(`M${x - 6} 381 L${x + 6} 381`, p.accent, 2);
        break;
      case 'slippers':
        out += el('path', {
          d: smoothPath([
            [x - 8, 372],
            [x + 8, 372],
            [x + 9, 384],
            [x + 2, 389],
            [x - 4, 389],
            [x - 9, 383],
          ]),
          fill: lighten(p.secondary, 0.3),
          stroke: p.secondary,
          'stroke-width': 0.8,
        });
        break;
      case 'boots':
        out += el('path', {
          d: smoothPath([
            [x - 8, 326, 'corner'],
            [x + 9, 326, 'corner'],
            [x + 6.5, 372],
            [x + 6, 384],
            [x + 1.5, 388],
            [x - 3, 388],
            [x - 6.5, 383],
            [x - 6.5, 360],
          ]),
          fill: '#3b2a22',
        });
        out += line(`M${x - 7} 332 L${x + 8} 332`, '#5a4034', 1.2);
        break;
      case 'sandals':
        out += line(`M${x - 5} 375 L${x + 5} 375 M${x - 4} 381 L${x + 4} 381`, p.accent, 1.4);
        break;
    }
  }
  return out;
}

/** Accessories drawn behind the figure (wings, hood). */
export function backAccessories(list: readonly Accessory[], p: Paint): string {
  let out = '';
  if (list.includes('wings')) {
    for (const side of [1, -1]) {
      const pts: Pt[] = [
        [CX + side * 20, 118],
        [CX + side * 60, 78],
        [CX + side * 92, 70],
        [CX + side * 86, 120],
        [CX + side * 96, 150],
        [CX + side * 74, 190],
        [CX + side * 40, 184],
      ];
      out += el('path', { d: smoothPath(pts), fill: '#fffdf9', stroke: '#cdb9a3', 'stroke-width': 1.4 });
      out += line(
        `M${CX + side * 30} 140 Q${CX + side * 60} 120 ${CX + side * 84} 96 M${CX + side * 32} 156 Q${CX + side * 62} 150 ${CX + side * 86} 140 M${CX + side * 36} 170 Q${CX + side * 56} 176 ${CX + side * 70} 182`,
        '#d8c8b4',
        1.2,
      );
    }
  }
  if (list.includes('hood')) {
    out += el('path', {
      d: smoothPath(
        symmetric(CX, [
          [CX, 32],
          [CX + 24, 40],
          [CX + 30, 72],
          [CX + 28, 104, 'corner'],
          [CX + 10, 100],
        ]),
      ),
      fill: darken(p.primary, 0.08),
    });
  }
  return out;
}

/** Accessories drawn in front (hats on top of the hair). */
export function frontAccessories(list: readonly Accessory[], p: Paint): string {
  let out = '';
  for (const a of list) {
    switch (a) {
      case 'nurse-cap':
        out += el('path', {
          d: `M${CX - 15} 46 L${CX - 12} 33 Q${CX} 29 ${CX + 12} 33 L${CX + 15} 46 Q${CX} 42 ${CX - 15} 46Z`,
          fill: '#ffffff',
          stroke: '#d8c8b4',
          'stroke-width': 0.8,
        });
        out += line(`M${CX - 12.5} 41 Q${CX} 37.5 ${CX + 12.5} 41`, p.accent, 2);
        break;
      case 'pillbox-hat':
        out += el('rect', { x: CX - 4, y: 30, width: 24, height: 10, rx: 3, fill: p.primary, transform: `rotate(-12 ${CX + 8} 35)` });
        out += line(`M${CX - 3} 39 L${CX + 20} 34`, p.accent, 1.6);
        break;
      case 'peaked-cap':
        out += el('path', { d: `M${CX - 19} 46 Q${CX - 22} 30 ${CX} 29 Q${CX + 22} 30 ${CX + 19} 46Z`, fill: p.primary });
        out += el('path', { d: `M${CX - 18} 46 Q${CX} 54 ${CX + 18} 46 L${CX + 16} 43 Q${CX} 49 ${CX - 16} 43Z`, fill: '#1f1715' });
        out += line(`M${CX - 18} 44 Q${CX} 48 ${CX + 18} 44`, p.accent, 1.6);
        out += el('circle', { cx: CX, cy: 38, r: 3, fill: p.accent });
        break;
      case 'pirate-hat':
        out += el('path', {
          d: `M${CX - 34} 42 Q${CX - 20} 20 ${CX} 26 Q${CX + 20} 20 ${CX + 34} 42 Q${CX} 34 ${CX - 34} 42Z`,
          fill: '#2a1f1a',
        });
        out += line(`M${CX - 32} 41 Q${CX} 33 ${CX + 32} 41`, p.accent, 1.4);
        break;
      case 'horns':
        for (const s of [1, -1])
          out += el('path', {
            d: `M${CX + s * 8} 42 Q${CX + s * 12} 26 ${CX + s * 20} 22 Q${CX + s * 16} 32 ${CX + s * 16} 44Z`,
            fill: p.accent,
          });
        break;
      case 'halo':
        out += el('ellipse', { cx: CX, cy: 24, rx: 17, ry: 4.5, fill: 'none', stroke: '#e8c15a', 'stroke-width': 2.6 });
        break;
      case 'cat-ears':
        for (const s of [1, -1]) {
          out += el('path', { d: `M${CX + s * 6} 42 L${CX + s * 15} 24 L${CX + s * 19} 46Z`, fill: '#2a1f1a' });
          out += el('path', { d: `M${CX + s * 9.5} 40 L${CX + s * 14.5} 30 L${CX + s * 16.5} 42Z`, fill: p.accent });
        }
        break;
      case 'feather-headdress':
        for (let k = -3; k <= 3; k++) {
          const ang = k * 17;
          out += el('ellipse', {
            cx: CX,
            cy: 20,
            rx: 5,
            ry: 17,
            fill: k % 2 === 0 ? p.secondary : p.accent,
            transform: `rotate(${ang} ${CX} 44)`,
          });
        }
        out += line(`M${CX - 17} 44 Q${CX} 38 ${CX + 17} 44`, p.accent, 3);
        break;
      case 'neck-scarf':
        out += el('path', { d: `M${CX - 9} 98 Q${CX} 104 ${CX + 9} 98 L${CX + 8} 103 Q${CX} 108 ${CX - 8} 103Z`, fill: p.accent });
        out += el('path', { d: `M${CX + 2} 103 l8 12 l4 -5Z M${CX + 1} 103 l-2 13 l6 -2Z`, fill: darken(p.accent, 0.1) });
        break;
      case 'belt':
        out +=
          waistband(180, p.accent, 4.5, 1.8) +
          el('rect', {
            x: CX - 4,
            y: 179.5,
            width: 8,
            height: 6.5,
            rx: 1,
            fill: 'none',
            stroke: lighten(p.accent, 0.5),
            'stroke-width': 1.2,
          });
        break;
      case 'badge':
        out += el('path', {
          d: `M${CX - 17} 132 l3 -2 l3 2 l0 4 l-3 3 l-3 -3Z`,
          fill: p.accent,
          stroke: darken(p.accent, 0.3),
          'stroke-width': 0.6,
        });
        break;
      case 'gloves':
        for (const s of [1, -1]) {
          const outline = limbOutline(armAt, 186, 232, 1.2, 4);
          const pts = s > 0 ? outline : outline.map(mirrorX(CX));
          out += el('path', { d: smoothPath(pts), fill: p.secondary });
          out += el('ellipse', { cx: CX + s * 52, cy: 244, rx: 5.6, ry: 11.5, fill: p.secondary });
        }
        break;
      case 'sun-hat':
        out += el('ellipse', { cx: CX, cy: 44, rx: 38, ry: 8, fill: p.accent });
        out += el('path', { d: `M${CX - 18} 44 Q${CX - 17} 24 ${CX} 24 Q${CX + 17} 24 ${CX + 18} 44Z`, fill: p.accent });
        out += line(`M${CX - 18} 41 Q${CX} 45 ${CX + 18} 41`, p.secondary, 2.4);
        break;
      case 'sunglasses':
        out +=
          el('ellipse', { cx: CX - 7, cy: 61, rx: 6, ry: 4.2, fill: '#2a1f1a' }) +
          el('ellipse', { cx: CX + 7, cy: 61, rx: 6, ry: 4.2, fill: '#2a1f1a' });
        out += line(`M${CX - 1.5} 60 L${CX + 1.5} 60`, '#2a1f1a', 1);
        break;
      case 'pearls':
        for (let k = -4; k <= 4; k++)
          out += el('circle', {
            cx: CX + k * 2.6,
            cy: 101 + 3 * Math.cos((k / 4) * 1.2),
            r: 1.3,
            fill: '#fbf8f4',
            stroke: '#d8c8b4',
            'stroke-width': 0.3,
          });
        break;
      case 'headband':
        out += line(`M${CX - 17} 50 Q${CX} 38 ${CX + 17} 50`, p.accent, 3.2);
        break;
      case 'sleep-mask':
        out += el('path', {
          d: `M${CX - 16} 44 Q${CX - 8} 38 ${CX} 43 Q${CX + 8} 38 ${CX + 16} 44 Q${CX + 14} 52 ${CX} 49 Q${CX - 14} 52 ${CX - 16} 44Z`,
          fill: p.secondary,
        });
        break;
      case 'mask':
        out += el('path', {
          d: `M${CX - 17} 58 Q${CX - 8} 52 ${CX} 58 Q${CX + 8} 52 ${CX + 17} 58 Q${CX + 12} 68 ${CX} 63 Q${CX - 12} 68 ${CX - 17} 58Z`,
          fill: p.accent,
        });
        break;
      case 'hood':
      case 'wings':
        break;
    }
  }
  return out;
}

export function renderGarment(artwork: OutfitArtwork, paint: Paint): { back: string; front: string } {
  const out = SHAPES[artwork.shape](paint, artwork);
  return typeof out === 'string' ? { back: '', front: out } : out;
}

export const OUTFIT_SHAPES = Object.keys(SHAPES) as OutfitShape[];
