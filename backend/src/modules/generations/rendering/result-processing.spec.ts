import sharp from 'sharp';
import { dotTextPath, measureDotText, normalizeDotText } from './dot-font';
import { readVideoTags, stillToVideo, firstFrame } from './ffmpeg';
import { hammingDistance, perceptualHash, SAME_PICTURE_MAX_DISTANCE } from './perceptual-hash';
import { blendOverlay, processResult, renderedOverlay, ResultRejectedError } from './result-processing';
import { overlaySvg, watermarkSvg } from './watermark';

const picture = () =>
  sharp({ create: { width: 400, height: 600, channels: 3, background: '#406080' } })
    .png()
    .toBuffer();

async function meanDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).removeAlpha().raw().toBuffer()));
  let s = 0;
  for (let i = 0; i < x.length; i++) s += Math.abs(x[i] - y[i]);
  return s / x.length;
}

const GENERATION = '6f0c1e9e-8d3b-4a51-9a43-0d1bb1b1a001';

/** The lower-right corner (where the label sits) and the rest of a picture, as raw pixels. */
async function corner(image: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(image)
    .extract({
      left: Math.round(width * 0.55),
      top: Math.round(height * 0.85),
      width: Math.round(width * 0.42),
      height: Math.round(height * 0.12),
    })
    .removeAlpha()
    .raw()
    .toBuffer();
}
async function cornerDiff(a: Buffer, b: Buffer, width: number, height: number): Promise<number> {
  const [x, y] = await Promise.all([corner(a, width, height), corner(b, width, height)]);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += Math.abs(x[i] - y[i]);
  return s / x.length;
}

describe('processResult', () => {
  it('stores an AI image as a JPEG that says so: a visible "AI-generated" label on every tier, EXIF, the IPTC digital source type, and its generation id', async () => {
    const source = await picture();
    const out = await processResult(source, {
      type: 'image',
      watermark: false,
      appName: 'Fitting Room',
      origin: 'ai',
      generationId: GENERATION,
    });
    expect(out).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg' });
    const meta = await sharp(out.body).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 400, height: 600 });
    expect(meta.exif?.toString('latin1')).toContain('AI-generated');
    expect(meta.exif?.toString('latin1')).toContain('Fitting Room');
    expect(meta.xmp?.toString()).toContain('http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia');
    expect(meta.xmp?.toString()).toContain(`fitting-room:generation:${GENERATION}`);
    // the label is in the pixels (lower right), the rest of the picture untouched
    expect(await cornerDiff(out.body, source, 400, 600)).toBeGreaterThan(8);
    const top = (image: Buffer) => sharp(image).extract({ left: 0, top: 0, width: 400, height: 480 }).png().toBuffer();
    expect(await meanDiff(await top(out.body), await top(source))).toBeLessThan(1.5);
  });

  it('labels a preview (no AI) as a preview in its metadata, and adds no AI label', async () => {
    const source = await picture();
    const out = await processResult(source, {
      type: 'image',
      watermark: false,
      appName: 'Fitting Room',
      origin: 'preview',
      generationId: GENERATION,
    });
    const meta = await sharp(out.body).metadata();
    expect(meta.exif?.toString('latin1')).toContain('Preview, not AI-generated');
    expect(meta.exif?.toString('latin1')).not.toContain('ImageDescription\0AI-generated');
    expect(meta.xmp?.toString()).toContain('http://cv.iptc.org/newscodes/digitalsourcetype/composite');
    expect(meta.xmp?.toString()).not.toContain('trainedAlgorithmicMedia');
    expect(await cornerDiff(out.body, source, 400, 600)).toBeLessThan(2);
  });

  it('adds the watermark grid only when asked (the free tier)', async () => {
    const source = await picture();
    const plain = await processResult(source, { type: 'image', watermark: false, appName: 'Fitting Room' });
    const marked = await processResult(source, { type: 'image', watermark: true, appName: 'Fitting Room' });
    // a faint grid over the whole picture (opacity 0.16): small on average, everywhere
    expect(await meanDiff(marked.body, plain.body)).toBeGreaterThan(0.5);
  });

  it('hashes the stored picture so that a re-shared copy is recognised, and another picture is not', async () => {
    const source = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600"><rect width="400" height="600" fill="#406080"/><circle cx="200" cy="220" r="120" fill="#e9c46a"/><rect x="60" y="420" width="280" height="120" fill="#264653"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const other = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600"><rect width="400" height="600" fill="#f4a261"/><rect x="40" y="40" width="120" height="500" fill="#2a9d8f"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const stored = await processResult(source, { type: 'image', watermark: true, appName: 'Fitting Room' });
    // what a social network does to a shared picture: smaller, recompressed, metadata gone
    const reshared = await sharp(stored.body).resize(300).jpeg({ quality: 60 }).toBuffer();
    expect(hammingDistance(stored.phash, await perceptualHash(reshared))).toBeLessThanOrEqual(SAME_PICTURE_MAX_DISTANCE);
    expect(hammingDistance(stored.phash, await perceptualHash(other))).toBeGreaterThan(SAME_PICTURE_MAX_DISTANCE);
  });

  it('refuses what is not an image or an MP4', async () => {
    await expect(processResult(Buffer.from('<html>'), { type: 'image', watermark: false, appName: 'x' })).rejects.toBeInstanceOf(
      ResultRejectedError,
    );
    await expect(processResult(Buffer.alloc(0), { type: 'image', watermark: false, appName: 'x' })).rejects.toBeInstanceOf(
      ResultRejectedError,
    );
    await expect(processResult(await picture(), { type: 'video', watermark: false, appName: 'x' })).rejects.toBeInstanceOf(
      ResultRejectedError,
    );
  });

  it('burns the "AI-generated" label into every frame of an AI video and tags its container with the words and the generation id', async () => {
    const jpeg = await sharp(await picture())
      .jpeg()
      .toBuffer();
    const mp4 = await stillToVideo(jpeg, { width: 320, height: 480, seconds: 0.4 });
    const out = await processResult(mp4, {
      type: 'video',
      watermark: false,
      appName: 'Fitting Room',
      origin: 'ai',
      generationId: GENERATION,
    });
    expect(out).toMatchObject({ contentType: 'video/mp4', extension: 'mp4' });
    expect(await readVideoTags(out.body)).toMatchObject({ comment: 'AI-generated', title: `fitting-room:generation:${GENERATION}` });
    expect(await cornerDiff(await firstFrame(out.body), await firstFrame(mp4), 320, 480)).toBeGreaterThan(8);
  }, 30_000);

  it('tags a preview video as a preview, without an AI label', async () => {
    const jpeg = await sharp(await picture())
      .jpeg()
      .toBuffer();
    const mp4 = await stillToVideo(jpeg, { width: 160, height: 240, seconds: 0.4 });
    const out = await processResult(mp4, { type: 'video', watermark: false, appName: 'Fitting Room', origin: 'preview' });
    expect(await readVideoTags(out.body)).toMatchObject({ comment: 'Preview, not AI-generated' });
  }, 20_000);
});

