import sharp from 'sharp';
import { jpegOutput } from '../../../common/images/jpeg-output';
import { releasePixels } from '../../../common/images/release-pixels';
import { AI_GENERATED_LABEL, generationIdentifier, originLabel, resultExif, resultXmp, type ResultOrigin } from './ai-metadata';
import { firstFrame, overlayVideo, tagVideo, videoSize } from './ffmpeg';
import { perceptualHash } from './perceptual-hash';
import { resultSignature } from './result-signature';
import { badgeOnlySvg, labelBox, overlaySvg } from './watermark';

/** What we keep of a provider's result: always JPEG for an image, MP4 for a video. */
export interface StoredResult {
  body: Buffer;
  contentType: 'image/jpeg' | 'video/mp4';
  extension: 'jpg' | 'mp4';
  /** perceptual hash of the picture (a video's first frame): finds re-shared copies of it */
  phash: bigint;
  /** the picture signature (a video's first frame) "Report an image" compares copies with (result-signature.ts) */
  signature: Buffer;
}

export interface ResultOptions {
  type: 'image' | 'video';
  /** the free tier's watermark grid */
  watermark: boolean;
  appName: string;
  /** who made it: an AI vendor (labelled "AI-generated", in pixels and metadata) or the preview renderer (labelled a preview) */
  origin?: ResultOrigin;
  /** written into the result's metadata */
  generationId?: string;
}

/** Results larger than this are refused (a vendor's image is a few MB, a short video tens of MB). */
export const MAX_RESULT_BYTES = { image: 50 * 1024 * 1024, video: 300 * 1024 * 1024 } as const;
const MAX_RESULT_PIXELS = 80_000_000;

export class ResultRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultRejectedError';
  }
}

/**
 * A rendered overlay kept as the list of its visible pixels: their index in the picture and their
 * colour and opacity. Most of an overlay is transparent (the badge is a corner; the free tier's
 * grid is lines of text), so blending only these pixels into the decoded picture costs a few
 * milliseconds, where libvips' composite of the whole RGBA canvas cost about 35 ms of a 1024x1400
 * result (the largest part of storing one).
 */
export interface OverlayPixels {
  /** pixel index (y * width + x) of each visible pixel */
  index: Uint32Array;
  /** r, g, b, alpha of each visible pixel, 4 bytes each */
  rgba: Uint8Array;
}

/**
 * Rendered overlays by size: vendors answer the same few sizes, and drawing the SVG costs about
 * 100 ms. A handful of sizes are kept.
 */
const overlays = new Map<string, Promise<OverlayPixels>>();
const OVERLAY_CACHE_SIZE = 8;

export function renderedOverlay(
  width: number,
  height: number,
  options: { grid: string | null; badge: string | null },
): Promise<OverlayPixels> {
  const key = `${width}x${height}:${options.grid ?? ''}:${options.badge ?? ''}`;
  let pixels = overlays.get(key);
  if (!pixels) {
    pixels = sharp(
      Buffer.from(overlaySvg(width, height, { grid: options.grid ? { appName: options.grid } : undefined, badge: options.badge })),
    )
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => visiblePixels(data, info.width * info.height, info.channels));
    pixels.catch(() => overlays.delete(key));
    overlays.set(key, pixels);
    if (overlays.size > OVERLAY_CACHE_SIZE) overlays.delete(overlays.keys().next().value!);
  }
  return pixels;
}

function visiblePixels(data: Buffer, count: number, channels: number): OverlayPixels {
  let visible = 0;
  for (let i = 0; i < count; i++) if (data[i * channels + 3] > 0) visible++;
  const index = new Uint32Array(visible);
  const rgba = new Uint8Array(visible * 4);
  for (let i = 0, n = 0; i < count; i++) {
    const o = i * channels;
    if (data[o + 3] === 0) continue;
    index[n] = i;
    rgba.set(data.subarray(o, o + 4), n * 4);
    n++;
  }
  return { index, rgba };
}

/** Blends the overlay's visible pixels into 3-channel sRGB pixels, in place ("over", rounded). */
export function blendOverlay(rgb: Buffer, overlay: OverlayPixels): void {
  const { index, rgba } = overlay;
  for (let n = 0; n < index.length; n++) {
    const o = index[n] * 3;
    const c = n * 4;
    const a = rgba[c + 3];
    const rest = 255 - a;
    rgb[o] = (rgba[c] * a + rgb[o] * rest + 127) / 255;
    rgb[o + 1] = (rgba[c + 1] * a + rgb[o + 1] * rest + 127) / 255;
    rgb[o + 2] = (rgba[c + 2] * a + rgb[o + 2] * rest + 127) / 255;
  }
}

