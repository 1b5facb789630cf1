import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import type { FaceBox, Point } from '../engine/face-engine';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

/**
 * The face fixtures (backend/test/fixtures/faces: single faces cut out of the group photos that ship
 * with @vladmandic/face-api, MIT) and the pictures made from them, for the tests and
 * `npm run bench:faces`. Every picture here is made from those real faces; nothing is drawn.
 */
export const FACE_FIXTURE_DIR = path.resolve(__dirname, '..', '..', '..', '..', '..', 'backend', 'test', 'fixtures', 'faces');

export interface FaceFixture {
  /** e.g. `s1-f2.jpg`: the second face from the left of demo/sample1.jpg */
  file: string;
  /** the group photo it was cut from: faces of one group photo are certainly different people */
  sample: string;
}

export function faceFixtures(): FaceFixture[] {
  return JSON.parse(fs.readFileSync(path.join(FACE_FIXTURE_DIR, 'index.json'), 'utf8')) as FaceFixture[];
}

export function readFixture(file: string): Buffer {
  return fs.readFileSync(path.join(FACE_FIXTURE_DIR, file));
}

/** The six group photos of the package (3 to 5 people each). */
export function groupPhotos(): { name: string; bytes: Buffer }[] {
  const dir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
  return [1, 2, 3, 4, 5, 6].map((i) => ({ name: `sample${i}.jpg`, bytes: fs.readFileSync(path.join(dir, `sample${i}.jpg`)) }));
}

/** The same photo as a person would re-use it: cropped, mirrored, smaller, recompressed, brighter. */
export async function sameFaceVariants(jpeg: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  const meta = await sharp(jpeg).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  const crop = { left: Math.round(w * 0.08), top: Math.round(h * 0.06), width: Math.round(w * 0.84), height: Math.round(h * 0.86) };
  return [
    { name: 'crop', bytes: await sharp(jpeg).extract(crop).jpeg({ quality: 90 }).toBuffer() },
    { name: 'flip', bytes: await sharp(jpeg).flop().jpeg({ quality: 90 }).toBuffer() },
    {
      name: 'smaller',
      bytes: await sharp(jpeg)
        .resize(Math.round(w * 0.7))
        .jpeg({ quality: 85 })
        .toBuffer(),
    },
    { name: 'recompressed', bytes: await sharp(jpeg).jpeg({ quality: 30 }).toBuffer() },
    { name: 'brighter', bytes: await sharp(jpeg).modulate({ brightness: 1.2 }).jpeg({ quality: 88 }).toBuffer() },
  ];
}

/** The photo blurred (a 3-pixel Gaussian): a face too blurry for a try-on. */
export function blurred(jpeg: Buffer, sigma = 3): Promise<Buffer> {
  return sharp(jpeg).blur(sigma).jpeg({ quality: 90 }).toBuffer();
}

/** Two photos side by side on one canvas: two people in one photo. */
export async function sideBySide(a: Buffer, b: Buffer, height = 360): Promise<Buffer> {
  const left = await sharp(a).resize({ height }).toBuffer({ resolveWithObject: true });
  const right = await sharp(b).resize({ height }).toBuffer({ resolveWithObject: true });
  return sharp({ create: { width: left.info.width + right.info.width, height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: left.data, left: 0, top: 0 },
      { input: right.data, left: left.info.width, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

export interface RawFrame {
  rgb: Buffer;
  width: number;
  height: number;
}

/** The picture as raw RGB at `width` x `height` (cover), for frames of a sequence. */
export async function rawFrame(jpeg: Buffer, width: number, height: number): Promise<RawFrame> {
  const { data, info } = await sharp(jpeg)
    .resize(width, height, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: data, width: info.width, height: info.height };
}

/**
 * A head turn made from one photo: the middle of the face (nose, eyes, mouth) is moved sideways by
 * `amount` x the face's width while the jaw line and everything around stay, which is what a turn
 * does to the 68 landmarks (the nose swings toward one edge of the face). Positive: toward the
 * picture's right (the person's left). It is a 2-D warp, not a 3-D head: it proves the frames, the
 * landmarks and the judgement are wired through, not that a real head's turn passes (the unit tests
 * of face-geometry.ts judge landmark tracks; the live check's measured figures are in docs/safety.md).
 */
export function warpTurn(frame: RawFrame, face: { box: FaceBox; nose: Point }, amount: number): RawFrame {
  const { width: W, height: H, rgb } = frame;
  const out = Buffer.alloc(rgb.length);
  const sx = face.box.width * 0.28;
  const sy = face.box.height * 0.45;
  const shift = amount * face.box.width;
  const [nx, ny] = face.nose;
  for (let y = 0; y < H; y++) {
    const gy = ((y - ny) * (y - ny)) / (2 * sy * sy);
    for (let x = 0; x < W; x++) {
      const g = Math.exp(-(((x - nx) * (x - nx)) / (2 * sx * sx) + gy));
      const src = Math.max(0, Math.min(W - 1, Math.round(x - shift * g)));
      const o = (y * W + x) * 3;
      const i = (y * W + src) * 3;
      out[o] = rgb[i];
      out[o + 1] = rgb[i + 1];
      out[o + 2] = rgb[i + 2];
    }
  }
  return { rgb: out, width: W, height: H };
}

/**
 * A flat picture held to the camera and moved: turned in its plane by `degrees`, squeezed
 * horizontally by `squeeze` (the card turned away around its vertical axis: cos of the angle) and
 * shifted by `dx` pixels, on a grey background, at the frame's size.
 */
export async function flatMove(frame: RawFrame, move: { degrees?: number; squeeze?: number; dx?: number }): Promise<RawFrame> {
  const { width: W, height: H } = frame;
  const grey = { r: 128, g: 128, b: 128 };
  const squeezed = await sharp(frame.rgb, { raw: { width: W, height: H, channels: 3 } })
    .resize(Math.max(1, Math.round(W * (move.squeeze ?? 1))), H, { fit: 'fill' })
    .png()
    .toBuffer();
  const turned = await sharp(squeezed)
    .rotate(move.degrees ?? 0, { background: grey })
    .resize(W, H, { fit: 'contain', background: grey })
    .png()
    .toBuffer();
  const dx = Math.round(move.dx ?? 0);
  const extended = await sharp(turned)
    .extend({ left: Math.max(0, dx), right: Math.max(0, -dx), background: grey })
    .png()
    .toBuffer();
  const shifted = await sharp(extended)
    .extract({ left: Math.max(0, -dx), top: 0, width: W, height: H })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: shifted.data, width: W, height: H };
}

/** A raw frame as a JPEG (what the browser sends of each camera frame). */
export function frameJpeg(frame: RawFrame, quality = 85): Promise<Buffer> {
  return sharp(frame.rgb, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}