describe('the dot-matrix lettering and the watermark', () => {
  it('draws any text with the glyphs it has', () => {
    expect(normalizeDotText('Café № 5!')).toBe('CAFE   5!');
    expect(measureDotText('AB', 10)).toEqual({ width: 110, height: 70 });
    expect(dotTextPath('I', 0, 0, 1)).toMatch(/^<path d="M/);
    expect(dotTextPath('   ', 0, 0, 1)).toBe('');
  });

  it('is an SVG of exactly the picture size that sharp renders', async () => {
    const svg = watermarkSvg(300, 500, 'Fitting Room');
    expect(svg).toContain('width="300" height="500"');
    expect(await sharp(Buffer.from(svg)).metadata()).toMatchObject({ width: 300, height: 500 });
  });
});

describe('blendOverlay', () => {
  it('marks the pixels as libvips composite would, to within rounding', async () => {
    const width = 640;
    const height = 480;
    // a gradient, so that every channel value and every overlay opacity meet
    const base = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) {
      base[i * 3] = i % 256;
      base[i * 3 + 1] = (i >> 3) % 256;
      base[i * 3 + 2] = 255 - (i % 256);
    }
    const raw = { raw: { width, height, channels: 3 as const } };
    const svg = Buffer.from(overlaySvg(width, height, { grid: { appName: 'Fitting Room' }, badge: 'AI-generated' }));
    const byVips = await sharp(base, raw)
      .composite([{ input: await sharp(svg).png().toBuffer() }])
      .removeAlpha()
      .raw()
      .toBuffer();
    const byBlend = Buffer.from(base);
    blendOverlay(byBlend, await renderedOverlay(width, height, { grid: 'Fitting Room', badge: 'AI-generated' }));
    let changed = 0;
    let worst = 0;
    for (let i = 0; i < base.length; i++) {
      if (byBlend[i] !== base[i]) changed++;
      worst = Math.max(worst, Math.abs(byBlend[i] - byVips[i]));
    }
    expect(changed).toBeGreaterThan(base.length / 50); // the grid and the badge are there
    expect(worst).toBeLessThanOrEqual(2);
  });
});
