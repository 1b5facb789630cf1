import { Pt, el, darken, lighten, smoothPath, symmetric, mirrorX } from './svg';

/**
 * The fashion croquis every outfit is drawn on: a faceless, front-facing figure in a 300 x 400
 * box, built from smooth flat shapes (no anatomy is drawn; garments sit on top of it).
 * Landmarks (y) are exported so garments line up with the body.
 */
export const W = 300;
export const H = 400;
export const CX = 150;

export const Y = {
  headTop: 40,
  chin: 84,
  neckBase: 100,
  shoulder: 108,
  armpit: 126,
  bust: 142,
  underBust: 156,
  waist: 182,
  highHip: 204,
  hip: 224,
  crotch: 246,
  thigh: 270,
  knee: 305,
  calf: 328,
  ankle: 368,
  floor: 384,
} as const;

/** Half-width of the torso at a height (linear between measured points). */
const TORSO: readonly [number, number][] = [
  [98, 8],
  [102, 20],
  [107, 33],
  [112, 35],
  [126, 30],
  [142, 29],
  [156, 25.5],
  [170, 21.5],
  [182, 20.5],
  [196, 24],
  [210, 30],
  [224, 33],
  [236, 32.5],
  [246, 30],
];

export function torsoHW(y: number): number {
  if (y <= TORSO[0][0]) return TORSO[0][1];
  for (let i = 1; i < TORSO.length; i++) {
    const [y1, w1] = TORSO[i];
    if (y <= y1) {
      const [y0, w0] = TORSO[i - 1];
      return w0 + ((w1 - w0) * (y - y0)) / (y1 - y0);
    }
  }
  return TORSO[TORSO.length - 1][1];
}

/** Right leg: centre line and half width from the hip to the ankle. */
const LEG: readonly [number, number, number][] = [
  // y, centre x, half width
  [212, 164.5, 14],
  [230, 166, 16.8],
  [246, 166, 16.5],
  [270, 165, 14.5],
  [292, 163, 11.5],
  [305, 162, 9.5],
  [318, 162, 10],
  [332, 161.5, 9.5],
  [350, 160.5, 7],
  [368, 159.5, 4.6],
];

export function legAt(y: number): { cx: number; hw: number } {
  if (y <= LEG[0][0]) return { cx: LEG[0][1], hw: LEG[0][2] };
  for (let i = 1; i < LEG.length; i++) {
    const [y1, c1, w1] = LEG[i];
    if (y <= y1) {
      const [y0, c0, w0] = LEG[i - 1];
      const t = (y - y0) / (y1 - y0);
      return { cx: c0 + (c1 - c0) * t, hw: w0 + (w1 - w0) * t };
    }
  }
  const last = LEG[LEG.length - 1];
  return { cx: last[1], hw: last[2] };
}

/** Right arm: centre line and half width from the shoulder to the wrist. */
export const ARM: readonly [number, number, number][] = [
  [112, 181, 8.5],
  [130, 186.5, 7.5],
  [152, 191, 6.8],
  [178, 195, 5.8],
  [205, 198.5, 5],
  [232, 201, 4],
];

export function armAt(y: number): { cx: number; hw: number } {
  if (y <= ARM[0][0]) return { cx: ARM[0][1], hw: ARM[0][2] };
  for (let i = 1; i < ARM.length; i++) {
    const [y1, c1, w1] = ARM[i];
    if (y <= y1) {
      const [y0, c0, w0] = ARM[i - 1];
      const t = (y - y0) / (y1 - y0);
      return { cx: c0 + (c1 - c0) * t, hw: w0 + (w1 - w0) * t };
    }
  }
  const last = ARM[ARM.length - 1];
  return { cx: last[1], hw: last[2] };
}

/** Outline of a limb segment between two heights, `extra` wider than the limb on each side. */
export function limbOutline(at: (y: number) => { cx: number; hw: number }, from: number, to: number, extra = 0, steps = 6): Pt[] {
  const outer: Pt[] = [];
  const inner: Pt[] = [];
  for (let i = 0; i <= steps; i++) {
    const y = from + ((to - from) * i) / steps;
    const { cx, hw } = at(y);
    outer.push([cx + hw + extra, y]);
    inner.push([cx - hw - extra, y]);
  }
  return [...outer, ...inner.reverse()];
}

export const SKIN_TONES = ['#f3d5bf', '#e6b898', '#c98f6b', '#a26b4b', '#70472f'] as const;
export const HAIR_COLOURS = ['#3a2621', '#5b3a29', '#2a1d1a', '#8a5a3b', '#1f1715'] as const;
export type HairStyle = 'bun' | 'long' | 'bob' | 'ponytail';
export const HAIR_STYLES: readonly HairStyle[] = ['bun', 'long', 'bob', 'ponytail'];

export interface FigureLook {
  skin: string;
  hair: string;
  hairStyle: HairStyle;
}

