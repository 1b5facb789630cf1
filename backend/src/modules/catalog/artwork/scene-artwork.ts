import { CX, H, W } from './figure';
import { sharedDefs, svgDocument } from './outfit-artwork';
import { Pt, darken, el, lighten, smoothPath, symmetric } from './svg';
import type { SceneArtwork, SceneSetting } from '../catalog.types';

/**
 * Scene thumbnails: a small stylised backdrop (beach horizon, pool tiles, bedroom...) with a
 * pictogram figure in a simple dress showing the pose (standing, walking or sitting). Flat
 * shapes and gradients only, so librsvg (sharp) renders them exactly like a browser.
 */

type Light = 'day' | 'golden' | 'night';

interface Backdrop {
  /** everything behind the figure */
  back: string;
  /** props drawn in front of the figure (a table edge, a railing) */
  front?: string;
  /** where the figure's feet are (sitting: where the seat is) */
  ground: number;
  /** figure colour that reads on this backdrop */
  figure: string;
  scale?: number;
  /** horizontal position of the figure */
  x?: number;
}

const INK = '#4a2a24';
const LIGHT_FIGURE = '#fbf4f1';

// Gradients a backdrop asks for, collected into <defs> while one picture renders (rendering is
// synchronous; renderSceneArtwork resets them first).
let gradientCounter = 0;
const gradients: string[] = [];

function vgrad(stops: readonly string[]): string {
  const id = `g${gradientCounter++}`;
  gradients.push(
    el(
      'linearGradient',
      { id, x1: 0, y1: 0, x2: 0, y2: 1 },
      stops.map((c, i) => el('stop', { offset: stops.length === 1 ? 0 : i / (stops.length - 1), 'stop-color': c })).join(''),
    ),
  );
  return `url(#${id})`;
}

function rgrad(inner: string, outer: string, opacityOuter = 0): string {
  const id = `g${gradientCounter++}`;
  gradients.push(
    el(
      'radialGradient',
      { id, cx: 0.5, cy: 0.5, r: 0.5 },
      el('stop', { offset: 0, 'stop-color': inner }) + el('stop', { offset: 1, 'stop-color': outer, 'stop-opacity': opacityOuter }),
    ),
  );
  return `url(#${id})`;
}

const rect = (x: number, y: number, w: number, h: number, fill: string, extra: Record<string, string | number> = {}) =>
  el('rect', { x, y, width: w, height: h, fill, ...extra });
const line = (d: string, stroke: string, width: number, extra: Record<string, string | number> = {}) =>
  el('path', { d, fill: 'none', stroke, 'stroke-width': width, 'stroke-linecap': 'round', ...extra });

const SKIES: Record<Light, readonly string[]> = {
  day: ['#a9d3e0', '#d8ecef', '#f7ecdf'],
  golden: ['#e9a27c', '#f4c79c', '#fbe6cd'],
  night: ['#2b2340', '#4a3654', '#7a4d5c'],
};

function sky(light: Light, to = 240): string {
  let out = rect(0, 0, W, to, vgrad(SKIES[light]));
  if (light === 'night') {
    for (const [x, y] of [
      [40, 40],
      [90, 70],
      [210, 30],
      [260, 80],
      [160, 56],
      [20, 110],
      [280, 140],
    ])
      out += el('circle', { cx: x, cy: y, r: 1.2, fill: '#fbf4f1', opacity: 0.8 });
    out += el('circle', { cx: 236, cy: 62, r: 13, fill: '#f6e6df', opacity: 0.9 });
  } else {
    out += el('circle', {
      cx: light === 'golden' ? 200 : 232,
      cy: light === 'golden' ? 196 : 66,
      r: light === 'golden' ? 30 : 20,
      fill: light === 'golden' ? '#fde2b8' : '#fff6dc',
      opacity: 0.95,
    });
    out += cloud(60, 80) + cloud(190, 120, 0.8);
  }
  return out;
}

function cloud(x: number, y: number, s = 1): string {
  return el('path', {
    d: `M${x} ${y} q${6 * s} ${-12 * s} ${18 * s} ${-6 * s} q${10 * s} ${-10 * s} ${22 * s} ${2 * s} q${12 * s} 0 ${12 * s} ${8 * s}Z`,
    fill: '#ffffff',
    opacity: 0.75,
  });
}

function palm(x: number, y: number, side: 1 | -1, scale = 1): string {
  const s = scale;
  let out = line(`M${x} ${y} Q${x + side * 14 * s} ${y - 80 * s} ${x + side * 4 * s} ${y - 150 * s}`, '#7a5a40', 6 * s);
  const top = [x + side * 4 * s, y - 150 * s] as const;
  for (const [dx, dy] of [
    [-50, 10],
    [-40, 34],
    [40, 30],
    [52, 8],
    [10, -30],
    [-20, -26],
  ]) {
    out += el('path', {
      d: `M${top[0]} ${top[1]} Q${top[0] + dx * 0.5 * s} ${top[1] + (dy - 24) * s} ${top[0] + dx * s} ${top[1] + dy * s} Q${top[0] + dx * 0.55 * s} ${top[1] + (dy - 12) * s} ${top[0]} ${top[1]}Z`,
      fill: '#4f8a63',
    });
  }
  return out;
}

