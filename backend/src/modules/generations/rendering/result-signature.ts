import sharp from 'sharp';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

/**
 * The picture signature of a stored result, and the probe of a reported copy that is compared with
 * it: what "Report an image" uses to find a result from a copy that was cropped, rotated, framed by
 * borders or a screenshot's interface, rescaled and recompressed.
 *
 * A signature (about 2.3 kB, `SIGNATURE_BYTES`) holds, for the result shrunk to `CANON` pixels on
 * its long side:
 * - up to `KEYPOINTS` corners (Shi-Tomasi), spread over a grid so every part of the picture has its
 *   share, each with its position and a 256-bit BRIEF descriptor (the order of 256 pairs of 5x5
 *   box means around it): they survive crops, borders and rescaling, and tolerate the small
 *   rotations (up to about 10 degrees) a re-shared picture gets;
 * - a 32x32 grid of the picture's mean grey levels (`GRID`), to compare the whole picture once the
 *   copy is aligned.
 *
 * Matching a copy with one signature: each stored corner takes its nearest corner of the copy (the
 * copy's corners are found at six scales); a similarity transform (scale, rotation, shift) is fitted
 * to those pairs by RANSAC; `inliers` counts the corners it explains. Then every cell of the grid
 * that falls inside the copy is compared with the copy's mean grey level there (after a fitted
 * brightness and contrast): `agreement` is the share of cells that agree. Two results of one
 * template and scene share most corners (the scene, the outfit card, the labels), but where they
 * differ (the person) their cells disagree: the decision is made in reported-image.matcher.ts.
 *
 * The descriptor's pattern and every size here are part of the stored format (`SIGNATURE_VERSION`):
 * changing one means a new version, and the signatures of older results are computed again.
 */
export const SIGNATURE_VERSION = 1;
/** long side of the picture the signature is taken from, in pixels */
export const CANON = 320;
/** stored corners at most */
export const KEYPOINTS = 64;
/** the grid of mean grey levels: GRID x GRID cells over the whole picture */
export const GRID = 32;
/** the grid of mean colour (two chroma channels): CHROMA_GRID x CHROMA_GRID cells, each over 2 x 2 grey cells */
export const CHROMA_GRID = GRID / 2;
const DESCRIPTOR_WORDS = 8; // 256 bits
const HEADER_BYTES = 6; // version, width (2), height (2), corner count
const GRIDS_BYTES = GRID * GRID + 2 * CHROMA_GRID * CHROMA_GRID;
const KEYPOINT_BYTES = 4 + DESCRIPTOR_WORDS * 4;
/** the largest signature: header, grids, corners */
export const SIGNATURE_BYTES = HEADER_BYTES + GRIDS_BYTES + KEYPOINTS * KEYPOINT_BYTES;

/** BRIEF: pairs within this radius, each point a box of BOX x BOX pixels; corners closer to an edge than MARGIN are skipped. */
const PATCH_RADIUS = 13;
const BOX = 5;
const MARGIN = PATCH_RADIUS + (BOX >> 1) + 2;

/** The copy's scales: its long side resized to each, so that one of them shows the picture near CANON pixels whatever the crop or the frame around it. */
const PROBE_SIDES = [256, 320, 400, 500, 625, 780] as const;
/** corners kept per scale of the copy */
const PROBE_KEYPOINTS_PER_SIDE = 220;

/** A corner and its descriptor. */
interface Keypoint {
  x: number;
  y: number;
  score: number;
}

/** A grey picture, one byte a pixel, row by row. */
interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A picture as its grey levels (luma) and its two chroma channels (Cb, Cr: 128 is no colour), of the same size. */
interface Picture {
  grey: Grey;
  cb: Uint8Array;
  cr: Uint8Array;
}

/** A stored signature, decoded. */
export interface ResultSignature {
  width: number;
  height: number;
  /** GRID x GRID mean grey levels, row by row */
  grid: Uint8Array;
  /** CHROMA_GRID x CHROMA_GRID mean Cb, then as many mean Cr, row by row */
  chroma: Uint8Array;
  /** x, y of each corner, in the CANON picture */
  xs: Float32Array;
  ys: Float32Array;
  /** DESCRIPTOR_WORDS words per corner */
  descriptors: Uint32Array;
}

/** A reported copy, ready to be compared with signatures. */
export interface ReportProbe {
  /** the copy in grey at PROBE_BASE pixels on its long side, and its summed-area table (box means) */
  width: number;
  height: number;
  integral: Float64Array;
  /** summed-area tables of its chroma channels */
  integralCb: Float64Array;
  integralCr: Float64Array;
  /** the copy's corners at every scale, in the coordinates of the base picture */
  xs: Float32Array;
  ys: Float32Array;
  descriptors: Uint32Array;
  count: number;
  /**
   * The descriptors by each of their first INDEX_TABLES bytes (a table per byte, a bucket per
   * value): a stored corner is compared only with the copy's corners that share one of those bytes
   * exactly, about 1 in 30, instead of all of them. A true pair (about 30 of 256 bits apart) shares
   * at least one of 8 bytes 97 times in 100.
   */
  bucketStart: Uint32Array;
  bucketItems: Uint32Array;
}

