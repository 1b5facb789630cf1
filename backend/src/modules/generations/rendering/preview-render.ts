import sharp from 'sharp';
import { jpegOutput } from '../../../common/images/jpeg-output';
import { releasePixels } from '../../../common/images/release-pixels';
import { dotTextPath, measureDotText } from './dot-font';

/** The product's output size, "2953*4096" (docs/product.md). */
export const OUTPUT_SIZE = '2953*4096';
export const OUTPUT_WIDTH = 2953;
export const OUTPUT_HEIGHT = 4096;

export const PREVIEW_LABEL = 'Preview — not AI';

export interface PreviewInput {
  /** the user's first photo (any format sharp reads; ours are JPEG) */
  photo: Buffer;
  /** the outfit's catalogue artwork (SVG, 300x400) */
  outfitSvg: string;
  /** the scene's artwork (SVG, 300x400), or the custom pose's */
  sceneSvg: string;
  /** caption lines, e.g. ["Yellow Triangle Bikini", "Beach (standing)"] */
  caption: string[];
  width?: number;
  height?: number;
}

const rasterize = (svg: string, width: number, height: number) =>
  // the artwork is 300x400: render at the density that gives the target size, so edges stay sharp
  sharp(Buffer.from(svg), { density: Math.max(72, Math.ceil((72 * Math.max(width / 300, height / 400)) / 1)) })
    .resize(width, height, { fit: 'cover' })
    .png({ compressionLevel: 0 })
    .toBuffer();