function plant(x: number, y: number, scale = 1, pot = '#c98f6b'): string {
  const s = scale;
  let out = '';
  for (const [dx, h, c] of [
    [-10, 46, '#5d8c66'],
    [0, 60, '#4f7d59'],
    [10, 44, '#6d9c73'],
    [-4, 36, '#7aa77c'],
    [6, 52, '#5d8c66'],
  ] as const) {
    out += el('ellipse', {
      cx: x + dx * s,
      cy: y - h * 0.55 * s,
      rx: 6 * s,
      ry: h * 0.5 * s,
      fill: c,
      transform: `rotate(${dx * 2.2} ${x + dx * s} ${y})`,
    });
  }
  out += el('path', { d: `M${x - 12 * s} ${y} L${x + 12 * s} ${y} L${x + 9 * s} ${y + 20 * s} L${x - 9 * s} ${y + 20 * s}Z`, fill: pot });
  return out;
}

function planks(y: number, base: string, to = H): string {
  let out = rect(0, y, W, to - y, vgrad([base, darken(base, 0.12)]));
  for (let i = 1; i < 6; i++) {
    const yy = y + ((to - y) * i * i) / 36;
    out += line(`M0 ${yy} L${W} ${yy}`, darken(base, 0.18), 0.8, { opacity: 0.6 });
  }
  return out;
}

function tiles(x: number, y: number, w: number, h: number, base: string, size: number, grout = '#ffffff'): string {
  const out = rect(x, y, w, h, base);
  let d = '';
  for (let xx = x + size; xx < x + w; xx += size) d += `M${xx} ${y}V${y + h}`;
  for (let yy = y + size; yy < y + h; yy += size) d += `M${x} ${yy}H${x + w}`;
  return out + el('path', { d, stroke: grout, 'stroke-width': 1, opacity: 0.7, fill: 'none' });
}

function windowFrame(x: number, y: number, w: number, h: number, view: string, frame = '#fbf8f4'): string {
  return (
    view +
    rect(x, y, w, h, 'none', { stroke: frame, 'stroke-width': 5 }) +
    line(`M${x + w / 2} ${y} V${y + h} M${x} ${y + h / 2} H${x + w}`, frame, 3)
  );
}

function windowView(x: number, y: number, w: number, h: number, light: Light, city = false): string {
  let inner = rect(x, y, w, h, vgrad(SKIES[light]));
  if (city) {
    const buildings = [
      [0, 0.55],
      [0.14, 0.35],
      [0.3, 0.6],
      [0.46, 0.25],
      [0.6, 0.5],
      [0.76, 0.4],
      [0.88, 0.62],
    ];
    for (const [bx, bh] of buildings) {
      const top = y + h * bh;
      const col = light === 'night' ? '#2a2038' : '#9fb3c0';
      inner += rect(x + w * bx, top, w * 0.15, y + h - top, col);
      if (light === 'night')
        for (let yy = top + 6; yy < y + h - 4; yy += 9) inner += rect(x + w * bx + 4, yy, 3, 3, '#f6d38a', { opacity: 0.85 });
    }
  } else {
    inner += el('ellipse', { cx: x + w * 0.3, cy: y + h, rx: w * 0.6, ry: h * 0.3, fill: light === 'night' ? '#3a3a4a' : '#a9c9a4' });
  }
  return inner;
}

function curtain(x: number, y: number, w: number, h: number, colour: string, side: 1 | -1): string {
  const pts: Pt[] =
    side > 0
      ? [
          [x, y, 'corner'],
          [x + w, y, 'corner'],
          [x + w * 0.55, y + h * 0.55],
          [x + w * 0.9, y + h, 'corner'],
          [x, y + h, 'corner'],
        ]
      : [
          [x + w, y, 'corner'],
          [x, y, 'corner'],
          [x + w * 0.45, y + h * 0.55],
          [x + w * 0.1, y + h, 'corner'],
          [x + w, y + h, 'corner'],
        ];
  return (
    el('path', { d: smoothPath(pts), fill: colour }) +
    line(`M${x + w * 0.3} ${y} Q${x + w * 0.4} ${y + h * 0.5} ${x + w * 0.35} ${y + h}`, darken(colour, 0.15), 1.4, { opacity: 0.6 })
  );
}

function lamp(x: number, y: number, shade: string, glow = false): string {
  return (
    (glow ? el('circle', { cx: x, cy: y - 30, r: 40, fill: rgrad('#fff3d6', '#fff3d6') }) : '') +
    line(`M${x} ${y} V${y - 26}`, '#6e5946', 2) +
    el('path', { d: `M${x - 12} ${y - 26} L${x + 12} ${y - 26} L${x + 8} ${y - 44} L${x - 8} ${y - 44}Z`, fill: shade }) +
    rect(x - 8, y, 16, 3, '#6e5946', { rx: 1.5 })
  );
}

function bed(x: number, y: number, w: number, duvet: string, headboard: string): string {
  return (
    rect(x, y - 70, w, 60, headboard, { rx: 10 }) +
    rect(x - 6, y - 22, w + 12, 44, duvet, { rx: 8 }) +
    rect(x + 8, y - 34, w * 0.38, 18, '#fbf8f4', { rx: 8 }) +
    rect(x + w * 0.54, y - 34, w * 0.38, 18, '#fbf8f4', { rx: 8 }) +
    rect(x - 6, y + 16, w + 12, 8, darken(duvet, 0.12), { rx: 3 })
  );
}