/** How one signature compares with a copy. */
export interface SignatureMatch {
  /**
   * how the copy was aligned with the result: by its corners (a similarity transform), or, when it
   * has the result's proportions and that agrees better, as the whole picture resized (a plain
   * re-share of a picture with few corners)
   */
  aligned: 'corners' | 'frame';
  /** stored corners explained by one similarity transform (0 when there is none) */
  inliers: number;
  /** share (0-1) of the grid cells inside the copy that agree with it once aligned; 0 when not aligned */
  agreement: number;
  /** share (0-1) of the grid that falls inside the copy */
  coverage: number;
  /** the transform's scale (copy pixels per CANON pixel) and rotation (degrees) */
  scale: number;
  rotation: number;
}

const PROBE_BASE = 800;

// ---------------------------------------------------------------------------------------------
// the descriptor's pattern: 256 pairs of points, fixed for SIGNATURE_VERSION 1

/** mulberry32: a small seeded generator, so the pattern is the same in every process and build */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 256 pairs (x1, y1, x2, y2), each coordinate Gaussian (sigma = radius / 2.5) clipped to the patch: BRIEF's "G II" sampling. */
const PATTERN: Int8Array = (() => {
  const random = seeded(0x5eed_0001);
  const gaussian = () => {
    const u = Math.max(random(), 1e-9);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const out = new Int8Array(256 * 4);
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.max(-PATCH_RADIUS, Math.min(PATCH_RADIUS, Math.round((gaussian() * PATCH_RADIUS) / 2.5)));
  }
  return out;
})();

// ---------------------------------------------------------------------------------------------
// pictures

/**
 * The picture upright, on white, resized to `side` pixels on its long side, as luma and chroma
 * (BT.601, computed here so that the stored side and the copy's side are the same arithmetic).
 */
async function pictureInside(image: Buffer, side: number): Promise<Picture> {
  const { data, info } = await sharp(image, { limitInputPixels: 80_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize(side, side, { fit: 'inside', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const count = info.width * info.height;
  const grey = new Uint8Array(count);
  const cb = new Uint8Array(count);
  const cr = new Uint8Array(count);
  const c = info.channels;
  for (let i = 0, o = 0; i < count; i++, o += c) {
    const r = data[o];
    const g = c >= 3 ? data[o + 1] : r;
    const b = c >= 3 ? data[o + 2] : r;
    grey[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    cb[i] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
    cr[i] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
  }
  return { grey: { data: grey, width: info.width, height: info.height }, cb, cr };
}

async function resizeGrey(grey: Grey, side: number): Promise<Grey> {
  const scale = side / Math.max(grey.width, grey.height);
  const width = Math.max(1, Math.round(grey.width * scale));
  const height = Math.max(1, Math.round(grey.height * scale));
  const data = await sharp(Buffer.from(grey.data.buffer, grey.data.byteOffset, grey.data.length), {
    raw: { width: grey.width, height: grey.height, channels: 1 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .greyscale() // sharp answers three channels for a one-channel raw input otherwise
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, width * height), width, height };
}

/** The summed-area table, (width + 1) x (height + 1): the sum of any box in four reads. */
function summedArea(grey: Grey): Float64Array {
  return summedAreaOf(grey.data, grey.width, grey.height);
}

function summedAreaOf(data: Uint8Array, width: number, height: number): Float64Array {
  const stride = width + 1;
  const table = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += data[y * width + x];
      table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + row;
    }
  }
  return table;
}

/** Mean of the box [x0, x1) x [y0, y1) (integers, inside the picture). */
function boxMean(table: Float64Array, stride: number, x0: number, y0: number, x1: number, y1: number): number {
  const sum = table[y1 * stride + x1] - table[y0 * stride + x1] - table[y1 * stride + x0] + table[y0 * stride + x0];
  return sum / ((x1 - x0) * (y1 - y0));
}

// ---------------------------------------------------------------------------------------------
// corners (Shi-Tomasi) and descriptors (BRIEF)

/** Working memory of cornerStrength, grown to the largest picture seen. */
let strengthScratch = new Float32Array(0);

/**
 * Corner strength (the smaller eigenvalue of the structure tensor summed over 5x5 pixels) of the
 * picture smoothed by [1 2 1] / 4 both ways. Every pass goes row by row (the memory in order).
 */
function cornerStrength(grey: Grey): Float32Array {
  const { data, width: w, height: h } = grey;
  const n = w * h;
  if (strengthScratch.length < 5 * n) strengthScratch = new Float32Array(5 * n);
  const tmp = strengthScratch.subarray(0, n);
  const s = strengthScratch.subarray(n, 2 * n);
  const sxx = strengthScratch.subarray(2 * n, 3 * n);
  const syy = strengthScratch.subarray(3 * n, 4 * n);
  const sxy = strengthScratch.subarray(4 * n, 5 * n);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      const l = data[o + (x > 0 ? x - 1 : x)];
      const r = data[o + (x < w - 1 ? x + 1 : x)];
      tmp[o + x] = (l + 2 * data[o + x] + r) / 4;
    }
  }
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : y) * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    const o = y * w;
    for (let x = 0; x < w; x++) s[o + x] = (tmp[up + x] + 2 * tmp[o + x] + tmp[down + x]) / 4;
  }
  // the gradient products of each row, summed over 5 pixels along the row (none on the outer rows and columns)
  const px = new Float32Array(w);
  const py = new Float32Array(w);
  const pxy = new Float32Array(w);
  sxx.fill(0, 0, w);
  syy.fill(0, 0, w);
  sxy.fill(0, 0, w);
  sxx.fill(0, n - w, n);
  syy.fill(0, n - w, n);
  sxy.fill(0, n - w, n);
  for (let y = 1; y < h - 1; y++) {
    const o = y * w;
    for (let x = 1; x < w - 1; x++) {
      const gx = (s[o + x + 1] - s[o + x - 1]) / 2;
      const gy = (s[o + x + w] - s[o + x - w]) / 2;
      px[x] = gx * gx;
      py[x] = gy * gy;
      pxy[x] = gx * gy;
    }
    let a = 0;
    let b = 0;
    let c = 0;
    for (let x = 0; x < Math.min(w, 2); x++) {
      a += px[x];
      b += py[x];
      c += pxy[x];
    }
    for (let x = 0; x < w; x++) {
      if (x + 2 < w) {
        a += px[x + 2];
        b += py[x + 2];
        c += pxy[x + 2];
      }
      if (x >= 3) {
        a -= px[x - 3];
        b -= py[x - 3];
        c -= pxy[x - 3];
      }
      sxx[o + x] = a;
      syy[o + x] = b;
      sxy[o + x] = c;
    }
  }
  // summed over 5 rows (a running sum per column), and the smaller eigenvalue
  const ca = new Float64Array(w);
  const cb = new Float64Array(w);
  const cc = new Float64Array(w);
  for (let y = 0; y < Math.min(h, 2); y++) {
    for (let x = 0; x < w; x++) {
      ca[x] += sxx[y * w + x];
      cb[x] += syy[y * w + x];
      cc[x] += sxy[y * w + x];
    }
  }
  const out = new Float32Array(n);
  for (let y = 0; y < h; y++) {
    const add = y + 2 < h ? (y + 2) * w : -1;
    const drop = y >= 3 ? (y - 3) * w : -1;
    const o = y * w;
    for (let x = 0; x < w; x++) {
      if (add >= 0) {
        ca[x] += sxx[add + x];
        cb[x] += syy[add + x];
        cc[x] += sxy[add + x];
      }
      if (drop >= 0) {
        ca[x] -= sxx[drop + x];
        cb[x] -= syy[drop + x];
        cc[x] -= sxy[drop + x];
      }
      const half = (ca[x] + cb[x]) / 2;
      const diff = (ca[x] - cb[x]) / 2;
      out[o + x] = half - Math.sqrt(diff * diff + cc[x] * cc[x]);
    }
  }
  return out;
}