/** Hair drawn behind the body (long hair, ponytail). */
export function hairBack(look: FigureLook): string {
  const { hair, hairStyle } = look;
  if (hairStyle === 'long') {
    return el('path', {
      d: smoothPath(
        symmetric(CX, [
          [CX, 36],
          [CX + 19, 42],
          [CX + 24, 64],
          [CX + 23, 96],
          [CX + 27, 128, 'corner'],
          [CX + 14, 122],
          [CX, 104],
        ]),
      ),
      fill: hair,
    });
  }
  if (hairStyle === 'ponytail') {
    return el('path', {
      d: smoothPath([
        [CX + 12, 44],
        [CX + 26, 50],
        [CX + 27, 76],
        [CX + 22, 108, 'corner'],
        [CX + 17, 80],
        [CX + 12, 58],
      ]),
      fill: hair,
    });
  }
  return '';
}

/** The head, neck, torso, arms and legs as one flat tone with soft shading. */
export function body(look: FigureLook, options: { legs?: boolean } = {}): string {
  const { skin } = look;
  const shade = darken(skin, 0.12);
  const parts: string[] = [];
  // legs
  if (options.legs !== false) {
    const leg = limbOutline(legAt, 212, Y.ankle, 0, 10);
    parts.push(el('path', { d: smoothPath(leg) }), el('path', { d: smoothPath(leg.map(mirrorX(CX))) }));
    // feet
    for (const side of [1, -1]) {
      const x = CX + side * 10.5;
      parts.push(
        el('path', {
          d: smoothPath([
            [x - 4.5, 366],
            [x + 4.5, 366],
            [x + 5.2, 378],
            [x + 1.5, 386],
            [x - 2.5, 385],
            [x - 5, 377],
          ]),
        }),
      );
    }
  }
  // torso
  const torso: Pt[] = [];
  for (let y = 98; y <= 246; y += 6) torso.push([CX + torsoHW(y), y]);
  torso.push([CX + 14, 250], [CX, 252]);
  parts.push(el('path', { d: smoothPath(symmetric(CX, [[CX, 97], ...torso])) }));
  // arms and hands
  const arm = limbOutline(armAt, 110, 232, 0, 6);
  parts.push(el('path', { d: smoothPath(arm) }), el('path', { d: smoothPath(arm.map(mirrorX(CX))) }));
  for (const side of [1, -1]) {
    parts.push(el('ellipse', { cx: CX + side * 202, cy: 244, rx: 5, ry: 11, transform: side > 0 ? 'rotate(-6 202 244)' : undefined }));
  }
  // neck and head
  parts.push(
    el('path', {
      d: smoothPath([
        [CX - 7.5, 76],
        [CX + 7.5, 76],
        [CX + 8.5, 101, 'corner'],
        [CX - 8.5, 101, 'corner'],
      ]),
    }),
  );
  parts.push(el('ellipse', { cx: CX, cy: 62, rx: 16.5, ry: 21 }));
  const shading = el('path', {
    d: smoothPath([
      [CX - 7.5, 84],
      [CX + 7.5, 84],
      [CX + 6, 92],
      [CX - 6, 92],
    ]),
    fill: shade,
    opacity: 0.5,
  });
  return el('g', { fill: skin }, parts.join('')) + shading;
}

/** Hair drawn in front: the crown and fringe, plus a bun or a bob. */
export function hairFront(look: FigureLook): string {
  const { hair, hairStyle } = look;
  const hi = lighten(hair, 0.18);
  const crown = el('path', {
    d: smoothPath([
      [CX - 18, 66],
      [CX - 19, 48],
      [CX - 8, 39],
      [CX + 6, 38],
      [CX + 17, 45],
      [CX + 19, 62],
      [CX + 12, 50],
      [CX - 2, 48],
      [CX - 12, 54],
    ]),
    fill: hair,
  });
  const sheen = el('path', {
    d: 'M138 46 Q148 41 160 44',
    fill: 'none',
    stroke: hi,
    'stroke-width': 2,
    'stroke-linecap': 'round',
    opacity: 0.7,
  });
  let extra = '';
  if (hairStyle === 'bun') extra = el('circle', { cx: CX + 2, cy: 33, r: 10.5, fill: hair });
  if (hairStyle === 'bob') {
    extra = el('path', {
      d: smoothPath(
        symmetric(CX, [
          [CX, 37],
          [CX + 20, 44],
          [CX + 24, 70],
          [CX + 23, 88, 'corner'],
          [CX + 15, 84],
          [CX + 17, 60],
          [CX, 47],
        ]),
      ),
      fill: hair,
    });
  }
  return extra + crown + sheen;
}

export function lookFor(seed: number): FigureLook {
  const tone = seed % SKIN_TONES.length;
  return {
    skin: SKIN_TONES[tone],
    hair: HAIR_COLOURS[(seed >>> 3) % HAIR_COLOURS.length],
    hairStyle: HAIR_STYLES[(seed >>> 6) % HAIR_STYLES.length],
  };
}
