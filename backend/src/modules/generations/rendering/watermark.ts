import { dotTextPath, measureDotText } from './dot-font';

/** Where the marks go and how they look (the free tier's grid, every result's label). */
export interface OverlayOptions {
  /** the free tier's watermark: the product name on a faint diagonal grid over the whole picture */
  grid?: { appName: string };
  /** the small visible label in the lower right, e.g. "AI-generated"; null for none */
  badge?: string | null;
}

/** padding of the pill around the letters, in dots */
const PAD_DOTS = 3;

/** Where the AI label sits on a picture or a video frame, and how big it is (pixels). */
export interface LabelBox {
  /** side of one dot of the lettering; the pill's padding is 3 dots */
  cell: number;
  /** top-left corner of the pill */
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The size rule of the "AI-generated" label, the same for images and videos: the lettering's dot is
 * 1/180 of the picture's SHORTER side, rounded, and at least 2 pixels, so the pill is 13 dots tall
 * (7 for the letters, 3 of padding above and below): about 7% of the shorter side, never under 26
 * pixels (letters 14 pixels tall, the least that reads). Its width follows from the text alone, so
 * the label keeps its own proportions whatever the picture's shape: 1080x1920 and 1920x1080 get the
 * same 462x78 label, 720x720 a 308x52 one. It sits in the lower-right corner, 3% of the shorter side
 * from both edges. A picture too narrow for it gets smaller dots (1 pixel at the least).
 */
export function labelBox(width: number, height: number, text: string): LabelBox {
  const short = Math.min(width, height);
  const margin = Math.round(short * 0.03);
  const dotsWide = measureDotText(text, 1).width + PAD_DOTS * 2;
  let cell = Math.max(2, Math.round(short / 180));
  while (cell > 1 && dotsWide * cell + margin * 2 > width) cell--;
  const size = measureDotText(text, cell);
  const w = size.width + cell * PAD_DOTS * 2;
  const h = size.height + cell * PAD_DOTS * 2;
  return { cell, x: width - w - margin, y: height - h - margin, width: w, height: h };
}

/** The pill and its letters, drawn with their top-left corner at (x, y). */
function labelShapes(text: string, x: number, y: number, cell: number): string {
  const size = measureDotText(text, cell);
  const pad = cell * PAD_DOTS;
  return (
    `<rect x="${x}" y="${y}" width="${size.width + pad * 2}" height="${size.height + pad * 2}" rx="${pad}" fill="#000" fill-opacity="0.45"/>` +
    dotTextPath(text, x + pad, y + pad, cell, { fill: '#fff', 'fill-opacity': 0.92 })
  );
}

/** The lower-right label on a picture of `width` x `height` (labelBox's rule). */
function badgeSvg(width: number, height: number, text: string): string {
  const box = labelBox(width, height, text);
  return labelShapes(text, box.x, box.y, box.cell);
}

/**
 * The label alone, cropped to its pill, with dots of `cell` pixels: what is overlaid, unscaled, on a
 * video whose labelBox gave that cell. The same pixels as the label of a picture of that size.
 */
export function badgeOnlySvg(text: string, cell: number): string {
  const size = measureDotText(text, cell);
  const w = size.width + cell * PAD_DOTS * 2;
  const h = size.height + cell * PAD_DOTS * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${labelShapes(text, 0, 0, cell)}</svg>`;
}

/**
 * The marks a stored result carries, as an SVG of exactly `width` x `height` to composite over it:
 * every result a small visible label ("AI-generated"), the free tier also the watermark grid. White
 * with a dark outline or pill, so they read on light and dark pictures alike.
 */
export function overlaySvg(width: number, height: number, options: OverlayOptions): string {
  const parts: string[] = [];
  if (options.grid) {
    const short = Math.min(width, height);
    const cell = Math.max(2, Math.round(short / 260));
    const size = measureDotText(options.grid.appName, cell);
    const stepX = size.width + cell * 24;
    const stepY = size.height + cell * 22;
    const diagonal = Math.ceil(Math.hypot(width, height));
    const tile = dotTextPath(options.grid.appName, 0, 0, cell);
    const uses: string[] = [];
    let row = 0;
    for (let y = -diagonal / 2; y < diagonal / 2; y += stepY, row++) {
      const offset = row % 2 === 0 ? 0 : stepX / 2;
      for (let x = -diagonal / 2 - offset; x < diagonal / 2; x += stepX)
        uses.push(`<use href="#wm" x="${Math.round(x)}" y="${Math.round(y)}"/>`);
    }
    parts.push(
      `<defs><g id="wm">${tile.replace('<path ', `<path stroke="#000" stroke-opacity="0.35" stroke-width="${Math.max(1, cell / 4)}" fill="#fff" `)}</g></defs>`,
      `<g opacity="0.16" transform="translate(${width / 2} ${height / 2}) rotate(-30)">${uses.join('')}</g>`,
    );
  }
  if (options.badge) parts.push(badgeSvg(width, height, options.badge));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

/** The free tier's watermark with the AI label (kept for callers of the former API). */
export function watermarkSvg(width: number, height: number, appName: string): string {
  return overlaySvg(width, height, { grid: { appName }, badge: 'AI-generated' });
}