/** A corner is at least this strong: an edge of 6 grey levels a pixel, over the 5x5 window. */
const MIN_STRENGTH = 25 * 6 * 6 * 0.5;

/**
 * The corners of a picture: local maxima (7x7) of the strength above MIN_STRENGTH, away from the
 * edges, at most `perCell` in each cell of a `cols` x `rows` grid (strongest first), `max` in all.
 */
function findCorners(grey: Grey, strength: Float32Array, cols: number, rows: number, perCell: number, max: number): Keypoint[] {
  const { width: w, height: h } = grey;
  const cells: Keypoint[][] = Array.from({ length: cols * rows }, () => []);
  for (let y = MARGIN; y < h - MARGIN; y++) {
    for (let x = MARGIN; x < w - MARGIN; x++) {
      const v = strength[y * w + x];
      if (v < MIN_STRENGTH) continue;
      let peak = true;
      for (let dy = -3; dy <= 3 && peak; dy++) {
        const o = (y + dy) * w + x;
        for (let dx = -3; dx <= 3; dx++) {
          const u = strength[o + dx];
          if (u > v || (u === v && (dy < 0 || (dy === 0 && dx < 0)))) {
            peak = false;
            break;
          }
        }
      }
      if (!peak) continue;
      const cell = Math.min(rows - 1, Math.floor((y / h) * rows)) * cols + Math.min(cols - 1, Math.floor((x / w) * cols));
      cells[cell].push({ x, y, score: v });
    }
  }
  const kept: Keypoint[] = [];
  for (const cell of cells) kept.push(...cell.sort((a, b) => b.score - a.score).slice(0, perCell));
  return kept.sort((a, b) => b.score - a.score).slice(0, max);
}