function sofa(x: number, y: number, w: number, colour: string): string {
  return (
    rect(x, y - 56, w, 44, colour, { rx: 12 }) +
    rect(x - 10, y - 30, 22, 44, darken(colour, 0.08), { rx: 9 }) +
    rect(x + w - 12, y - 30, 22, 44, darken(colour, 0.08), { rx: 9 }) +
    rect(x + 8, y - 18, w - 16, 24, lighten(colour, 0.08), { rx: 7 }) +
    rect(x, y + 10, 4, 8, '#6e5946') +
    rect(x + w - 4, y + 10, 4, 8, '#6e5946')
  );
}

function stringLights(y: number, colour = '#f6d38a'): string {
  let out = line(`M0 ${y} Q${W / 2} ${y + 30} ${W} ${y}`, '#5a4a40', 1);
  for (let i = 1; i < 12; i++) {
    const t = i / 12;
    const x = W * t;
    const yy = y + 30 * 2 * t * (1 - t) + 2;
    out += el('circle', { cx: x, cy: yy, r: 2.6, fill: colour }) + el('circle', { cx: x, cy: yy, r: 6, fill: colour, opacity: 0.25 });
  }
  return out;
}

// ---- settings ---------------------------------------------------------------------------

const SETTINGS: Record<SceneSetting, (light: Light, sitting: boolean) => Backdrop> = {
  beach: (light) => ({
    back:
      sky(light, 236) +
      rect(0, 214, W, 40, vgrad(['#5fa8b8', '#8fcad0'])) +
      line('M20 228 q10 -4 20 0 M120 236 q12 -4 24 0 M220 224 q10 -4 20 0', '#e6f4f2', 1.4) +
      el('path', { d: `M0 250 Q80 240 150 248 T${W} 246 V${H} H0Z`, fill: vgrad(['#f0dcb8', '#e4c196']) }) +
      el('path', { d: `M0 252 Q80 242 150 250 T${W} 248`, fill: 'none', stroke: '#ffffff', 'stroke-width': 2.2, opacity: 0.8 }) +
      palm(26, 300, 1, 0.9),
    ground: 372,
    figure: INK,
  }),
  yacht: (light) => ({
    back:
      sky(light, 230) +
      rect(0, 210, W, 110, vgrad(['#4f98ad', '#7fbcc6'])) +
      line('M30 236 q10 -4 20 0 M170 250 q12 -4 24 0 M250 232 q10 -4 20 0', '#e6f4f2', 1.4) +
      planks(318, '#b98a5e'),
    front: line(`M0 292 H${W} M0 306 H${W}`, '#fbf8f4', 3) + [20, 80, 220, 280].map((x) => line(`M${x} 292 V318`, '#fbf8f4', 3)).join(''),
    ground: 374,
    figure: INK,
  }),
  lagoon: (light) => ({
    back:
      sky(light, 220) +
      el('path', { d: `M0 200 Q60 170 120 196 Q180 176 ${W} 198 V230 H0Z`, fill: '#6d9c73' }) +
      rect(0, 214, W, 186, vgrad(['#58c0bf', '#9adfd3', '#d9efe3'])) +
      line('M40 260 q12 -4 24 0 M190 290 q12 -4 24 0 M90 330 q12 -4 24 0', '#ffffff', 1.4, { opacity: 0.8 }) +
      palm(24, 330, 1) +
      palm(284, 320, -1, 0.85),
    ground: 372,
    figure: INK,
  }),
  pool: (light, sitting) => ({
    back:
      sky(light, 170) +
      rect(0, 150, W, 28, '#e9dfd2') +
      palm(272, 182, -1, 0.62) +
      rect(0, 176, W, 8, '#fbf8f4') +
      tiles(0, 184, W, 122, '#67bcd0', 18, '#9fd9e4') +
      line('M20 214 q14 -6 28 0 M150 244 q14 -6 28 0 M60 280 q14 -6 28 0 M220 200 q14 -6 28 0', '#e6f7fa', 1.8, { opacity: 0.9 }) +
      rect(0, 304, W, 9, '#fbf8f4') +
      rect(0, 313, W, 87, vgrad(['#efe4d6', '#e3d3c0'])) +
      line('M0 345 H300 M100 313 V345 M220 313 V345 M40 345 V400 M160 345 V400 M270 345 V400', '#d8c8b4', 1) +
      (sitting
        ? el('path', {
            d: 'M60 338 L246 338 L246 346 L60 346Z M60 346 L36 300 L44 296 L68 340Z',
            fill: '#fbf8f4',
            stroke: '#d8c8b4',
            'stroke-width': 1,
          }) +
          line('M76 346 V370 M232 346 V370', '#b8ada3', 3) +
          rect(82, 330, 150, 8, '#86bbd8', { rx: 3 })
        : ''),
    ground: sitting ? 330 : 378,
    figure: INK,
    x: sitting ? 100 : 150,
  }),
  bedroom: (light, sitting) => ({
    back:
      rect(0, 0, W, 290, vgrad(['#f3ddd2', '#ecccbf'])) +
      windowFrame(24, 60, 70, 96, windowView(24, 60, 70, 96, light)) +
      curtain(10, 50, 30, 150, '#fbf4f1', 1) +
      curtain(80, 50, 30, 150, '#fbf4f1', -1) +
      planks(290, '#c9a27e') +
      bed(120, 296, 150, '#fbf8f4', '#bd6a51') +
      lamp(276, 214, '#f6e6df', true),
    ground: sitting ? 280 : 372,
    figure: INK,
    x: sitting ? 166 : 170,
  }),
  bathroom: () => ({
    back:
      tiles(0, 0, W, 300, '#eef1ee', 24, '#d7dfdb') +
      el('circle', { cx: 150, cy: 110, r: 48, fill: vgrad(['#dbe9ec', '#f7fbfb']), stroke: '#c9a227', 'stroke-width': 3 }) +
      rect(80, 200, 140, 14, '#fbf8f4', { rx: 4 }) +
      rect(90, 214, 120, 60, '#d8c8b4', { rx: 4 }) +
      line('M150 170 V200', '#c9a227', 2.5) +
      rect(240, 130, 40, 70, '#ecccbf', { rx: 3 }) +
      plant(40, 180, 0.8, '#fbf8f4') +
      tiles(0, 300, W, 100, '#e9dfd2', 33, '#fbf8f4'),
    ground: 372,
    figure: INK,
  }),
  gym: () => ({
    back:
      rect(0, 0, W, 290, vgrad(['#5a5550', '#6e6862'])) +
      rect(20, 40, 120, 170, vgrad(['#8a8f94', '#b4b9bd']), { opacity: 0.55 }) +
      rect(160, 150, 120, 8, '#2a2624') +
      [178, 206, 234, 262]
        .map((x) => el('circle', { cx: x, cy: 146, r: 9, fill: '#2a2624' }) + el('circle', { cx: x, cy: 146, r: 3, fill: '#bd6a51' }))
        .join('') +
      rect(160, 190, 120, 6, '#2a2624') +
      rect(0, 290, W, 110, vgrad(['#3b3733', '#2e2a27'])) +
      line('M0 290 H300', '#bd6a51', 3) +
      el('path', {
        d: 'M236 350 a14 14 0 1 0 28 0 a14 14 0 1 0 -28 0 M242 336 q8 -12 16 0',
        fill: '#2a2624',
        stroke: '#2a2624',
        'stroke-width': 3,
      }),
    ground: 370,
    figure: LIGHT_FIGURE,
  }),
  trail: (light) => ({
    back:
      sky(light, 230) +
      el('path', { d: `M0 180 Q80 130 160 170 T${W} 160 V260 H0Z`, fill: '#9cb59a' }) +
      el('path', { d: `M0 220 Q100 180 200 214 T${W} 206 V300 H0Z`, fill: '#7fa07f' }) +
      rect(0, 250, W, 150, vgrad(['#8fb087', '#6d9066'])) +
      el('path', { d: `M130 250 Q160 250 170 280 Q190 340 250 ${H} H60 Q120 340 130 250Z`, fill: '#e4cfa9' }) +
      [
        [40, 250],
        [270, 240],
        [20, 290],
      ]
        .map(([x, y]) => el('path', { d: `M${x} ${y} l-14 0 l14 -46 l14 46Z`, fill: '#4f7d59' }) + rect(x - 2, y, 4, 10, '#7a5a40'))
        .join(''),
    ground: 374,
    figure: INK,
  }),
  'yoga-studio': (light, sitting) => ({
    back:
      rect(0, 0, W, 280, '#f5efe7') +
      windowFrame(30, 40, 110, 180, windowView(30, 40, 110, 180, light)) +
      windowFrame(160, 40, 110, 180, windowView(160, 40, 110, 180, light)) +
      plant(20, 262, 1.2) +
      plant(280, 262, 1) +
      planks(280, '#dcc0a0') +
      el('path', { d: 'M40 344 L250 344 L270 384 L20 384Z', fill: '#9cb59a' }),
    ground: sitting ? 364 : 370,
    x: sitting ? 96 : 150,
    figure: INK,
  }),
  'tennis-court': (light) => ({
    back:
      sky(light, 150) +
      rect(0, 120, W, 60, '#3f6b52') +
      line('M0 130 H300 M0 150 H300 M0 170 H300', '#2f5240', 1) +
      rect(0, 180, W, 220, vgrad(['#5c8fb0', '#4a7c9c'])) +
      el('path', {
        d: 'M60 180 L20 400 M240 180 L280 400 M40 290 H260 M150 180 V290',
        stroke: '#ffffff',
        'stroke-width': 2.5,
        fill: 'none',
      }) +
      rect(0, 232, W, 26, '#2a2624', { opacity: 0.35 }) +
      line('M0 232 H300', '#ffffff', 3),
    ground: 376,
    figure: INK,
  }),
  'city-street': (light) => ({
    back:
      sky(light, 200) +
      rect(0, 70, 90, 250, '#d8b6a3') +
      rect(96, 110, 100, 210, '#c9a88f') +
      rect(202, 50, 98, 270, '#e3cbb8') +
      [0, 96, 202]
        .map((bx) =>
          [0, 1, 2, 3, 4, 5]
            .map((r) =>
              [0, 1, 2]
                .map((c) =>
                  rect(
                    bx + 10 + c * 28,
                    (bx === 96 ? 124 : bx === 0 ? 84 : 64) + r * 34,
                    16,
                    22,
                    light === 'night' ? '#f6d38a' : '#a9c7d3',
                    { opacity: 0.85 },
                  ),
                )
                .join(''),
            )
            .join(''),
        )
        .join('') +
      rect(0, 320, W, 80, vgrad(['#cfc6bd', '#b8ada3'])) +
      line('M0 320 H300', '#8a7158', 2) +
      line('M258 320 V190', '#3b312a', 3) +
      el('circle', { cx: 258, cy: 186, r: 7, fill: '#f6d38a' }),
    ground: 378,
    figure: INK,
  }),
  garden: (light) => ({
    back:
      sky(light, 200) +
      rect(0, 150, W, 120, '#6d9c73') +
      [20, 60, 100, 140, 180, 220, 260, 300].map((x) => el('circle', { cx: x, cy: 152, r: 24, fill: '#5d8c66' })).join('') +
      [
        [30, 200],
        [80, 220],
        [210, 196],
        [260, 230],
        [130, 236],
      ]
        .map(
          ([x, y]) =>
            el('circle', { cx: x, cy: y, r: 4, fill: '#ecccbf' }) + el('circle', { cx: x + 10, cy: y + 8, r: 3.5, fill: '#f6e6df' }),
        )
        .join('') +
      rect(0, 270, W, 130, vgrad(['#a7c69a', '#8fb087'])) +
      stringLights(40),
    ground: 374,
    figure: INK,
  }),
  'red-carpet': () => ({
    back:
      rect(0, 0, W, 300, '#2a1f1a') +
      [0, 1, 2, 3, 4, 5]
        .map((r) =>
          [0, 1, 2, 3, 4]
            .map((c) =>
              el('path', { d: `M${30 + c * 60 + (r % 2) * 30} ${30 + r * 45} l10 10 l-10 10 l-10 -10Z`, fill: '#c9a227', opacity: 0.35 }),
            )
            .join(''),
        )
        .join('') +
      rect(0, 300, W, 100, '#3b312a') +
      el('path', { d: 'M100 290 L200 290 L260 400 L40 400Z', fill: vgrad(['#a83232', '#c0392b']) }) +
      [30, 270].map((x) => rect(x - 3, 270, 6, 60, '#c9a227') + el('circle', { cx: x, cy: 268, r: 6, fill: '#c9a227' })).join('') +
      line('M30 282 Q60 300 90 290 M270 282 Q240 300 210 290', '#8e1b1b', 4) +
      [
        [60, 60],
        [240, 90],
        [200, 40],
      ]
        .map(([x, y]) =>
          el('path', {
            d: `M${x} ${y - 8} L${x + 2} ${y - 2} L${x + 8} ${y} L${x + 2} ${y + 2} L${x} ${y + 8} L${x - 2} ${y + 2} L${x - 8} ${y} L${x - 2} ${y - 2}Z`,
            fill: '#ffffff',
            opacity: 0.85,
          }),
        )
        .join(''),
    ground: 372,
    figure: LIGHT_FIGURE,
  }),
  cafe: (light, sitting) => ({
    back:
      rect(0, 0, W, 300, '#efe4d6') +
      rect(20, 40, 260, 30, '#bd6a51') +
      [0, 1, 2, 3, 4, 5, 6]
        .map((i) => el('path', { d: `M${20 + i * 37.2} 70 q18.6 16 37.2 0Z`, fill: i % 2 ? '#fbf8f4' : '#bd6a51' }))
        .join('') +
      windowFrame(40, 100, 220, 150, windowView(40, 100, 220, 150, light, true), '#3b312a') +
      planks(300, '#b8906a') +
      (sitting ? line('M92 322 H136 M96 322 L92 366 M132 322 L136 366 M94 322 L90 270', '#3b312a', 3.5) : ''),
    front: sitting
      ? el('ellipse', { cx: 236, cy: 300, rx: 36, ry: 7, fill: '#fbf8f4', stroke: '#d8c8b4', 'stroke-width': 1 }) +
        line('M236 304 V366 M220 368 H252', '#3b312a', 3) +
        el('path', { d: 'M228 298 h14 v-11 h-14Z', fill: '#bd6a51' }) +
        line('M242 290 q6 2 0 6', '#bd6a51', 1.6)
      : undefined,
    ground: sitting ? 320 : 374,
    figure: INK,
    x: sitting ? 120 : 150,
  }),
  rooftop: (light) => ({
    back:
      sky(light, 260) +
      windowView(0, 150, W, 140, light, true) +
      stringLights(70) +
      planks(290, '#8a7158') +
      line('M0 262 H300 M0 276 H300', '#3b312a', 2) +
      [10, 70, 130, 190, 250, 290].map((x) => line(`M${x} 262 V290`, '#3b312a', 2)).join(''),
    ground: 376,
    figure: light === 'night' ? LIGHT_FIGURE : INK,
  }),
  kitchen: (light) => ({
    back:
      rect(0, 0, W, 300, '#f5efe7') +
      windowFrame(100, 40, 100, 90, windowView(100, 40, 100, 90, light)) +
      rect(0, 30, 80, 100, '#a9c4b0', { rx: 3 }) +
      rect(220, 30, 80, 100, '#a9c4b0', { rx: 3 }) +
      line('M40 70 V90 M260 70 V90', '#6e5946', 2) +
      rect(0, 200, W, 12, '#fbf8f4') +
      rect(0, 212, W, 88, '#a9c4b0') +
      [50, 150, 250].map((x) => line(`M${x - 10} 240 H${x + 10}`, '#6e5946', 2)).join('') +
      el('path', { d: 'M230 200 q0 -22 18 -22 q18 0 18 22Z', fill: '#bd6a51' }) +
      plant(40, 180, 0.7) +
      tiles(0, 300, W, 100, '#e9dfd2', 33, '#fbf8f4'),
    ground: 374,
    figure: INK,
  }),
  'living-room': (light, sitting) => ({
    back:
      rect(0, 0, W, 300, vgrad(['#e9dfd2', '#dfcfbd'])) +
      rect(110, 50, 80, 60, '#fbf8f4', { stroke: '#c9a27e', 'stroke-width': 4 }) +
      el('path', { d: 'M118 100 L140 74 L156 92 L168 80 L182 100Z', fill: '#cf876f' }) +
      lamp(36, 250, '#fbf4f1', light === 'night') +
      plant(270, 270, 1) +
      planks(300, '#b8906a') +
      el('ellipse', { cx: 150, cy: 360, rx: 120, ry: 24, fill: '#ecccbf', opacity: 0.9 }) +
      sofa(62, 300, 176, '#a26769'),
    ground: sitting ? 286 : 376,
    figure: INK,
    x: sitting ? 124 : 150,
  }),
  'window-seat': (light) => ({
    back:
      rect(0, 0, W, 340, '#efe4d6') +
      windowFrame(40, 30, 220, 230, windowView(40, 30, 220, 230, light, true)) +
      rect(30, 280, 240, 10, '#fbf8f4', { rx: 3 }) +
      rect(34, 290, 232, 46, '#d8c8b4') +
      rect(210, 254, 44, 28, '#cf876f', { rx: 10 }) +
      planks(336, '#c9a27e'),
    ground: 290,
    // at night the window behind her is dark: a warm mid-tone reads on both the window and the wall
    figure: light === 'night' ? '#bd6a51' : INK,
    x: 110,
  }),
  cabin: (_light, sitting) => ({
    back:
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => rect(0, i * 38, W, 38, i % 2 ? '#8a5a3b' : '#9c6a48')).join('') +
      rect(170, 120, 110, 180, '#6e6862') +
      rect(190, 190, 70, 110, '#2a2624') +
      el('path', { d: 'M200 300 q10 -40 25 -50 q-4 20 10 28 q6 -20 14 -30 q8 24 1 52Z', fill: '#f6a04d' }) +
      el('circle', { cx: 225, cy: 270, r: 60, fill: rgrad('#f6c28b', '#f6c28b') }) +
      rect(160, 110, 130, 14, '#5a4034') +
      planks(300, '#6e4a32') +
      el('ellipse', { cx: 120, cy: 366, rx: 110, ry: 22, fill: '#bd6a51', opacity: 0.85 }) +
      (sitting ? rect(40, 240, 110, 60, '#a26769', { rx: 14 }) + rect(34, 280, 122, 36, '#a26769', { rx: 10 }) : ''),
    ground: sitting ? 286 : 372,
    figure: INK,
    x: sitting ? 84 : 110,
  }),
  vanity: () => ({
    back:
      rect(0, 0, W, 300, vgrad(['#f6e6df', '#ecccbf'])) +
      el('ellipse', { cx: 150, cy: 120, rx: 64, ry: 80, fill: vgrad(['#e8eef0', '#fbfdfd']), stroke: '#c9a227', 'stroke-width': 4 }) +
      Array.from({ length: 10 }, (_, i) => {
        const a = (i / 10) * Math.PI * 2;
        return el('circle', { cx: 150 + Math.cos(a) * 72, cy: 120 + Math.sin(a) * 88, r: 4, fill: '#fff3d6' });
      }).join('') +
      rect(50, 210, 200, 14, '#fbf8f4', { rx: 4 }) +
      rect(60, 224, 180, 56, '#e9dfd2') +
      el('path', { d: 'M200 210 v-14 h8 v14Z M214 210 v-10 h6 v10Z', fill: '#cf876f' }) +
      planks(290, '#c9a27e'),
    ground: 372,
    figure: INK,
  }),
  'hotel-window': (light) => ({
    back:
      rect(0, 0, W, 400, '#3b312a') +
      windowFrame(30, 20, 240, 290, windowView(30, 20, 240, 290, light, true), '#2a2624') +
      curtain(0, 10, 50, 320, '#e9dfd2', 1) +
      curtain(250, 10, 50, 320, '#e9dfd2', -1) +
      planks(310, '#6e5946'),
    ground: 376,
    figure: light === 'night' ? LIGHT_FIGURE : INK,
  }),
  chaise: () => ({
    back:
      rect(0, 0, W, 300, '#e9d6cf') +
      [30, 110, 190].map((x) => rect(x, 40, 70, 200, 'none', { stroke: '#f8efe9', 'stroke-width': 3, rx: 4 })).join('') +
      planks(300, '#b8906a') +
      el('path', { d: 'M40 300 Q40 250 70 250 L230 262 Q262 262 262 300Z', fill: '#8e3b46' }) +
      rect(40, 292, 222, 28, '#7b2f3a', { rx: 8 }) +
      rect(50, 320, 6, 18, '#c9a227') +
      rect(246, 320, 6, 18, '#c9a227'),
    ground: 294,
    figure: INK,
    x: 110,
  }),
  studio: () => ({
    back:
      rect(0, 0, W, 400, '#e9dfd2') +
      el('path', { d: `M40 0 H260 V300 Q260 340 300 350 V400 H0 V350 Q40 340 40 300Z`, fill: vgrad(['#f5efe7', '#ecccbf']) }) +
      [-1, 1]
        .map((s) => {
          const x = 150 + s * 120;
          return (
            line(`M${x} 400 V120`, '#3b312a', 2.5) +
            line(`M${x - 16} 400 L${x} 330 L${x + 16} 400`, '#3b312a', 2) +
            el('path', {
              d: `M${x - 18} 88 h36 l-6 36 h-24Z`,
              fill: '#fbf8f4',
              stroke: '#3b312a',
              'stroke-width': 2,
              transform: `rotate(${s * 14} ${x} 110)`,
            })
          );
        })
        .join('') +
      el('ellipse', { cx: 150, cy: 200, rx: 110, ry: 150, fill: rgrad('#ffffff', '#ffffff'), opacity: 0.6 }),
    ground: 370,
    figure: INK,
  }),
  'neon-lounge': () => ({
    back:
      rect(0, 0, W, 400, vgrad(['#2b2340', '#3d2b4f'])) +
      el('path', { d: 'M60 110 a40 40 0 0 1 80 0 a40 40 0 0 1 -80 0', fill: 'none', stroke: '#ff8fab', 'stroke-width': 4, opacity: 0.95 }) +
      el('path', { d: 'M60 110 a40 40 0 0 1 80 0 a40 40 0 0 1 -80 0', fill: 'none', stroke: '#ff8fab', 'stroke-width': 12, opacity: 0.2 }) +
      line('M184 80 H244 L214 114 Z M214 114 V142 M198 144 H230', '#8fd3ff', 4) +
      line('M184 80 H244 L214 114 Z M214 114 V142 M198 144 H230', '#8fd3ff', 12, { opacity: 0.2 }) +
      rect(0, 230, W, 70, '#6b2d4a', { rx: 20 }) +
      [0, 1, 2, 3, 4].map((i) => line(`M${30 + i * 60} 236 V294`, '#4e1f36', 2)).join('') +
      rect(0, 300, W, 100, '#241c30'),
    ground: 374,
    figure: LIGHT_FIGURE,
  }),
  cabaret: () => ({
    back:
      rect(0, 0, W, 400, '#2a1f1a') +
      el('path', { d: 'M0 0 H300 V40 Q225 70 150 40 Q75 70 0 40Z', fill: '#8e1b1b' }) +
      curtain(0, 0, 70, 320, '#a83232', 1) +
      curtain(230, 0, 70, 320, '#a83232', -1) +
      el('path', { d: 'M120 0 L180 0 L250 330 L50 330Z', fill: '#fff3d6', opacity: 0.16 }) +
      rect(0, 320, W, 80, vgrad(['#5a4034', '#3b2a22'])) +
      [30, 80, 130, 170, 220, 270].map((x) => el('circle', { cx: x, cy: 326, r: 3, fill: '#f6d38a' })).join(''),
    ground: 372,
    figure: LIGHT_FIGURE,
  }),
  ballroom: () => ({
    back:
      rect(0, 0, W, 300, vgrad(['#efe0cf', '#e3cbb8'])) +
      [30, 120, 210]
        .map((x) =>
          el('path', {
            d: `M${x} 260 V120 a30 30 0 0 1 60 0 V260Z`,
            fill: vgrad(['#c9dbe4', '#e9f1f4']),
            stroke: '#fbf8f4',
            'stroke-width': 3,
          }),
        )
        .join('') +
      line('M150 0 V30', '#c9a227', 1.5) +
      el('path', { d: 'M120 30 H180 L170 50 H130Z', fill: '#c9a227' }) +
      [124, 137, 150, 163, 176].map((x) => el('circle', { cx: x, cy: 56, r: 3, fill: '#fff3d6' })).join('') +
      tiles(0, 300, W, 100, '#f5efe7', 25, '#d8c8b4'),
    ground: 374,
    figure: INK,
  }),
  custom: () => ({
    back:
      rect(0, 0, W, 400, vgrad(['#fbf4f1', '#f6e6df'])) +
      rect(24, 24, 252, 352, 'none', { rx: 18, stroke: '#cf876f', 'stroke-width': 2.5, 'stroke-dasharray': '10 8' }) +
      el('circle', { cx: 150, cy: 330, r: 22, fill: '#bd6a51' }) +
      line('M150 318 V342 M138 330 H162', '#ffffff', 3.5) +
      [
        [60, 70],
        [240, 90],
        [230, 250],
      ]
        .map(([x, y]) =>
          el('path', {
            d: `M${x} ${y - 9} L${x + 2.5} ${y - 2.5} L${x + 9} ${y} L${x + 2.5} ${y + 2.5} L${x} ${y + 9} L${x - 2.5} ${y + 2.5} L${x - 9} ${y} L${x - 2.5} ${y - 2.5}Z`,
            fill: '#dfab98',
          }),
        )
        .join(''),
    ground: 290,
    figure: '#884436',
    scale: 0.5,
  }),
};

