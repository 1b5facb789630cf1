import { dotTextPath, measureDotText } from './dot-font';

/**
 * The free tier's watermark (catalog isWatermarked): the product name, repeated on a diagonal
 * grid over the whole picture at low opacity, plus a small badge "<APP_NAME> • PREVIEW" in the
 * lower right. White with a dark outline, so it reads on light and dark pictures alike. Answers
 * an SVG of exactly `width` x `height`, to composite over the result.
 */
export function watermarkSvg(width: number, height: number, appName: string): string {
  const short = Math.min(width, height);
  const cell = Math.max(2, Math.round(short / 260));
  const text = appName;
  const size = measureDotText(text, cell);
  const stepX = size.width + cell * 24;
  const stepY = size.height + cell * 22;
  const diagonal = Math.ceil(Math.hypot(width, height));
  const tile = dotTextPath(text, 0, 0, cell);
  const uses: string[] = [];
  let row = 0;
  for (let y = -diagonal / 2; y < diagonal / 2; y += stepY, row++) {
    const offset = row % 2 === 0 ? 0 : stepX / 2;
    for (let x = -diagonal / 2 - offset; x < diagonal / 2; x += stepX) uses.push(`<use href="#wm" x="${Math.round(x)}" y="${Math.round(y)}"/>`);
  }
  const badgeText = `${appName} • Preview`;
  const badgeCell = Math.max(2, Math.round(short / 180));
  const badge = measureDotText(badgeText, badgeCell);
  const pad = badgeCell * 3;
  const bx = width - badge.width - pad * 2 - Math.round(short * 0.03);
  const by = height - badge.height - pad * 2 - Math.round(short * 0.03);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><g id="wm">${tile.replace('<path ', `<path stroke="#000" stroke-opacity="0.35" stroke-width="${Math.max(1, cell / 4)}" fill="#fff" `)}</g></defs>` +
    `<g opacity="0.16" transform="translate(${width / 2} ${height / 2}) rotate(-30)">${uses.join('')}</g>` +
    `<rect x="${bx}" y="${by}" width="${badge.width + pad * 2}" height="${badge.height + pad * 2}" rx="${pad}" fill="#000" fill-opacity="0.45"/>` +
    dotTextPath(badgeText, bx + pad, by + pad, badgeCell, { fill: '#fff', 'fill-opacity': 0.9 }) +
    `</svg>`
  );
}