/** 256 bits per corner: is the 5x5 mean at the pair's first point darker than at its second? */
function describe(table: Float64Array, stride: number, corners: Keypoint[], out: Uint32Array, offset: number): void {
  const r = BOX >> 1;
  for (let k = 0; k < corners.length; k++) {
    const { x, y } = corners[k];
    for (let word = 0; word < DESCRIPTOR_WORDS; word++) {
      let bits = 0;
      for (let bit = 0; bit < 32; bit++) {
        const p = (word * 32 + bit) * 4;
        const x1 = x + PATTERN[p];
        const y1 = y + PATTERN[p + 1];
        const x2 = x + PATTERN[p + 2];
        const y2 = y + PATTERN[p + 3];
        const a = boxMean(table, stride, x1 - r, y1 - r, x1 + r + 1, y1 + r + 1);
        const b = boxMean(table, stride, x2 - r, y2 - r, x2 + r + 1, y2 + r + 1);
        if (a < b) bits |= 1 << bit;
      }
      out[(offset + k) * DESCRIPTOR_WORDS + word] = bits >>> 0;
    }
  }
}

/** Bits set in a 32-bit word. */
function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

// ---------------------------------------------------------------------------------------------
// the stored signature

/** The mean level of each of `cells` x `cells` cells of a picture's channel (its summed-area table). */
function gridOf(table: Float64Array, width: number, height: number, cells: number): Uint8Array {
  const grid = new Uint8Array(cells * cells);
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const x0 = Math.floor((i * width) / cells);
      const x1 = Math.max(x0 + 1, Math.floor(((i + 1) * width) / cells));
      const y0 = Math.floor((j * height) / cells);
      const y1 = Math.max(y0 + 1, Math.floor(((j + 1) * height) / cells));
      grid[j * cells + i] = Math.round(boxMean(table, width + 1, x0, y0, x1, y1));
    }
  }
  return grid;
}

/** The signature of a result picture (any format sharp reads; a video's first frame for a video). */
export async function resultSignature(image: Buffer): Promise<Buffer> {
  return signatureOf(await pictureInside(image, CANON));
}

function signatureOf(picture: Picture): Buffer {
  const { grey } = picture;
  const table = summedArea(grey);
  const corners = findCorners(grey, cornerStrength(grey), 6, 8, 3, KEYPOINTS);
  const descriptors = new Uint32Array(corners.length * DESCRIPTOR_WORDS);
  describe(table, grey.width + 1, corners, descriptors, 0);
  const out = Buffer.alloc(HEADER_BYTES + GRIDS_BYTES + corners.length * KEYPOINT_BYTES);
  out.writeUInt8(SIGNATURE_VERSION, 0);
  out.writeUInt16LE(grey.width, 1);
  out.writeUInt16LE(grey.height, 3);
  out.writeUInt8(corners.length, 5);
  Buffer.from(gridOf(table, grey.width, grey.height, GRID)).copy(out, HEADER_BYTES);
  const chroma = CHROMA_GRID * CHROMA_GRID;
  Buffer.from(gridOf(summedAreaOf(picture.cb, grey.width, grey.height), grey.width, grey.height, CHROMA_GRID)).copy(
    out,
    HEADER_BYTES + GRID * GRID,
  );
  Buffer.from(gridOf(summedAreaOf(picture.cr, grey.width, grey.height), grey.width, grey.height, CHROMA_GRID)).copy(
    out,
    HEADER_BYTES + GRID * GRID + chroma,
  );
  let o = HEADER_BYTES + GRIDS_BYTES;
  for (let k = 0; k < corners.length; k++) {
    out.writeUInt16LE(corners[k].x, o);
    out.writeUInt16LE(corners[k].y, o + 2);
    for (let word = 0; word < DESCRIPTOR_WORDS; word++) out.writeUInt32LE(descriptors[k * DESCRIPTOR_WORDS + word], o + 4 + word * 4);
    o += KEYPOINT_BYTES;
  }
  return out;
}

/** A stored signature, or null when it is not one this version reads (then it is computed again). */
export function readSignature(bytes: Buffer): ResultSignature | null {
  if (bytes.length < HEADER_BYTES + GRIDS_BYTES || bytes.readUInt8(0) !== SIGNATURE_VERSION) return null;
  const count = bytes.readUInt8(5);
  if (bytes.length !== HEADER_BYTES + GRIDS_BYTES + count * KEYPOINT_BYTES) return null;
  const xs = new Float32Array(count);
  const ys = new Float32Array(count);
  const descriptors = new Uint32Array(count * DESCRIPTOR_WORDS);
  let o = HEADER_BYTES + GRIDS_BYTES;
  for (let k = 0; k < count; k++) {
    xs[k] = bytes.readUInt16LE(o);
    ys[k] = bytes.readUInt16LE(o + 2);
    for (let word = 0; word < DESCRIPTOR_WORDS; word++) descriptors[k * DESCRIPTOR_WORDS + word] = bytes.readUInt32LE(o + 4 + word * 4);
    o += KEYPOINT_BYTES;
  }
  return {
    width: bytes.readUInt16LE(1),
    height: bytes.readUInt16LE(3),
    grid: new Uint8Array(bytes.subarray(HEADER_BYTES, HEADER_BYTES + GRID * GRID)),
    chroma: new Uint8Array(bytes.subarray(HEADER_BYTES + GRID * GRID, HEADER_BYTES + GRIDS_BYTES)),
    xs,
    ys,
    descriptors,
  };
}

