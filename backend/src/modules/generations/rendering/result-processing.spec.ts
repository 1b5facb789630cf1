import sharp from 'sharp';
import { readVideoTags, stillToVideo } from './ffmpeg';
import { processResult, ResultRejectedError } from './result-processing';
import { watermarkSvg } from './watermark';
import { dotTextPath, measureDotText, normalizeDotText } from './dot-font';

const picture = () => sharp({ create: { width: 400, height: 600, channels: 3, background: '#406080' } }).png().toBuffer();

async function meanDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).removeAlpha().raw().toBuffer()));
  let s = 0;
  for (let i = 0; i < x.length; i++) s += Math.abs(x[i] - y[i]);
  return s / x.length;
}

describe('processResult', () => {
  it('stores an image as a JPEG tagged AI-generated (EXIF and IPTC digital source type in XMP)', async () => {
    const out = await processResult(await picture(), { type: 'image', watermark: false, appName: 'Fitting Room' });
    expect(out).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg' });
    const meta = await sharp(out.body).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 400, height: 600 });
    expect(meta.exif?.toString('latin1')).toContain('AI-generated');
    expect(meta.exif?.toString('latin1')).toContain('Fitting Room');
    expect(meta.xmp?.toString()).toContain('http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia');
  });

  it('watermarks only when asked (the free tier)', async () => {
    const source = await picture();
    const plain = await processResult(source, { type: 'image', watermark: false, appName: 'Fitting Room' });
    const marked = await processResult(source, { type: 'image', watermark: true, appName: 'Fitting Room' });
    expect(await meanDiff(plain.body, source)).toBeLessThan(1.5);
    expect(await meanDiff(marked.body, source)).toBeGreaterThan(2);
  });

  it('refuses what is not an image or an MP4', async () => {
    await expect(processResult(Buffer.from('<html>'), { type: 'image', watermark: false, appName: 'x' })).rejects.toBeInstanceOf(ResultRejectedError);
    await expect(processResult(Buffer.alloc(0), { type: 'image', watermark: false, appName: 'x' })).rejects.toBeInstanceOf(ResultRejectedError);
    await expect(processResult(await picture(), { type: 'video', watermark: false, appName: 'x' })).rejects.toBeInstanceOf(ResultRejectedError);
  });

  it('tags a video in its container without re-encoding it', async () => {
    const jpeg = await sharp(await picture()).jpeg().toBuffer();
    const mp4 = await stillToVideo(jpeg, { width: 160, height: 240, seconds: 0.4 });
    const out = await processResult(mp4, { type: 'video', watermark: false, appName: 'Fitting Room' });
    expect(out).toMatchObject({ contentType: 'video/mp4', extension: 'mp4' });
    expect(await readVideoTags(out.body)).toMatchObject({ comment: 'AI-generated' });
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
