import { PHOTO_MIN_SIDE, photoTooSmallMessage } from '@fitting-room/shared';

/**
 * The client-side checks on photos (docs/product.md). The server checks the bytes
 * again: these only spare a pointless upload. Messages are the product's (and the server's) wording.
 */
export const PHOTO_RULES = {
  /** the shorter side, in pixels: the shared rule the API applies at upload */
  minSide: PHOTO_MIN_SIDE,
  maxPhotos: 5,
  /** "under 10MB": a file of exactly 10 MiB is refused too. */
  maxBytes: 10 * 1024 * 1024,
  /** The formats the server accepts. */
  types: ['image/jpeg', 'image/png', 'image/webp'],
} as const;

export const PHOTO_MESSAGES = {
  notAnImage: 'Please upload image files only',
  tooLarge: 'File size must be less than 10MB',
  /** The server's wording (UPLOAD_MESSAGES.tooMany) for photos beyond the fifth. */
  tooMany: `You can upload at most ${PHOTO_RULES.maxPhotos} photos`,
  /** The server's wording (UPLOAD_MESSAGES.confirm) when the batch is not confirmed. */
  confirm: 'Please confirm that the photos show you and that you are 18 or older',
  /** The server's wording (UPLOAD_MESSAGES.tooSmall): the photo's size, the minimum, what to send. */
  tooSmall: (width: number, height: number) => photoTooSmallMessage(width, height, PHOTO_RULES.minSide),
} as const;

export const CONFIRM_PHOTOS_LABEL = 'These photos are of me and I am 18 or older';

export interface ScreenedPhotos {
  accepted: File[];
  /** The first problem found, to show once. */
  error: string | null;
}

/** The first bytes of the formats of PHOTO_RULES.types: JPEG, PNG, and WebP (RIFF....WEBP). */
function looksLikeImage(head: Uint8Array): boolean {
  const starts = (bytes: readonly number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
  return (
    starts([0xff, 0xd8, 0xff]) ||
    starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8))
  );
}

/**
 * Whether a file really is a photo of an accepted format: its type (from the name) and its first
 * bytes. A text file named .jpg has the type but not the bytes; it would be a broken tile.
 */
export async function isImageFile(file: File): Promise<boolean> {
  if (!(PHOTO_RULES.types as readonly string[]).includes(file.type)) return false;
  try {
    return looksLikeImage(new Uint8Array(await file.slice(0, 12).arrayBuffer()));
  } catch {
    return false;
  }
}

/** A photo's size as it is shown (its EXIF orientation applied), or null when the browser cannot tell. */
export type MeasurePhoto = (file: File) => Promise<{ width: number; height: number } | null>;

/**
 * The browser's own reading of the picture: `createImageBitmap` applies the EXIF orientation, as the
 * server does. Where it is missing (or fails), nothing is refused here: the server checks again.
 */
export const measurePhoto: MeasurePhoto = async (file) => {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
};

/**
 * Keeps the image files (checked by their bytes) under the size limit and at least the smallest
 * size a try-on takes, up to the free places (photos beyond 5 are dropped), and names the first
 * problem.
 */
export async function screenPhotos(
  files: readonly File[],
  alreadySelected: number,
  measure: MeasurePhoto = measurePhoto,
): Promise<ScreenedPhotos> {
  const accepted: File[] = [];
  let error: string | null = null;
  const free = Math.max(0, PHOTO_RULES.maxPhotos - alreadySelected);
  for (const file of files) {
    if (!(await isImageFile(file))) {
      error ??= PHOTO_MESSAGES.notAnImage;
    } else if (file.size >= PHOTO_RULES.maxBytes) {
      error ??= PHOTO_MESSAGES.tooLarge;
    } else if (accepted.length >= free) {
      error ??= PHOTO_MESSAGES.tooMany;
    } else {
      const size = await measure(file);
      if (size && Math.min(size.width, size.height) < PHOTO_RULES.minSide) error ??= PHOTO_MESSAGES.tooSmall(size.width, size.height);
      else accepted.push(file);
    }
  }
  return { accepted, error };
}