// ---------------------------------------------------------------------------------------------
// the reported copy

/** The probe of a reported copy: its grey picture and its corners at every scale of PROBE_SIDES. */
export async function reportProbe(image: Buffer): Promise<ReportProbe> {
  const picture = await pictureInside(image, PROBE_BASE);
  const base = picture.grey;
  const long = Math.max(base.width, base.height);
  const xs: number[] = [];
  const ys: number[] = [];
  const parts: Uint32Array[] = [];
  for (const side of PROBE_SIDES) {
    if (side > long * 1.05) continue; // never enlarge the copy much: nothing is gained
    const level = side >= long ? base : await resizeGrey(base, side);
    const corners = findCorners(level, cornerStrength(level), 8, 8, 5, PROBE_KEYPOINTS_PER_SIDE);
    const descriptors = new Uint32Array(corners.length * DESCRIPTOR_WORDS);
    describe(summedArea(level), level.width + 1, corners, descriptors, 0);
    const back = base.width / level.width;
    for (const c of corners) {
      xs.push(c.x * back);
      ys.push(c.y * back);
    }
    parts.push(descriptors);
  }
  const descriptors = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    descriptors.set(p, o);
    o += p.length;
  }
  return {
    width: base.width,
    height: base.height,
    integral: summedArea(base),
    integralCb: summedAreaOf(picture.cb, base.width, base.height),
    integralCr: summedAreaOf(picture.cr, base.width, base.height),
    xs: Float32Array.from(xs),
    ys: Float32Array.from(ys),
    descriptors,
    count: xs.length,
    ...bucketIndex(descriptors, xs.length),
  };
}

/** Byte `t` (0-7) of descriptor `k`: bytes of the first two words. */
function descriptorByte(descriptors: Uint32Array, k: number, t: number): number {
  return (descriptors[k * DESCRIPTOR_WORDS + (t >> 2)] >>> ((t & 3) * 8)) & 0xff;
}

function bucketIndex(descriptors: Uint32Array, count: number): { bucketStart: Uint32Array; bucketItems: Uint32Array } {
  const bucketStart = new Uint32Array(INDEX_TABLES * 256 + 1);
  for (let k = 0; k < count; k++) for (let t = 0; t < INDEX_TABLES; t++) bucketStart[t * 256 + descriptorByte(descriptors, k, t) + 1]++;
  for (let b = 1; b < bucketStart.length; b++) bucketStart[b] += bucketStart[b - 1];
  const fill = bucketStart.slice(0, -1);
  const bucketItems = new Uint32Array(count * INDEX_TABLES);
  for (let k = 0; k < count; k++)
    for (let t = 0; t < INDEX_TABLES; t++) bucketItems[fill[t * 256 + descriptorByte(descriptors, k, t)]++] = k;
  return { bucketStart, bucketItems };
}

// ---------------------------------------------------------------------------------------------
// comparing

/** A pair of corners (stored, copy) further apart than this many bits of 256 is no pair. */
const MAX_PAIR_DISTANCE = 64;
/** A stored corner lands within this many CANON pixels of its pair once transformed. */
const INLIER_TOLERANCE = 2.5;
const RANSAC_ROUNDS = 300;
/** Fewer pairs than this explain nothing (a similarity needs two; a few more say it is no accident). */
const MIN_PAIRS = 4;
/** Fewer grid cells inside the copy than this say nothing of the picture. */
const MIN_CELLS = 16;
/** The copy is also tried as the whole picture when its proportions are the result's within this share, */
const FRAME_ASPECT_TOLERANCE = 0.02;
/** and it has at least this many corners (a flat picture is nobody's), */
const MIN_FRAME_CORNERS = 8;
/** and fewer than this many of the result's corners were found in place (more align it well enough). */
const FRAME_BELOW_INLIERS = 12;
/** Bytes of a descriptor that index the copy's corners (see ReportProbe). */
const INDEX_TABLES = 8;
/** The copy may show the picture at 0.15x to 4x of CANON, turned by at most 12 degrees. */
const SCALE_RANGE = [0.15, 4] as const;
const MAX_ROTATION_DEG = 12;
/** A cell agrees when its grey level is within this of the copy's (after brightness and contrast). */
const CELL_TOLERANCE = 16;
/** The brightness and contrast are fitted on all cells, then on the best 80%, then on the best half. */
const FIT_SHARES = [0.8, 0.5] as const;
/** A cell's colour agrees when both chroma channels are within this of the copy's (after the shift that fits best). */
const CHROMA_TOLERANCE = 12;
/** Chroma this close to 128 is grey. */
const GREY_CHROMA = 4;

