import { PHOTO_MIN_SIDE, photoTooSmallMessage } from '@fitting-room/shared/photo-rules';
import sharp from 'sharp';
import { AppError, ErrorCode, ErrorMessages, ValidationError } from '../../common/errors';
import { jpegOutput } from '../../common/images/jpeg-output';

/**
 * What an uploaded photo must be, and what we keep of it. Pure functions over bytes: the file's
 * name and its declared Content-Type are never trusted.
 */
export const UPLOAD_LIMITS = {
  /** docs/product.md: photos under 10MB */
  maxBytes: 10 * 1024 * 1024,
  /** docs/product.md: at most 5 photos */
  maxFiles: 5,
  /** decompression bombs: a small file may declare a huge canvas */
  maxPixels: 40_000_000,
  /**
   * Above this many pixels a file must carry at least 1 byte per `maxPixelsPerByte` pixels: a real
   * photo of 12 MP weighs 1 to 6 MB (2 to 12 pixels a byte; a heavily compressed one about 50),
   * while a crafted 40 MP PNG of flat colour weighs 130 kB (300 pixels a byte, a flat JPEG at
   * quality 10 170). Checked on the header alone.
   */
  plainPixels: 4_000_000,
  maxPixelsPerByte: 100,
  /**
   * The shorter side of a photo must have at least this many pixels (the shared package's rule,
   * which the user app checks too before uploading): below it no vendor takes it and no try-on
   * keeps a face. The configured vendor may ask for more (UploadsService takes the larger).
   */
  minSide: PHOTO_MIN_SIDE,
  /** long side of the stored copy */
  maxLongSide: 2048,
  jpegQuality: 88,
} as const;

export const UPLOAD_MESSAGES = {
  notAnImage: 'Please upload image files only',
  tooLarge: ErrorMessages.payloadTooLarge,
  tooMany: `You can upload at most ${UPLOAD_LIMITS.maxFiles} photos`,
  none: 'Please choose at least one photo to upload',
  wrongField: 'Send the photos in the form field "files"',
  tooManyPixels: `This photo is too large: at most ${UPLOAD_LIMITS.maxPixels / 1_000_000} megapixels`,
  implausible: 'This file declares far more pixels than a photo of its size holds. Please upload an ordinary photo.',
  confirm: 'Please confirm that the photos show you and that you are 18 or older',
  malformed: 'The upload is not a valid multipart form',
  notFound: 'Photo not found.',
  /** under the product's minimum or the configured AI vendor's (its input spec): the photo's size, the minimum, what to send */
  tooSmall: photoTooSmallMessage,
} as const;

export type SniffedFormat = 'jpeg' | 'png' | 'webp';

/** The format the leading bytes announce (JPEG, PNG or WebP), or null for anything else. */
export function sniffImageFormat(bytes: Buffer): SniffedFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (
    bytes.length >= 16 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP' &&
    /^VP8[ LX]$/.test(bytes.toString('latin1', 12, 16))
  ) {
    return 'webp';
  }
  return null;
}

/** Why a photo was refused; `tooLarge` maps to 413, the others to a VALIDATION_ERROR. */
export class PhotoRejectedError extends Error {
  constructor(
    readonly reason: 'notAnImage' | 'tooLarge' | 'tooManyPixels' | 'implausible' | 'tooSmall',
    message = reason === 'tooSmall' ? UPLOAD_MESSAGES.tooSmall(0, 0) : UPLOAD_MESSAGES[reason],
  ) {
    super(message);
    this.name = 'PhotoRejectedError';
  }
}

export interface AcceptedPhoto {
  /** the re-encoded JPEG: orientation applied, no metadata at all (EXIF, GPS, XMP, ICC, comments) */
  jpeg: Buffer;
  width: number;
  height: number;
  sourceFormat: SniffedFormat;
}

/** What the header of an acceptable file says, read without decoding a pixel. */
export interface InspectedPhoto {
  format: SniffedFormat;
  width: number;
  height: number;
}

