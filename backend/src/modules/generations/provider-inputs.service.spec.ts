import sharp from 'sharp';
import { fitsAsIs, fittedSize, isPubliclyReachable, jpegDataUri, prepareInputImage } from './provider-inputs.service';

const WAN_VIDEO = { minSide: 360, maxSide: 2000, acceptsDataUri: true };

describe('input images for a vendor', () => {
  it('fittedSize: the longer side down to maxSide, the shorter up to minSide when there is room, never over maxSide', () => {
    expect(fittedSize(4000, 3000, WAN_VIDEO)).toEqual({ width: 2000, height: 1500 });
    expect(fittedSize(2048, 1536, WAN_VIDEO)).toEqual({ width: 2000, height: 1500 });
    expect(fittedSize(1536, 2048, WAN_VIDEO)).toEqual({ width: 1500, height: 2000 });
    expect(fittedSize(800, 1000, WAN_VIDEO)).toEqual({ width: 800, height: 1000 });
    // a photo uploaded before a vendor with a higher minimum was configured is enlarged
    expect(fittedSize(300, 400, WAN_VIDEO)).toEqual({ width: 360, height: 480 });
    // a panorama cannot meet both: the longer side wins
    expect(fittedSize(4000, 500, WAN_VIDEO)).toEqual({ width: 2000, height: 250 });
  });

  it('prepareInputImage: a PNG with alpha becomes an opaque JPEG on white, fitted, upright by its EXIF orientation', async () => {
    const png = await sharp({ create: { width: 3000, height: 1000, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const { jpeg, width, height } = await prepareInputImage(png, WAN_VIDEO);
    const meta = await sharp(jpeg).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({
      format: 'jpeg',
      width: 2000,
      height: 667,
      hasAlpha: false,
    });
    expect({ width, height }).toEqual({ width: 2000, height: 667 });
    const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data.subarray(0, 300))).toBeGreaterThan(245); // white, not black

    // stored landscape, EXIF says "rotate 90°": sent upright as a portrait
    const rotated = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await prepareInputImage(rotated, WAN_VIDEO)).toMatchObject({ width: 1000, height: 2000 });
    expect(await fitsAsIs(rotated, { ...WAN_VIDEO, maxSide: 4096 })).toBe(false);
  });

  it('fitsAsIs: an upright JPEG within the spec is sent as stored; a PNG or an oversized JPEG is not', async () => {
    const jpeg = await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    expect(await fitsAsIs(jpeg, WAN_VIDEO)).toBe(true);
    expect(await fitsAsIs(await sharp(jpeg).png().toBuffer(), WAN_VIDEO)).toBe(false);
    expect(await fitsAsIs(await sharp(jpeg).resize(2048).jpeg().toBuffer(), WAN_VIDEO)).toBe(false);
    expect(jpegDataUri(Buffer.from([0xff, 0xd8, 0xff]))).toBe('data:image/jpeg;base64,/9j/');
  });

  it.each([
    ['http://localhost:3000/api/files/x', false],
    ['http://127.0.0.1:3000/api/files/x', false],
    ['http://[::1]:3000/x', false],
    ['http://10.1.2.3/x', false],
    ['http://172.16.0.1/x', false],
    ['http://172.31.255.1/x', false],
    ['http://192.168.1.20:3000/x', false],
    ['http://169.254.169.254/x', false],
    ['http://100.64.0.1/x', false],
    ['http://[fd12:3456::1]/x', false],
    ['http://[fe80::1]/x', false],
    ['http://[::ffff:127.0.0.1]/x', false],
    ['http://0.0.0.0:3000/x', false],
    ['http://my-laptop.local:3000/x', false],
    ['http://api.internal/x', false],
    ['http://api:3000/x', false],
    ['http://minio:9000/bucket/x', false],
    ['https://tryon.example.com/api/files/x', true],
    ['https://bucket.s3.eu-west-1.amazonaws.com/x', true],
    ['http://172.32.0.1/x', true],
    ['http://8.8.8.8/x', true],
    ['https://[2001:db8::1]/x', true],
    ['not a url', false],
  ])('isPubliclyReachable(%s) = %s', (url, expected) => {
    expect(isPubliclyReachable(url)).toBe(expected);
  });
});
