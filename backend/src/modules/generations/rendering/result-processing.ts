import sharp from 'sharp';
import { AI_GENERATED_LABEL, generationIdentifier, originLabel, resultExif, resultXmp, type ResultOrigin } from './ai-metadata';
import { firstFrame, overlayVideo, tagVideo } from './ffmpeg';
import { perceptualHash } from './perceptual-hash';
import { badgeOnlySvg, overlaySvg } from './watermark';

/** What we keep of a provider's result: always JPEG for an image, MP4 for a video. */
export interface StoredResult {
  body: Buffer;
  contentType: 'image/jpeg' | 'video/mp4';
  extension: 'jpg' | 'mp4';
  /** perceptual hash of the picture (a video's first frame): finds re-shared copies of it */
  phash: bigint;
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
 * Rendered watermarks by size: vendors answer the same few sizes, and drawing the SVG costs about
 * 100 ms where compositing a ready PNG costs a few. A handful of sizes are kept.
 */
const watermarks = new Map<string, Promise<Buffer>>();
const WATERMARK_CACHE_SIZE = 8;

export function renderedOverlay(width: number, height: number, options: { grid: string | null; badge: string | null }): Promise<Buffer> {
  const key = `${width}x${height}:${options.grid ?? ''}:${options.badge ?? ''}`;
  let png = watermarks.get(key);
  if (!png) {
    png = sharp(
      Buffer.from(overlaySvg(width, height, { grid: options.grid ? { appName: options.grid } : undefined, badge: options.badge })),
    )
      .png({ compressionLevel: 1 })
      .toBuffer();
    png.catch(() => watermarks.delete(key));
    watermarks.set(key, png);
    if (watermarks.size > WATERMARK_CACHE_SIZE) watermarks.delete(watermarks.keys().next().value!);
  }
  return png;
}

function isMp4(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.toString('latin1', 4, 8) === 'ftyp';
}

let badgePng: Promise<Buffer> | undefined;

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
      badgePng ??= sharp(Buffer.from(badgeOnlySvg(AI_GENERATED_LABEL)))
        .png()
        .toBuffer();
      body = await overlayVideo(bytes, await badgePng, { widthShare: 0.3, metadata: tags });
    } else {
      body = await tagVideo(bytes, tags);
    }
    return { body, contentType: 'video/mp4', extension: 'mp4', phash: await perceptualHash(await firstFrame(body)) };
  }
  let image = sharp(bytes, { limitInputPixels: MAX_RESULT_PIXELS, failOn: 'error' }).rotate();
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
  if (grid || badge) {
    // composite runs after rotate(): the overlay has the upright size (autoOrient swaps width and height for orientations 5-8)
    const width = meta.autoOrient?.width ?? meta.width!;
    const height = meta.autoOrient?.height ?? meta.height!;
    image = image.composite([{ input: await renderedOverlay(width, height, { grid, badge }), top: 0, left: 0 }]);
  }
  const body = await image
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .jpeg({ quality: 90, chromaSubsampling: '4:2:0' })
    .withExif(resultExif(options.appName, origin))
    .withXmp(resultXmp(options.appName, origin, options.generationId))
    .toBuffer();
  return { body, contentType: 'image/jpeg', extension: 'jpg', phash: await perceptualHash(body) };
}
