import sharp from 'sharp';
import type { FaceBox } from './engine/face-engine';

/**
 * The face checks' figures. Each is measured on the fixtures by `npm run bench:faces`, which prints
 * the distances and error rates behind them (docs/safety.md "Only you").
 */
export const FACE_RULES = {
  /**
   * Two photos show the same person when their descriptors are at most this far apart. On the
   * fixtures: one face's crops, flips, scalings and recompressions are 0.02-0.26 apart, different
   * people 0.47-0.89 (the closest: two women side by side in one group photo).
   */
  samePerson: 0.45,
  /**
   * A result looks like the person when its face is at most this far from the nearest of their
   * photos: looser than `samePerson`, because a try-on changes the light, the make-up and the
   * pose. The preview renderer (it frames the person's own photo) measures 0.00-0.10.
   */
  likeness: 0.5,
  /** a face narrower than this, in the stored photo's pixels, is too small for a try-on */
  minFaceWidth: 64,
  /** below this sharpness (the spread of the face's Laplacian at 96 x 96) a face is too blurry */
  minSharpness: 6,
  /** the detector's score from which a face counts */
  minConfidence: 0.5,
} as const;

/**
 * How sharp a face is: the standard deviation of its Laplacian (edges), on the face's box in grey
 * at 96 x 96 pixels, so that it does not depend on the photo's size. A sharp face measures 15-40,
 * the same face blurred by a 3-pixel Gaussian about 3 (`npm run bench:faces` prints both).
 */
export async function faceSharpness(image: Buffer, box: FaceBox, size: { width: number; height: number }): Promise<number> {
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const width = Math.max(1, Math.min(size.width - left, Math.ceil(box.width)));
  const height = Math.max(1, Math.min(size.height - top, Math.ceil(box.height)));
  const grey = await sharp(image, { failOn: 'error', limitInputPixels: 40_000_000 })
    .rotate()
    .extract({ left, top, width, height })
    .greyscale()
    .resize(96, 96, { fit: 'fill' })
    .raw()
    .toBuffer();
  // the Laplacian (4-neighbour) of every inner pixel, and its spread
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let y = 1; y < 95; y++)
    for (let x = 1; x < 95; x++) {
      const i = y * 96 + x;
      const l = grey[i - 1] + grey[i + 1] + grey[i - 96] + grey[i + 96] - 4 * grey[i];
      sum += l;
      squares += l * l;
      n++;
    }
  return Math.sqrt(Math.max(0, squares / n - (sum / n) ** 2));
}
