import type { JpegOptions } from 'sharp';

/**
 * How the platform writes a JPEG (results, uploads' clean copies, vendor inputs, previews): 4:2:0
 * chroma and standard Huffman tables. Optimised tables (sharp's default) cost two passes: on a
 * 1024x1400 photo 22-30 ms of CPU instead of 11-12 ms for files 2-3% smaller, and a generation's
 * result is encoded on the worker's critical path (`npm run bench:generations`, docs/performance.md).
 */
export function jpegOutput(quality: number): JpegOptions {
  return { quality, chromaSubsampling: '4:2:0', optimiseCoding: false };
}