/** Compares a reported copy with one stored signature. */
export function compareSignature(probe: ReportProbe, signature: ResultSignature): SignatureMatch {
  let best: SignatureMatch = { aligned: 'corners', inliers: 0, agreement: 0, coverage: 0, scale: 0, rotation: 0 };
  const fit = ransac(nearestPairs(probe, signature));
  if (fit) {
    best = {
      aligned: 'corners',
      inliers: fit.inliers,
      ...gridAgreement(probe, signature, fit.t),
      scale: Math.hypot(fit.t.a, fit.t.b),
      rotation: (Math.atan2(fit.t.b, fit.t.a) * 180) / Math.PI,
    };
  }
  // the copy as the whole picture resized: a picture with few corners, re-shared as it was
  const aspect = probe.width / probe.height / (signature.width / signature.height);
  if ((!fit || fit.inliers < FRAME_BELOW_INLIERS) && probe.count >= MIN_FRAME_CORNERS && Math.abs(aspect - 1) <= FRAME_ASPECT_TOLERANCE) {
    const scale = probe.width / signature.width;
    const t = { a: scale, b: 0, tx: 0, ty: (probe.height - scale * signature.height) / 2 };
    const frame = gridAgreement(probe, signature, t);
    if (frame.agreement > best.agreement) best = { aligned: 'frame', inliers: fit?.inliers ?? 0, ...frame, scale, rotation: 0 };
  }
  return best;
}

/** Pairs of (stored corner, nearest corner of the copy within MAX_PAIR_DISTANCE bits): px, py -> qx, qy. */
interface Pairs {
  px: Float32Array;
  py: Float32Array;
  qx: Float32Array;
  qy: Float32Array;
  count: number;
}

/** Which corner of the copy was last looked at, for which stored corner: each is measured once per stored corner. */
let seenStamp = new Uint32Array(0);
let stamp = 0;

function nearestPairs(probe: ReportProbe, signature: ResultSignature): Pairs {
  const n = signature.xs.length;
  const pairs: Pairs = { px: new Float32Array(n), py: new Float32Array(n), qx: new Float32Array(n), qy: new Float32Array(n), count: 0 };
  if (seenStamp.length < probe.count) seenStamp = new Uint32Array(probe.count);
  const d = signature.descriptors;
  const e = probe.descriptors;
  const { bucketStart, bucketItems } = probe;
  for (let k = 0; k < n; k++) {
    const s = k * DESCRIPTOR_WORDS;
    if (++stamp === 0xffffffff) {
      seenStamp.fill(0);
      stamp = 1;
    }
    let best = MAX_PAIR_DISTANCE + 1;
    let bestAt = -1;
    for (let t = 0; t < INDEX_TABLES; t++) {
      const bucket = t * 256 + descriptorByte(d, k, t);
      for (let b = bucketStart[bucket]; b < bucketStart[bucket + 1]; b++) {
        const q = bucketItems[b];
        if (seenStamp[q] === stamp) continue;
        seenStamp[q] = stamp;
        const o = q * DESCRIPTOR_WORDS;
        let dist = 0;
        for (let word = 0; word < DESCRIPTOR_WORDS && dist < best; word++) dist += popcount(d[s + word] ^ e[o + word]);
        if (dist < best) {
          best = dist;
          bestAt = q;
        }
      }
    }
    if (bestAt >= 0) {
      const i = pairs.count++;
      pairs.px[i] = signature.xs[k];
      pairs.py[i] = signature.ys[k];
      pairs.qx[i] = probe.xs[bestAt];
      pairs.qy[i] = probe.ys[bestAt];
    }
  }
  return pairs;
}

interface Similarity {
  a: number; // scale * cos(rotation)
  b: number; // scale * sin(rotation)
  tx: number;
  ty: number;
}

/** Least-squares similarity taking (px, py) to (qx, qy) over the pairs flagged in `use` (all when null). */
function fitSimilarity(p: Pairs, use: Uint8Array | null): Similarity | null {
  let n = 0;
  let mx = 0;
  let my = 0;
  let mu = 0;
  let mv = 0;
  for (let i = 0; i < p.count; i++) {
    if (use && !use[i]) continue;
    n++;
    mx += p.px[i];
    my += p.py[i];
    mu += p.qx[i];
    mv += p.qy[i];
  }
  if (n < 2) return null;
  mx /= n;
  my /= n;
  mu /= n;
  mv /= n;
  let sxx = 0;
  let sab = 0;
  let sba = 0;
  for (let i = 0; i < p.count; i++) {
    if (use && !use[i]) continue;
    const x = p.px[i] - mx;
    const y = p.py[i] - my;
    const u = p.qx[i] - mu;
    const v = p.qy[i] - mv;
    sxx += x * x + y * y;
    sab += x * u + y * v;
    sba += x * v - y * u;
  }
  if (sxx < 1e-6) return null;
  const a = sab / sxx;
  const b = sba / sxx;
  return { a, b, tx: mu - (a * mx - b * my), ty: mv - (b * mx + a * my) };
}

function plausible(t: Similarity): boolean {
  const scale = Math.hypot(t.a, t.b);
  const rotation = Math.abs((Math.atan2(t.b, t.a) * 180) / Math.PI);
  return scale >= SCALE_RANGE[0] && scale <= SCALE_RANGE[1] && rotation <= MAX_ROTATION_DEG;
}

