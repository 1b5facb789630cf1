import sharp from 'sharp';
import { acceptPhoto, inspectPhoto, PhotoRejectedError, sniffImageFormat, UPLOAD_LIMITS } from './image-intake';

const solid = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#336699' } });

describe('sniffImageFormat: the bytes decide, not the name', () => {
  it('recognises JPEG, PNG and WebP by their magic numbers', async () => {
    expect(sniffImageFormat(await solid(4, 4).jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageFormat(await solid(4, 4).png().toBuffer())).toBe('png');
    expect(sniffImageFormat(await solid(4, 4).webp().toBuffer())).toBe('webp');
  });

  it.each([
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['text', Buffer.from('hello')],
    ['a RIFF that is not WebP', Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ', 'latin1')],
    ['two bytes of JPEG', Buffer.from([0xff, 0xd8])],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImageFormat(bytes)).toBeNull();
  });
});

describe('acceptPhoto', () => {
  it('caps the long side, keeps the aspect ratio and answers a JPEG without metadata', async () => {
    const big = await solid(4000, 1000).png().toBuffer();
    const out = await acceptPhoto(big);
    expect([out.width, out.height, out.sourceFormat]).toEqual([UPLOAD_LIMITS.maxLongSide, 512, 'png']);
    const meta = await sharp(out.jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 2048, height: 512 });
    expect(meta.exif).toBeUndefined();
  });

  it('never enlarges a small photo', async () => {
    const out = await acceptPhoto(await solid(300, 200).jpeg().toBuffer());
    expect([out.width, out.height]).toEqual([300, 200]);
  });

  it('refuses a canvas over the pixel limit before decoding it', async () => {
    const huge = await solid(1, 1).png().toBuffer();
    const bomb = Buffer.from(huge);
    bomb.writeUInt32BE(9000, 16);
    bomb.writeUInt32BE(9000, 20);
    await expect(acceptPhoto(bomb)).rejects.toMatchObject({ reason: expect.stringMatching(/tooManyPixels|notAnImage/) });
  });

  it('refuses a small file that declares a large canvas (bytes per pixel), on its header alone', async () => {
    const flat = await solid(6000, 6000).png({ compressionLevel: 9 }).toBuffer(); // 36 MP in 117 kB
    await expect(inspectPhoto(flat)).rejects.toEqual(new PhotoRejectedError('implausible'));
  });

  it('accepts a photo-like file above 4 MP (noise compresses as badly as a real photo)', async () => {
    const [w, h] = [2600, 1700];
    const noise = Buffer.alloc(w * h * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const jpeg = await sharp(noise, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality: 40 })
      .toBuffer();
    expect(jpeg.length * UPLOAD_LIMITS.maxPixelsPerByte).toBeGreaterThan(w * h);
    await expect(inspectPhoto(jpeg)).resolves.toEqual({ format: 'jpeg', width: w, height: h });
  });

  it('refuses a file of 10 MB or more as too large', async () => {
    await expect(acceptPhoto(Buffer.alloc(UPLOAD_LIMITS.maxBytes))).rejects.toEqual(new PhotoRejectedError('tooLarge'));
  });

  it('refuses a JPEG whose body was cut', async () => {
    const jpeg = await solid(200, 200).jpeg().toBuffer();
    await expect(acceptPhoto(jpeg.subarray(0, jpeg.length - 40))).rejects.toEqual(new PhotoRejectedError('notAnImage'));
  });

  it('refuses a photo whose shorter side is under the minimum, naming its size and the minimum; the minimum itself passes', async () => {
    const photo = await solid(300, 500).jpeg().toBuffer();
    const refused = await inspectPhoto(photo, { minSide: 360 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PhotoRejectedError);
    expect(refused).toMatchObject({
      reason: 'tooSmall',
      message: 'This photo is too small (300x500). Use a photo at least 360 pixels on its shorter side, showing you clearly.',
    });
    await expect(inspectPhoto(photo, { minSide: 300 })).resolves.toEqual({ format: 'jpeg', width: 300, height: 500 });
    // no minimum unless told (the catalogue's own pictures, a reported copy)
    await expect(inspectPhoto(photo)).resolves.toMatchObject({ width: 300 });
    expect(UPLOAD_LIMITS.minSide).toBe(384);
  });

  it('names the size as the picture is shown: a phone photo turned by its EXIF orientation', async () => {
    // stored 500x120 with orientation 6 (turn a quarter clockwise): the person sees 120x500
    const turned = await solid(500, 120).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    await expect(inspectPhoto(turned, { minSide: 384 })).rejects.toMatchObject({
      message: 'This photo is too small (120x500). Use a photo at least 384 pixels on its shorter side, showing you clearly.',
    });
  });
});