// ---- the pose pictogram ----------------------------------------------------------------

/**
 * A pictogram in a simple A-line dress, drawn in croquis units (head at y 40..84, 300 wide) and
 * placed by the caller. Standing and walking face the viewer (feet at y 384); sitting and
 * 'floor' (sitting with the legs stretched out) are seen from the side, the seat at y 222.
 */
function pictogram(pose: SceneArtwork['pose'], colour: string): string {
  const stroke = (d: string, width: number) =>
    el('path', { d, fill: 'none', stroke: colour, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' });
  if (pose === 'sitting' || pose === 'floor') {
    const head = el('ellipse', { cx: 152, cy: 62, rx: 17, ry: 21 }) + el('circle', { cx: 134, cy: 52, r: 10 });
    const neck = el('rect', { x: 143, y: 78, width: 13, height: 24 });
    const torso = el('path', {
      d: smoothPath([
        [136, 100],
        [160, 100],
        [170, 126],
        [166, 150],
        [160, 180],
        [168, 208],
        [128, 216, 'corner'],
        [130, 176],
        [126, 130],
      ]),
    });
    const floor = pose === 'floor';
    // skirt over the thigh, to the knee
    const lap = floor
      ? el('path', {
          d: smoothPath([
            [126, 184, 'corner'],
            [166, 184],
            [214, 200],
            [218, 220, 'corner'],
            [126, 222, 'corner'],
          ]),
        })
      : el('path', {
          d: smoothPath([
            [126, 184, 'corner'],
            [166, 186],
            [220, 198],
            [226, 222, 'corner'],
            [126, 222, 'corner'],
          ]),
        });
    const shin = floor
      ? stroke('M212 214 L286 216', 13) + el('ellipse', { cx: 292, cy: 210, rx: 5, ry: 9 })
      : stroke('M218 214 L224 288', 13) + el('ellipse', { cx: 232, cy: 294, rx: 10, ry: 5 });
    const arm = floor ? stroke('M150 112 Q140 170 118 214', 11) : stroke('M150 112 Q158 160 196 198', 11);
    return el('g', { fill: colour }, shin + lap + torso + arm + head + neck);
  }
  const head = el('ellipse', { cx: CX, cy: 62, rx: 17, ry: 21 }) + el('circle', { cx: CX + 3, cy: 36, r: 10 });
  const neck = el('rect', { x: CX - 7, y: 78, width: 14, height: 24 });
  const bodice: Pt[] = [
    [CX + 9, 99, 'corner'],
    [CX + 34, 108],
    [CX + 30, 132],
    [CX + 24, 178, 'corner'],
  ];
  const skirt: Pt[] = [
    [CX + 50, 296, 'corner'],
    [CX, 300],
  ];
  const stride = pose === 'walking';
  const arm = (side: 1 | -1) =>
    el('path', {
      d: `M${CX + side * 30} 112 Q${CX + side * 40} 170 ${CX + side * 48} 236`,
      fill: 'none',
      stroke: colour,
      'stroke-width': 11,
      'stroke-linecap': 'round',
      transform: stride ? `rotate(${side > 0 ? -9 : -5} ${CX + side * 30} 112)` : undefined,
    });
  const leg = (s: 1 | -1) => {
    const footX = stride ? (s > 0 ? CX + 22 : CX - 6) : CX + s * 11;
    const footY = stride && s < 0 ? 368 : 380;
    return stroke(`M${CX + s * 13} 290 L${footX} ${footY - 8}`, 13) + el('ellipse', { cx: footX, cy: footY, rx: 6, ry: 7 });
  };
  return el(
    'g',
    { fill: colour },
    leg(1) + leg(-1) + arm(1) + arm(-1) + head + neck + el('path', { d: smoothPath(symmetric(CX, [[CX, 98], ...bodice, ...skirt])) }),
  );
}

export function renderSceneArtwork(title: string, artwork: SceneArtwork): string {
  gradientCounter = 0;
  gradients.length = 0;
  const light = artwork.light ?? 'day';
  const sitting = artwork.pose === 'sitting' || artwork.pose === 'floor';
  const backdrop = SETTINGS[artwork.setting](light, sitting);
  const scale = backdrop.scale ?? 0.62;
  const x = backdrop.x ?? (sitting ? 120 : 150);
  // the pictogram's feet are at y 384 (standing) and its seat at y 222 (sitting)
  const anchorY = sitting ? 222 : 384;
  const ty = backdrop.ground - anchorY * scale;
  const tx = x - CX * scale;
  const shadow = sitting ? '' : el('ellipse', { cx: x, cy: backdrop.ground + 2, rx: 30, ry: 4, fill: '#2a1f1a', opacity: 0.18 });
  const figure = el(
    'g',
    { transform: `translate(${tx.toFixed(1)} ${ty.toFixed(1)}) scale(${scale})` },
    pictogram(artwork.pose, backdrop.figure),
  );
  const content = backdrop.back + shadow + figure + (backdrop.front ?? '');
  return svgDocument(title, sharedDefs() + gradients.join(''), content);
}
