import { dotTextPath, measureDotText } from './dot-font';

/** Where the marks go and how they look (the free tier's grid, every result's label). */
export interface OverlayOptions {
  /** the free tier's watermark: the product name on a faint diagonal grid over the whole picture */
  grid?: { appName: string };
  /** the small visible label in the lower right, e.g. "AI-generated"; null for none */
  badge?: string | null;
}

/** The lower-right label alone: a dark pill with white dot-matrix letters, sized to the picture. */
function badgeSvg(width: number, height: number, text: string): string {
  const short = Math.min(width, height);
  const cell = Math.max(2, Math.round(short / 180));
  const size = measureDotText(text, cell);
  const pad = cell * 3;
  const x = width - size.width - pad * 2 - Math.round(short * 0.03);
  const y = height - size.height - pad * 2 - Math.round(short * 0.03);
  return (
    `<rect x="${x}" y="${y}" width="${size.width + pad * 2}" height="${size.height + pad * 2}" rx="${pad}" fill="#000" fill-opacity="0.45"/>` +
    dotTextPath(text, x + pad, y + pad, cell, { fill: '#fff', 'fill-opacity': 0.92 })
  );
}

/** The label alone, cropped to its pill (to overlay on a video of any size). */
export function badgeOnlySvg(text: string): string {
  const cell = 6;
  const size = measureDotText(text, cell);
  const pad = cell * 3;
  const w = size.width + pad * 2;
  const h = size.height + pad * 2;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<rect width="${w}" height="${h}" rx="${pad}" fill="#000" fill-opacity="0.45"/>` +
    dotTextPath(text, pad, pad, cell, { fill: '#fff', 'fill-opacity': 0.92 }) +
    `</svg>`
  );
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