/** Flags the pairs the transform explains (within INLIER_TOLERANCE CANON pixels); answers how many. */
function markInliers(p: Pairs, t: Similarity, out: Uint8Array): number {
  const scale = Math.hypot(t.a, t.b);
  const limit = (INLIER_TOLERANCE * scale) ** 2;
  let n = 0;
  for (let i = 0; i < p.count; i++) {
    const du = t.a * p.px[i] - t.b * p.py[i] + t.tx - p.qx[i];
    const dv = t.b * p.px[i] + t.a * p.py[i] + t.ty - p.qy[i];
    out[i] = du * du + dv * dv <= limit ? 1 : 0;
    n += out[i];
  }
  return n;
}

/**
 * The similarity that explains the most pairs: RANSAC over two pairs at a time (seeded: one copy
 * always gives one answer), then refitted by least squares on its inliers. Null under MIN_PAIRS.
 */
function ransac(p: Pairs): { t: Similarity; inliers: number } | null {
  const m = p.count;
  if (m < MIN_PAIRS) return null;
  const random = seeded(m * 7919 + 17);
  const flags = new Uint8Array(m);
  const bestFlags = new Uint8Array(m);
  const two = new Uint8Array(m);
  let best = 0;
  let rounds = RANSAC_ROUNDS;
  for (let round = 0; round < rounds; round++) {
    const i = Math.floor(random() * m);
    let j = Math.floor(random() * (m - 1));
    if (j >= i) j++;
    if (Math.hypot(p.px[i] - p.px[j], p.py[i] - p.py[j]) < 12) continue; // too close together to tell a scale
    two[i] = 1;
    two[j] = 1;
    const t = fitSimilarity(p, two);
    two[i] = 0;
    two[j] = 0;
    if (!t || !plausible(t)) continue;
    const n = markInliers(p, t, flags);
    if (n > best) {
      best = n;
      bestFlags.set(flags);
      // enough rounds that two inliers were drawn together at least once, but for 1 in 10,000
      const w = best / m;
      rounds = Math.min(RANSAC_ROUNDS, Math.ceil(Math.log(1e-4) / Math.log(Math.max(1e-9, 1 - w * w))));
    }
  }
  if (best < MIN_PAIRS) return null;
  let t = fitSimilarity(p, bestFlags);
  if (!t || !plausible(t)) return null;
  const n = markInliers(p, t, flags);
  if (n >= best) {
    const again = fitSimilarity(p, flags);
    if (again && plausible(again)) {
      t = again;
      best = markInliers(p, t, flags);
    }
  }
  return { t, inliers: best };
}

/** Scratch space of gridAgreement. */
const cellStored = new Float32Array(GRID * GRID);
const cellSeen = new Float32Array(GRID * GRID);
const cellUse = new Uint8Array(GRID * GRID);
const cellChroma = new Int16Array(GRID * GRID);
const chromaOff = new Uint8Array(CHROMA_GRID * CHROMA_GRID);
const chromaSeen = new Float32Array(2 * CHROMA_GRID * CHROMA_GRID);
const residuals = new Uint32Array(256);
const shifts = new Uint32Array(511);

/**
 * The grid's cells that fall inside the copy, each compared with the copy's mean grey level over
 * the same area (a box of the cell's size around its transformed centre), after the brightness and
 * contrast that fit best: least squares, then again on the 80% and the half of the cells that fit
 * best (what differs, a person or an interface drawn over a corner, does not skew it). A cell
 * agrees when its grey level is within CELL_TOLERANCE and its colour (the chroma cell it lies in,
 * after the shift of colour that fits best) within CHROMA_TOLERANCE; a copy without colour (turned
 * grey) is compared by grey levels alone.
 */
