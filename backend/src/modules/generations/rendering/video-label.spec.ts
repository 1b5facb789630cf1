import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import sharp from 'sharp';
import { AI_GENERATED_LABEL } from './ai-metadata';
import { runFfmpeg, withTempDir } from './ffmpeg';
import { processResult } from './result-processing';
import { badgeOnlySvg } from './watermark';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

/**
 * The "AI-generated" label burnt into videos, measured in the frames: test videos of three shapes
 * are encoded by ffmpeg (a flat lavfi colour, so that the label is the only thing that differs),
 * go through the real result processing, and every frame of the result is compared with the same
 * frame of the video that went in. The pixels that changed are the label; their box must follow
 * the rule written in watermark.ts (labelBox): dots of 1/180 of the SHORTER side, so the pill is 13
 * dots tall, its width set by the text alone (77 dots for "AI-generated"), 3% of the shorter side
 * from the lower-right corner. Not stretched: its width/height is the badge's own.
 */

const FPS = 10;
const FRAMES = 6;

/** A short H.264 MP4 of a flat colour, `width` x `height`, as a vendor would send. */
async function colourVideo(width: number, height: number): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const output = path.join(dir, 'in.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      `color=c=0x3a7ca5:s=${width}x${height}:r=${FPS}:d=${FRAMES / FPS}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      output,
    ]);
    return readFile(output);
  });
}

/** Every frame of an MP4 as 8-bit grey pixels (ffmpeg decodes, rawvideo out). */
async function greyFrames(mp4: Buffer, width: number, height: number): Promise<Buffer[]> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'v.mp4');
    const output = path.join(dir, 'frames.gray');
    await writeFile(input, mp4);
    await runFfmpeg(['-i', input, '-f', 'rawvideo', '-pix_fmt', 'gray', output]);
    const all = await readFile(output);
    const size = width * height;
    expect(all.length % size).toBe(0);
    return Array.from({ length: all.length / size }, (_, i) => all.subarray(i * size, (i + 1) * size));
  });
}

/** A number within 2 pixels of `expected` (H.264 blurs an edge by a pixel or so). */
const about = (expected: number) => expect.closeTo(expected, -Math.log10(5));

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The box of the pixels where `after` differs from `before` by more than `threshold` (in the direction `sign`, or either). */
function changedBox(before: Buffer, after: Buffer, width: number, threshold: number, sign: 1 | -1 | 0 = 0): Box | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < before.length; i++) {
    const d = after[i] - before[i];
    if (sign === 0 ? Math.abs(d) <= threshold : d * sign <= threshold) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

describe('the AI label on a video, measured in its frames', () => {
  // the badge's own proportions: the PNG drawn for any dot size (here 1) is 77 x 13 dots
  let badgeAspect: number;
  beforeAll(async () => {
    const meta = await sharp(Buffer.from(badgeOnlySvg(AI_GENERATED_LABEL, 10))).metadata();
    badgeAspect = meta.width! / meta.height!;
    expect(meta).toMatchObject({ width: 770, height: 130 });
  });

  // expected from the rule: dot = round(short / 180), pill = 77 x 13 dots, margin = round(short * 0.03)
  const shapes = [
    { name: 'portrait 1080x1920', width: 1080, height: 1920, label: { width: 462, height: 78 }, margin: 32 },
    { name: 'landscape 1920x1080', width: 1920, height: 1080, label: { width: 462, height: 78 }, margin: 32 },
    { name: 'square 720x720', width: 720, height: 720, label: { width: 308, height: 52 }, margin: 22 },
  ];

  it.each(shapes)(
    '$name: every frame carries the label at its own proportions, sized from the shorter side, in the lower-right corner',
    async ({ width, height, label, margin }) => {
      const source = await colourVideo(width, height);
      const out = await processResult(source, { type: 'video', watermark: false, appName: 'Fitting Room', origin: 'ai' });
      expect(out.contentType).toBe('video/mp4');

      const before = await greyFrames(source, width, height);
      const after = await greyFrames(out.body, width, height);
      expect(after).toHaveLength(before.length);
      expect(after.length).toBeGreaterThanOrEqual(FRAMES);

      const short = Math.min(width, height);
      for (const [i, frame] of after.entries()) {
        // the pill darkens the colour by 45%, its letters are near white: both far above the codec's noise
        const box = changedBox(before[i], frame, width, 20);
        expect({ frame: i, box }).toEqual({ frame: i, box: expect.any(Object) });
        const { x, y, width: w, height: h } = box!;
        // its size
        expect({ frame: i, w, h }).toEqual({ frame: i, w: about(label.width), h: about(label.height) });
        // its proportions are the badge's own: not stretched to the video's width
        expect(Math.abs(w / h / badgeAspect - 1)).toBeLessThan(0.04);
        // a share of the shorter side: about 7%, never under 26 pixels
        expect(h / short).toBeGreaterThan(0.065);
        expect(h / short).toBeLessThan(0.08);
        expect(h).toBeGreaterThanOrEqual(26);
        // in the lower-right corner, 3% of the shorter side from both edges
        expect({ right: width - (x + w), bottom: height - (y + h) }).toEqual({
          right: about(margin),
          bottom: about(margin),
        });
        // the letters (what brightened) are 7 of the pill's 13 dots tall: readable, at scale
        const letters = changedBox(before[i], frame, width, 60, 1)!;
        expect(letters.height).toBeGreaterThanOrEqual(14);
        expect(Math.abs(letters.height / h - 7 / 13)).toBeLessThan(0.06);
        // and nothing else changed
        expect(x).toBeGreaterThan(width / 2);
        expect(y).toBeGreaterThan(height * 0.8);
      }
    },
    180_000,
  );

  it('is the same label for a portrait and a landscape video of the same shorter side', async () => {
    const boxes = [];
    for (const [width, height] of [
      [360, 640],
      [640, 360],
    ]) {
      const source = await colourVideo(width, height);
      const out = await processResult(source, { type: 'video', watermark: false, appName: 'Fitting Room', origin: 'ai' });
      const [before] = await greyFrames(source, width, height);
      const [after] = await greyFrames(out.body, width, height);
      const box = changedBox(before, after, width, 20)!;
      boxes.push({ width: box.width, height: box.height });
    }
    // 360 / 180 = 2-pixel dots: 154 x 26, the smallest readable label
    expect(boxes[0]).toEqual({ width: about(154), height: about(26) });
    expect(boxes[1]).toEqual(boxes[0]);
  }, 120_000);
});
