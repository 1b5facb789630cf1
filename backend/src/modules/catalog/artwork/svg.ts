/**
 * Small helpers for building SVG text by hand: numbers rounded to one decimal (deterministic,
 * compact output), colour mixing, smooth closed outlines and attribute escaping.
 */

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

export type Pt = readonly [number, number] | readonly [number, number, 'corner'];

export const r1 = (n: number): string => {
  const v = Math.round(n * 10) / 10;
  return Object.is(v, -0) ? '0' : String(v);
};

export function esc(value: string | number): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `<name a="b" ...>children</name>`, attributes with undefined values left out. */
export function el(name: string, attrs: Record<string, string | number | undefined> = {}, children?: string): string {
  const a = Object.entries(attrs)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => ` ${k}="${esc(typeof v === 'number' ? r1(v) : v)}"`)
    .join('');
  return children === undefined ? `<${name}${a}/>` : `<${name}${a}>${children}</${name}>`;
}

function rgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? h.replace(/./g, (c) => c + c) : h;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new TypeError(`Not a #rrggbb colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

const hex2 = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');

/** Linear mix of two #rrggbb colours: t = 0 gives a, t = 1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const x = rgb(a);
  const y = rgb(b);
  return `#${x.map((v, i) => hex2(v + (y[i] - v) * t)).join('')}`;
}

export const lighten = (c: string, t: number) => mix(c, '#ffffff', t);
export const darken = (c: string, t: number) => mix(c, '#1c1210', t);

/** Relative luminance (0 dark .. 1 light), to pick readable contrast colours. */
export function luminance(c: string): number {
  const [r, g, b] = rgb(c).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * A closed outline through `pts` (Catmull-Rom turned into cubic Béziers). A point tagged
 * 'corner' keeps a sharp corner; the others are passed through smoothly.
 */
export function smoothPath(pts: readonly Pt[], tension = 1): string {
  const n = pts.length;
  const at = (i: number) => pts[((i % n) + n) % n];
  const corner = (p: Pt) => p[2] === 'corner';
  let d = `M${r1(pts[0][0])} ${r1(pts[0][1])}`;
  for (let i = 0; i < n; i++) {
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    const k = tension / 6;
    const c1 = corner(p1) ? p1 : [p1[0] + (p2[0] - p0[0]) * k, p1[1] + (p2[1] - p0[1]) * k];
    const c2 = corner(p2) ? p2 : [p2[0] - (p3[0] - p1[0]) * k, p2[1] - (p3[1] - p1[1]) * k];
    d += `C${r1(c1[0])} ${r1(c1[1])} ${r1(c2[0])} ${r1(c2[1])} ${r1(p2[0])} ${r1(p2[1])}`;
  }
  return d + 'Z';
}

/** A straight-edged closed polygon. */
export function polyPath(pts: readonly Pt[]): string {
  return 'M' + pts.map((p) => `${r1(p[0])} ${r1(p[1])}`).join('L') + 'Z';
}

/** Mirrors x around the figure's centre line. */
export const mirrorX =
  (cx: number) =>
  (p: Pt): Pt =>
    p[2] ? [2 * cx - p[0], p[1], p[2]] : [2 * cx - p[0], p[1]];

/**
 * A shape symmetric about x = cx, from its right half: points going from the top centre down the
 * right side to the bottom centre (the centre points themselves excluded or included once).
 */
export function symmetric(cx: number, right: readonly Pt[]): Pt[] {
  const left = right
    .filter((p) => Math.abs(p[0] - cx) > 0.01)
    .map(mirrorX(cx))
    .reverse();
  return [...right, ...left];
}

/** Deterministic small hash of a string, for varying details per id without randomness. */
export function hashInt(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