function gridAgreement(probe: ReportProbe, signature: ResultSignature, t: Similarity): { agreement: number; coverage: number } {
  const scale = Math.hypot(t.a, t.b);
  const halfW = ((signature.width / GRID) * scale) / 2;
  const halfH = ((signature.height / GRID) * scale) / 2;
  const stride = probe.width + 1;
  // the colour of each chroma cell inside the copy (a box of 2 x 2 grey cells)
  chromaOff.fill(1);
  const chromaCells = CHROMA_GRID * CHROMA_GRID;
  let colourful = 0;
  let seenMin = 255;
  let seenMax = 0;
  for (let j = 0; j < CHROMA_GRID; j++) {
    const y = ((j + 0.5) * signature.height) / CHROMA_GRID;
    for (let i = 0; i < CHROMA_GRID; i++) {
      const x = ((i + 0.5) * signature.width) / CHROMA_GRID;
      const cx = t.a * x - t.b * y + t.tx;
      const cy = t.b * x + t.a * y + t.ty;
      const x0 = Math.round(cx - 2 * halfW);
      const x1 = Math.round(cx + 2 * halfW);
      const y0 = Math.round(cy - 2 * halfH);
      const y1 = Math.round(cy + 2 * halfH);
      if (x0 < 0 || y0 < 0 || x1 > probe.width || y1 > probe.height || x1 <= x0 || y1 <= y0) continue;
      const c = j * CHROMA_GRID + i;
      chromaOff[c] = 0;
      const cb = boxMean(probe.integralCb, stride, x0, y0, x1, y1);
      const cr = boxMean(probe.integralCr, stride, x0, y0, x1, y1);
      chromaSeen[c] = cb;
      chromaSeen[chromaCells + c] = cr;
      seenMin = Math.min(seenMin, cb, cr);
      seenMax = Math.max(seenMax, cb, cr);
      if (Math.abs(signature.chroma[c] - 128) + Math.abs(signature.chroma[chromaCells + c] - 128) > 2 * GREY_CHROMA) colourful++;
    }
  }
  let n = 0;
  for (let j = 0; j < GRID; j++) {
    const y = ((j + 0.5) * signature.height) / GRID;
    for (let i = 0; i < GRID; i++) {
      const x = ((i + 0.5) * signature.width) / GRID;
      const cx = t.a * x - t.b * y + t.tx;
      const cy = t.b * x + t.a * y + t.ty;
      const x0 = Math.round(cx - halfW);
      const x1 = Math.round(cx + halfW);
      const y0 = Math.round(cy - halfH);
      const y1 = Math.round(cy + halfH);
      if (x0 < 0 || y0 < 0 || x1 > probe.width || y1 > probe.height || x1 <= x0 || y1 <= y0) continue;
      cellStored[n] = signature.grid[j * GRID + i];
      cellSeen[n] = boxMean(probe.integral, stride, x0, y0, x1, y1);
      const c = (j >> 1) * CHROMA_GRID + (i >> 1);
      cellChroma[n] = chromaOff[c] ? -1 : c;
      n++;
    }
  }
  const coverage = n / (GRID * GRID);
  if (n < MIN_CELLS) return { agreement: 0, coverage };
  cellUse.fill(1, 0, n);
  let gain = 1;
  let offset = 0;
  for (let pass = 0; pass < FIT_SHARES.length + 1; pass++) {
    let count = 0;
    let ms = 0;
    let mq = 0;
    for (let k = 0; k < n; k++) {
      if (!cellUse[k]) continue;
      count++;
      ms += cellStored[k];
      mq += cellSeen[k];
    }
    ms /= count;
    mq /= count;
    let vs = 0;
    let cov = 0;
    for (let k = 0; k < n; k++) {
      if (!cellUse[k]) continue;
      vs += (cellStored[k] - ms) ** 2;
      cov += (cellStored[k] - ms) * (cellSeen[k] - mq);
    }
    gain = vs > 1e-6 ? Math.max(0.5, Math.min(2, cov / vs)) : 1;
    offset = mq - gain * ms;
    if (pass === FIT_SHARES.length) break;
    // fitted again on the share of cells that fit best (a histogram of whole grey levels finds the cut)
    residuals.fill(0);
    for (let k = 0; k < n; k++) residuals[Math.min(255, Math.round(Math.abs(cellSeen[k] - (gain * cellStored[k] + offset))))]++;
    let cut = 0;
    for (let sum = residuals[0]; cut < 255 && sum < n * FIT_SHARES[pass];) sum += residuals[++cut];
    for (let k = 0; k < n; k++) cellUse[k] = Math.abs(cellSeen[k] - (gain * cellStored[k] + offset)) <= cut + 0.5 ? 1 : 0;
  }
  // the colour is compared unless the copy has none left where the result has some (a copy turned grey)
  const greyCopy = colourful >= 4 && seenMax - seenMin < 2 * GREY_CHROMA;
  const shiftCb = greyCopy ? 0 : medianShift(signature.chroma, 0, chromaSeen, 0);
  const shiftCr = greyCopy ? 0 : medianShift(signature.chroma, chromaCells, chromaSeen, chromaCells);
  let agree = 0;
  for (let k = 0; k < n; k++) {
    if (Math.abs(cellSeen[k] - (gain * cellStored[k] + offset)) > CELL_TOLERANCE) continue;
    const c = cellChroma[k];
    if (!greyCopy && c >= 0) {
      const dCb = Math.abs(chromaSeen[c] - signature.chroma[c] - shiftCb);
      const dCr = Math.abs(chromaSeen[chromaCells + c] - signature.chroma[chromaCells + c] - shiftCr);
      if (Math.max(dCb, dCr) > CHROMA_TOLERANCE) continue;
    }
    agree++;
  }
  return { agreement: agree / n, coverage };
}

/** The median difference (copy - stored) of one chroma channel over the chroma cells inside the copy. */
function medianShift(stored: Uint8Array, storedAt: number, seen: Float32Array, seenAt: number): number {
  shifts.fill(0);
  let count = 0;
  for (let c = 0; c < CHROMA_GRID * CHROMA_GRID; c++) {
    if (chromaOff[c]) continue;
    shifts[Math.round(seen[seenAt + c] - stored[storedAt + c]) + 255]++;
    count++;
  }
  for (let v = 0, sum = 0; v < shifts.length; v++) {
    sum += shifts[v];
    if (sum * 2 >= count) return v - 255;
  }
  return 0;
}