function isMp4(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.toString('latin1', 4, 8) === 'ftyp';
}

/** The AI label alone as a PNG, by dot size (a video's label is drawn at its own size, see labelBox). */
const badges = new Map<number, Promise<Buffer>>();

function badgePng(cell: number): Promise<Buffer> {
  let png = badges.get(cell);
  if (!png) {
    png = sharp(Buffer.from(badgeOnlySvg(AI_GENERATED_LABEL, cell)))
      .png()
      .toBuffer();
    png.catch(() => badges.delete(cell));
    badges.set(cell, png);
    if (badges.size > OVERLAY_CACHE_SIZE) badges.delete(badges.keys().next().value!);
  }
  return png;
}

/**
 * Turns a provider's result into what we store: decoded and re-encoded (nothing of the vendor's
 * file survives but its pixels), marked, and tagged. Every AI result carries a small visible
 * "AI-generated" label on every tier (the free tier also the watermark grid), the words in its
 * metadata, and its generation id; a preview (no AI) already shows "Preview — not AI" in its
 * pixels and says so in its metadata. A video gets the label burnt into its frames (re-encoded)
 * and the tags in its container.
 */
export async function processResult(bytes: Buffer, options: ResultOptions): Promise<StoredResult> {
  const origin = options.origin ?? 'ai';
  if (bytes.length === 0) throw new ResultRejectedError('The AI provider returned an empty result');
  if (bytes.length > MAX_RESULT_BYTES[options.type]) throw new ResultRejectedError('The AI provider returned a result that is too large');
  if (options.type === 'video') {
    if (!isMp4(bytes)) throw new ResultRejectedError('The AI provider returned a video that is not an MP4');
    const label = originLabel(origin);
    const tags: Record<string, string> = { comment: label, description: label, encoder: options.appName };
    if (options.generationId) tags.title = generationIdentifier(options.generationId);
    let body: Buffer;
    if (origin === 'ai') {
      // the label as an image of the same size would carry it: sized from the video's own frames
      // (its shorter side), drawn at that size and overlaid unscaled, so it keeps its proportions
      const { width, height } = await videoSize(bytes);
      const box = labelBox(width, height, AI_GENERATED_LABEL);
      body = await overlayVideo(bytes, await badgePng(box.cell), { x: box.x, y: box.y, metadata: tags });
    } else {
      body = await tagVideo(bytes, tags);
    }
    const frame = await firstFrame(body);
    return {
      body,
      contentType: 'video/mp4',
      extension: 'mp4',
      phash: await perceptualHash(frame),
      signature: await resultSignature(frame),
    };
  }
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_RESULT_PIXELS }).metadata();
  } catch {
    throw new ResultRejectedError('The AI provider returned a result that is not an image');
  }
  if (!['jpeg', 'png', 'webp', 'avif', 'heif', 'tiff'].includes(meta.format ?? '')) {
    throw new ResultRejectedError('The AI provider returned a result that is not an image');
  }
  const grid = options.watermark ? options.appName : null;
  const badge = origin === 'ai' ? AI_GENERATED_LABEL : null;
  // upright, on white, sRGB; with marks: decoded to 8-bit pixels, the marks blended in, re-encoded
  const upright = sharp(bytes, { limitInputPixels: MAX_RESULT_PIXELS, failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb');
  const encode = (encoder: sharp.Sharp) =>
    encoder
      .jpeg(jpegOutput(90))
      .withExif(resultExif(options.appName, origin))
      .withXmp(resultXmp(options.appName, origin, options.generationId))
      .toBuffer();
  let body: Buffer;
  if (grid || badge) {
    const { data, info } = await upright.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    try {
      if (info.channels !== 3) throw new ResultRejectedError('The AI provider returned a result that is not an image');
      blendOverlay(data, await renderedOverlay(info.width, info.height, { grid, badge }));
      body = await encode(sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }));
    } finally {
      releasePixels(data); // encoded (or refused): nothing reads these pixels any more
    }
  } else {
    body = await encode(upright);
  }
  return { body, contentType: 'image/jpeg', extension: 'jpg', phash: await perceptualHash(body), signature: await resultSignature(body) };
}