/**
 * The cheap checks, on the bytes and the header only (no pixel is decoded): size, format by its
 * magic bytes, dimensions, and bytes per pixel. A "pixel bomb" (a small file declaring a huge
 * canvas) is refused here, before it waits for or takes any decoding capacity. `minSide`: the shorter
 * side (as the picture is shown, its EXIF orientation applied) must have at least this many pixels:
 * a person's photo (UploadsService) the larger of UPLOAD_LIMITS.minSide and the configured AI
 * vendor's minimum; none for the catalogue's own pictures and a reported copy.
 */
export async function inspectPhoto(bytes: Buffer, options: { minSide?: number } = {}): Promise<InspectedPhoto> {
  if (bytes.length === 0) throw new PhotoRejectedError('notAnImage');
  if (bytes.length >= UPLOAD_LIMITS.maxBytes) throw new PhotoRejectedError('tooLarge');
  const format = sniffImageFormat(bytes);
  if (!format) throw new PhotoRejectedError('notAnImage');

  let header: sharp.Metadata;
  try {
    header = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch {
    throw new PhotoRejectedError('notAnImage');
  }
  if (header.format !== format || !header.width || !header.height) throw new PhotoRejectedError('notAnImage');
  const pixels = header.width * header.height;
  if (pixels > UPLOAD_LIMITS.maxPixels) throw new PhotoRejectedError('tooManyPixels');
  if (pixels > UPLOAD_LIMITS.plainPixels && bytes.length * UPLOAD_LIMITS.maxPixelsPerByte < pixels)
    throw new PhotoRejectedError('implausible');
  const minSide = options.minSide ?? 0;
  // the size a person sees: EXIF orientations 5-8 turn the picture a quarter
  const [width, height] = (header.orientation ?? 1) >= 5 ? [header.height, header.width] : [header.width, header.height];
  if (Math.min(width, height) < minSide) throw new PhotoRejectedError('tooSmall', UPLOAD_MESSAGES.tooSmall(width, height, minSide));
  return { format, width: header.width, height: header.height };
}

/**
 * The clean copy of an inspected photo: decoded and encoded again, so nothing but pixels survives
 * (a script appended to a JPEG is dropped, and all metadata with it). A truncated or corrupt file
 * fails the decode; sharp's own pixel limit guards the decode as well. This is the heavy part: run
 * it through the image work gate.
 */
export async function cleanCopy(bytes: Buffer, inspected: InspectedPhoto): Promise<AcceptedPhoto> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: UPLOAD_LIMITS.maxPixels, failOn: 'error', animated: false })
      .rotate() // applies the EXIF orientation, which is then dropped with the rest of the metadata
      .resize({ width: UPLOAD_LIMITS.maxLongSide, height: UPLOAD_LIMITS.maxLongSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg(jpegOutput(UPLOAD_LIMITS.jpegQuality))
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height, sourceFormat: inspected.format };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new PhotoRejectedError('tooManyPixels');
    throw new PhotoRejectedError('notAnImage');
  }
}

/** Accepts a JPEG, PNG or WebP judged by its bytes and answers a clean copy, or throws PhotoRejectedError. */
export async function acceptPhoto(bytes: Buffer): Promise<AcceptedPhoto> {
  return cleanCopy(bytes, await inspectPhoto(bytes));
}

/** A refused upload: 413 PAYLOAD_TOO_LARGE with the product's "File size must be less than 10MB". */
export class PhotoTooLargeError extends AppError {
  constructor() {
    super(ErrorCode.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.tooLarge, 413);
  }
}

/** A refused photo in the catalogue's words: 413 for a file too large, VALIDATION_ERROR otherwise. */
export async function asCatalogueError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PhotoRejectedError)
      throw error.reason === 'tooLarge' ? new PhotoTooLargeError() : new ValidationError(error.message);
    throw error;
  }
}