function roundedMask(width: number, height: number, radius: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="${radius}" ry="${radius}" fill="#fff"/></svg>`,
  );
}

/** A white rounded card of the given size with `content` inset by `border`, corners rounded. */
async function framed(content: Buffer, width: number, height: number, border: number, radius: number): Promise<Buffer> {
  const inner = await sharp(content)
    .resize(width - border * 2, height - border * 2, { fit: 'cover', position: sharp.strategy.attention })
    .composite([{ input: roundedMask(width - border * 2, height - border * 2, Math.max(0, radius - border)), blend: 'dest-in' }])
    .png({ compressionLevel: 0 })
    .toBuffer();
  return sharp({ create: { width, height, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } } })
    .composite([
      { input: inner, top: border, left: border },
      { input: roundedMask(width, height, radius), blend: 'dest-in' },
    ])
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/**
 * A soft drop shadow for a card of the given size, `pad` pixels wider on each side. Drawn and
 * blurred at a quarter of the size, then scaled up: a large Gaussian blur at full size is slow.
 */
async function shadow(width: number, height: number, radius: number, pad: number): Promise<Buffer> {
  const q = 4;
  const w = Math.round((width + pad * 2) / q);
  const h = Math.round((height + pad * 2) / q);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<rect x="${pad / q}" y="${(pad + pad / 6) / q}" width="${width / q}" height="${height / q}" rx="${radius / q}" fill="#000" fill-opacity="0.4"/></svg>`;
  const small = await sharp(Buffer.from(svg))
    .blur(Math.max(0.3, pad / q / 3))
    .png({ compressionLevel: 0 })
    .toBuffer();
  return sharp(small)
    .resize(width + pad * 2, height + pad * 2)
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/**
 * The preview provider's picture: the scene as the background, the user's photo in a framed
 * panel, the outfit's artwork on a card beside it, and a clear "PREVIEW — NOT AI" label. No AI:
 * it shows what was asked for, at the real output size, so the rest of the pipeline (storage,
 * watermark, download) handles a real file.
 */
export async function renderPreviewImage(input: PreviewInput): Promise<Buffer> {
  const W = input.width ?? OUTPUT_WIDTH;
  const H = input.height ?? OUTPUT_HEIGHT;
  const u = W / 2953; // layout unit: everything scales with the width

  // the scene as a soft backdrop: rendered small with a shade, blurred, scaled up (cheap at 12 MP)
  const bw = Math.round(W / 4);
  const bh = Math.round(H / 4);
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${bw}" height="${bh}">` +
      `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">` +
      `<stop offset="0" stop-color="#101018" stop-opacity="0.55"/><stop offset="0.35" stop-color="#101018" stop-opacity="0.12"/>` +
      `<stop offset="0.7" stop-color="#101018" stop-opacity="0.12"/><stop offset="1" stop-color="#101018" stop-opacity="0.62"/>` +
      `</linearGradient></defs><rect width="${bw}" height="${bh}" fill="url(#g)"/></svg>`,
  );
  const backdrop = await sharp(await rasterize(input.sceneSvg, bw, bh))
    .composite([{ input: shade, top: 0, left: 0 }])
    .blur(2.5)
    .png({ compressionLevel: 0 })
    .toBuffer();
  const background = await sharp(backdrop).resize(W, H, { kernel: 'cubic' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });

  const photoW = Math.round(1700 * u);
  const photoH = Math.round(2267 * u);
  const photoX = Math.round(190 * u);
  const photoY = Math.round(640 * u);
  const photoPanel = await framed(input.photo, photoW, photoH, Math.round(34 * u), Math.round(56 * u));

  const cardW = Math.round(1020 * u);
  const cardH = Math.round(1360 * u);
  const cardX = W - cardW - Math.round(170 * u);
  const cardY = photoY + photoH - Math.round(900 * u);
  const outfit = await rasterize(input.outfitSvg, cardW, cardH);
  const outfitCard = await framed(outfit, cardW, cardH, Math.round(26 * u), Math.round(48 * u));

  const blur = Math.round(28 * u);
  const pad = blur * 3;

  // the label, top centre: a dark pill with the words in a dot-matrix face
  const labelCell = Math.round(22 * u);
  const labelSize = measureDotText(PREVIEW_LABEL, labelCell);
  const labelPadX = Math.round(70 * u);
  const labelPadY = Math.round(44 * u);
  const labelStroke = Math.round(6 * u);
  const pillW = labelSize.width + labelPadX * 2;
  const pillH = labelSize.height + labelPadY * 2;
  const pillX = Math.round((W - pillW) / 2);
  const pillY = Math.round(250 * u);

  // the caption, bottom centre: what was asked for, one line each
  const captionCell = Math.max(4, Math.round(14 * u));
  const captionMax = Math.floor((W - 300 * u) / (captionCell * 6));
  const captionLines = input.caption.slice(0, 2).map((line) => (line.length > captionMax ? `${line.slice(0, captionMax - 1)}.` : line));
  const captionTop = H - Math.round(640 * u);
  const captionSvg = captionLines
    .map((line, i) => {
      const size = measureDotText(line, captionCell);
      return dotTextPath(line, Math.round((W - size.width) / 2), i * Math.round(captionCell * 11), captionCell, {
        fill: '#ffffff',
        'fill-opacity': i === 0 ? 0.95 : 0.8,
      });
    })
    .join('');

  const label = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pillW}" height="${pillH}">` +
      `<rect x="${labelStroke}" y="${labelStroke}" width="${pillW - labelStroke * 2}" height="${pillH - labelStroke * 2}" rx="${(pillH - labelStroke * 2) / 2}" fill="#15151f" fill-opacity="0.82" stroke="#fff" stroke-opacity="0.85" stroke-width="${labelStroke}"/>` +
      dotTextPath(PREVIEW_LABEL, labelPadX, labelPadY, labelCell, { fill: '#ffffff' }) +
      `</svg>`,
  );
  const captionHeight = Math.round(captionCell * 11) * captionLines.length;
  const captionOverlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${captionHeight}">${captionSvg}</svg>`);

  const picture = await sharp(background.data, {
    raw: { width: background.info.width, height: background.info.height, channels: background.info.channels },
  })
    .composite([
      { input: await shadow(photoW, photoH, Math.round(56 * u), pad), top: photoY - pad, left: photoX - pad },
      { input: photoPanel, top: photoY, left: photoX },
      { input: await shadow(cardW, cardH, Math.round(48 * u), pad), top: cardY - pad, left: cardX - pad },
      { input: outfitCard, top: cardY, left: cardX },
      { input: label, top: pillY, left: pillX },
      { input: captionOverlay, top: captionTop, left: 0 },
    ])
    .flatten({ background: '#ffffff' })
    .jpeg(jpegOutput(88))
    .toBuffer()
    .finally(() => releasePixels(background.data)); // the 12 MP backdrop's pixels, read by now
  return picture;
}
