import sharp from 'sharp';

/**
 * A 64-bit difference hash (dHash) of a picture: shrunk to 9x8 grey pixels, one bit per pair of
 * neighbours (is the left one brighter?). Copies that were re-encoded, resized or lightly
 * recompressed (a picture shared on a social network) keep nearly the same bits, so a reported
 * copy is found by Hamming distance. Answered as a signed 64-bit integer (PostgreSQL bigint).
 */
export async function perceptualHash(image: Buffer): Promise<bigint> {
  const pixels = await sharp(image, { limitInputPixels: 80_000_000 })
    .rotate()
    .greyscale()
    .resize(9, 8, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      hash = (hash << 1n) | (pixels[y * 9 + x] > pixels[y * 9 + x + 1] ? 1n : 0n);
    }
  }
  return BigInt.asIntN(64, hash);
}

/** How many of the 64 bits differ. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** Two pictures whose hashes differ in at most this many bits are taken for copies of each other. */
export const SAME_PICTURE_MAX_DISTANCE = 10;
