import sharp from 'sharp';
import { aiExif, aiXmp, AI_GENERATED_LABEL } from './ai-metadata';
import { tagVideo } from './ffmpeg';
import { watermarkSvg } from './watermark';

/** What we keep of a provider's result: always JPEG for an image, MP4 for a video. */
export interface StoredResult {
  body: Buffer;
  contentType: 'image/jpeg' | 'video/mp4';
  extension: 'jpg' | 'mp4';
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

export function renderedWatermark(width: number, height: number, appName: string): Promise<Buffer> {
  const key = `${width}x${height}:${appName}`;
  let png = watermarks.get(key);
  if (!png) {
    png = sharp(Buffer.from(watermarkSvg(width, height, appName))).png({ compressionLevel: 1 }).toBuffer();
    png.catch(() => watermarks.delete(key));
    watermarks.set(key, png);
    if (watermarks.size > WATERMARK_CACHE_SIZE) watermarks.delete(watermarks.keys().next().value!);
  }
  return png;
}

function isMp4(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.toString('latin1', 4, 8) === 'ftyp';
}

/**
 * Turns a provider's result into what we store: decoded and re-encoded (nothing of the vendor's
 * file survives but its pixels), watermarked for the free tier, and tagged as AI-generated in its
 * metadata. A video is kept as is (stream copy) with the tag in its container.
 */
export async function processResult(
  bytes: Buffer,
  options: { type: 'image' | 'video'; watermark: boolean; appName: string },
): Promise<StoredResult> {
  if (bytes.length === 0) throw new ResultRejectedError('The AI provider returned an empty result');
  if (bytes.length > MAX_RESULT_BYTES[options.type]) throw new ResultRejectedError('The AI provider returned a result that is too large');
  if (options.type === 'video') {
    if (!isMp4(bytes)) throw new ResultRejectedError('The AI provider returned a video that is not an MP4');
    const body = await tagVideo(bytes, { comment: AI_GENERATED_LABEL, description: AI_GENERATED_LABEL, encoder: options.appName });
    return { body, contentType: 'video/mp4', extension: 'mp4' };
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
  if (options.watermark) {
    // composite runs after rotate(): the overlay has the upright size (autoOrient swaps width and height for orientations 5-8)
    const width = meta.autoOrient?.width ?? meta.width!;
    const height = meta.autoOrient?.height ?? meta.height!;
    image = image.composite([{ input: await renderedWatermark(width, height, options.appName), top: 0, left: 0 }]);
  }
  const body = await image
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .jpeg({ quality: 90, chromaSubsampling: '4:2:0' })
    .withExif(aiExif(options.appName))
    .withXmp(aiXmp(options.appName))
    .toBuffer();
  return { body, contentType: 'image/jpeg', extension: 'jpg' };
}
