/**
 * POST/GET/DELETE /api/uploads through the real pipes, guards and filter, against the real
 * PostgreSQL and local storage. Bad files are judged by their bytes; each refusal answers the
 * catalogue's error and stores nothing; a stored photo carries no metadata; its signed URL is
 * refused once altered or expired.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import sharp from 'sharp';
import { createGenerationApp, person, type GenerationApp } from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import type { Test as SupertestRequest } from 'supertest';

const NOT_AN_IMAGE = { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Please upload image files only' };
const TOO_LARGE = { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'File size must be less than 10MB' };
const TOO_MANY = { statusCode: 400, code: 'VALIDATION_ERROR', message: 'You can upload at most 5 photos' };
const TOO_MANY_PIXELS = { statusCode: 400, code: 'VALIDATION_ERROR', message: 'This photo is too large: at most 40 megapixels' };
const CONFIRM = {
  statusCode: 400,
  code: 'VALIDATION_ERROR',
  message: 'Please confirm that the photos show you and that you are 18 or older',
};

interface FileSpec {
  name: string;
  type: string;
  bytes: Buffer;
}

const solid = (width: number, height: number, colour = '#7aa6c2') => sharp({ create: { width, height, channels: 3, background: colour } });

/** Pixels with grain, which compress about as badly as a real photo's (a flat colour over 4 MP is refused). */
const grainy = (width: number, height: number) => {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = 90 + (((i * 2654435761) >>> 26) & 31);
  return sharp(pixels, { raw: { width, height, channels: 3 } });
};

/** A PNG whose header declares `width` x `height` (CRC fixed), with almost no pixel data: a decompression bomb. */
async function pixelBombPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solid(1, 1).png().toBuffer());
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

/** A JPEG whose SOF0 marker declares `width` x `height`. */
async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await solid(16, 16).jpeg().toBuffer());
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2)) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error('no SOF marker');
}

function post(
  t: GenerationApp,
  who: SignedIn,
  files: FileSpec[],
  fields: Record<string, string> = { confirm_own_photos: 'true' },
  fieldName = 'files',
): SupertestRequest {
  let req = t.http.post('/api/uploads').set(bearer(who.accessToken));
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  for (const f of files) req = req.attach(fieldName, f.bytes, { filename: f.name, contentType: f.type });
  return req;
}

describe('uploads', () => {
  let t: GenerationApp;
  let jpeg: Buffer;

  const storedFiles = (userId: string): string[] => {
    const dir = path.join(t.config.storage.localDir, 'objects', 'users', userId, 'uploads');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const rows = async (userId: string): Promise<number> =>
    (await t.db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [userId]))[0].n;
  /** Links handed to the browser are host-relative (they load from whatever host the app was opened on). */
  const local = (url: string) => {
    expect(url).toMatch(/^\/api\/files\/users\//);
    return url;
  };
  const pathOf = (u: URL) => `${u.pathname}${u.search}`;

  beforeAll(async () => {
    t = await createGenerationApp({ driver: 'in-process' });
    jpeg = await solid(640, 480).jpeg().toBuffer();
  });
  afterAll(async () => t?.close());

  describe('refuses bad uploads with the catalogue error, storing nothing', () => {
    let who: SignedIn;
    beforeAll(async () => {
      who = await person(t);
    });
    afterEach(async () => {
      expect(await rows(who.userId)).toBe(0);
      expect(storedFiles(who.userId)).toEqual([]);
    });

    const good = (): FileSpec => ({ name: 'ok.jpg', type: 'image/jpeg', bytes: jpeg });
    const cases: Array<[string, () => Promise<{ files: FileSpec[]; fields?: Record<string, string>; field?: string }>, object]> = [
      [
        'text renamed .jpg',
        async () => ({ files: [{ name: 'me.jpg', type: 'image/jpeg', bytes: Buffer.from('just some text, not a picture\n') }] }),
        NOT_AN_IMAGE,
      ],
      [
        'a truncated JPEG',
        async () => ({ files: [{ name: 'cut.jpg', type: 'image/jpeg', bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)) }] }),
        NOT_AN_IMAGE,
      ],
      [
        'a PNG declaring 50000x50000 (pixel bomb)',
        async () => ({ files: [{ name: 'bomb.png', type: 'image/png', bytes: await pixelBombPng(50000, 50000) }] }),
        TOO_MANY_PIXELS,
      ],
      [
        'a JPEG declaring 10000x10000',
        async () => ({ files: [{ name: 'big.jpg', type: 'image/jpeg', bytes: await jpegDeclaring(10000, 10000) }] }),
        TOO_MANY_PIXELS,
      ],
      [
        'an SVG',
        async () => ({
          files: [
            {
              name: 'x.svg',
              type: 'image/svg+xml',
              bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
            },
          ],
        }),
        NOT_AN_IMAGE,
      ],
      [
        'an SVG named .png',
        async () => ({
          files: [
            { name: 'x.png', type: 'image/png', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>') },
          ],
        }),
        NOT_AN_IMAGE,
      ],
      [
        'a polyglot: JPEG header then HTML',
        async () => ({
          files: [
            {
              name: 'poly.jpg',
              type: 'image/jpeg',
              bytes: Buffer.concat([
                Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
                Buffer.from('<html><script>alert(document.cookie)</script></html>'),
              ]),
            },
          ],
        }),
        NOT_AN_IMAGE,
      ],
      ['a GIF', async () => ({ files: [{ name: 'a.gif', type: 'image/gif', bytes: await solid(20, 20).gif().toBuffer() }] }), NOT_AN_IMAGE],
      [
        'a GIF named .jpg',
        async () => ({ files: [{ name: 'a.jpg', type: 'image/jpeg', bytes: await solid(20, 20).gif().toBuffer() }] }),
        NOT_AN_IMAGE,
      ],
      [
        'a TIFF',
        async () => ({ files: [{ name: 'a.tiff', type: 'image/tiff', bytes: await solid(20, 20).tiff().toBuffer() }] }),
        NOT_AN_IMAGE,
      ],
      [
        'an AVIF',
        async () => ({ files: [{ name: 'a.avif', type: 'image/avif', bytes: await solid(32, 32).avif().toBuffer() }] }),
        NOT_AN_IMAGE,
      ],
      [
        'text named .heic',
        async () => ({ files: [{ name: 'IMG_0001.heic', type: 'image/heic', bytes: Buffer.from('ftypheic but really just text') }] }),
        NOT_AN_IMAGE,
      ],
      [
        'a PDF named .jpg',
        async () => ({ files: [{ name: 'scan.jpg', type: 'image/jpeg', bytes: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF') }] }),
        NOT_AN_IMAGE,
      ],
      [
        'HTML named .png',
        async () => ({ files: [{ name: 'page.png', type: 'image/png', bytes: Buffer.from('<!doctype html><h1>hi</h1>') }] }),
        NOT_AN_IMAGE,
      ],
      [
        'a PNG with corrupt pixel data',
        async () => {
          const png = Buffer.from(await solid(400, 400).png().toBuffer());
          png.fill(0x41, 60, png.length - 12);
          return { files: [{ name: 'bad.png', type: 'image/png', bytes: png }] };
        },
        NOT_AN_IMAGE,
      ],
      [
        'a WebP header with garbage',
        async () => ({
          files: [
            {
              name: 'w.webp',
              type: 'image/webp',
              bytes: Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(64, 7)]),
            },
          ],
        }),
        NOT_AN_IMAGE,
      ],
      ['an empty file', async () => ({ files: [{ name: 'empty.jpg', type: 'image/jpeg', bytes: Buffer.alloc(0) }] }), NOT_AN_IMAGE],
      [
        'an 11 MB file',
        async () => ({ files: [{ name: 'huge.jpg', type: 'image/jpeg', bytes: Buffer.concat([jpeg, Buffer.alloc(11 * 1024 * 1024)]) }] }),
        TOO_LARGE,
      ],
      [
        'exactly 10 MB',
        async () => ({
          files: [{ name: 'ten.jpg', type: 'image/jpeg', bytes: Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024 - jpeg.length)]) }],
        }),
        TOO_LARGE,
      ],
      ['6 files', async () => ({ files: Array.from({ length: 6 }, good) }), TOO_MANY],
      [
        'one good photo and one bad file (the batch is refused whole)',
        async () => ({ files: [good(), { name: 'b.jpg', type: 'image/jpeg', bytes: Buffer.from('nope') }] }),
        NOT_AN_IMAGE,
      ],
      ['a missing confirmation', async () => ({ files: [good()], fields: {} }), CONFIRM],
      ['a refused confirmation', async () => ({ files: [good()], fields: { confirm_own_photos: 'false' } }), CONFIRM],
      [
        'the wrong field name',
        async () => ({ files: [good()], field: 'photo' }),
        { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Send the photos in the form field "files"' },
      ],
      [
        'no file at all',
        async () => ({ files: [] }),
        { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Please choose at least one photo to upload' },
      ],
      [
        'an unknown form field',
        async () => ({ files: [good()], fields: { confirm_own_photos: 'true', user_id: 'someone-else' } }),
        { statusCode: 400, code: 'VALIDATION_ERROR' },
      ],
    ];

    it.each(cases)('%s', async (_label, build, expected) => {
      const { files, fields, field } = await build();
      const res = await post(t, who, files, fields ?? { confirm_own_photos: 'true' }, field ?? 'files');
      expect(res.body).toMatchObject(expected);
      expect(res.status).toBe((expected as { statusCode: number }).statusCode);
    });

    it('a body that is not multipart', async () => {
      const res = await t.http.post('/api/uploads').set(bearer(who.accessToken)).send({ confirm_own_photos: 'true' });
      expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: 'Please choose at least one photo to upload' });
    });

    it('a broken multipart body', async () => {
      const res = await t.http
        .post('/api/uploads')
        .set(bearer(who.accessToken))
        .set('Content-Type', 'multipart/form-data; boundary=xyz')
        .send('--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\n\r\nunterminated');
      expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: 'The upload is not a valid multipart form' });
    });

    it('anonymous callers', async () => {
      const res = await t.http.post('/api/uploads').field('confirm_own_photos', 'true').attach('files', jpeg, 'a.jpg');
      expect(res.status).toBe(401);
    });
  });

  it('stores a clean copy: orientation applied, long side capped, no EXIF or GPS; answers ids with signed URLs', async () => {
    const who = await person(t);
    // 3000x2000 landscape pixels shown rotated 90° (EXIF orientation 6), with GPS and a camera model
    const withGps = await grainy(3000, 2000)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneCo', Model: 'Secret Phone 9' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 0/1' }, // IFD3 = GPS
      })
      .toBuffer();
    const original = await sharp(withGps).metadata();
    expect(original.exif?.toString('latin1')).toContain('Secret Phone 9');
    expect(original.orientation).toBe(6);
    const gpsPointer = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])); // tag 0x8825: GPS IFD
    expect(gpsPointer(original.exif!)).toBe(true);

    const png = await sharp({ create: { width: 390, height: 520, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const webp = await solid(500, 500).webp().toBuffer();
    // a valid JPEG with a script appended: accepted, but nothing of the script is kept
    const tail = Buffer.concat([jpeg, Buffer.from('<script>alert(1)</script>')]);
    const res = await post(t, who, [
      { name: 'gps.jpg', type: 'image/jpeg', bytes: withGps },
      { name: 'alpha.png', type: 'image/png', bytes: png },
      { name: 'photo.webp', type: 'application/octet-stream', bytes: webp },
      { name: 'tail.jpg', type: 'image/jpeg', bytes: tail },
      { name: 'no-extension', type: 'text/plain', bytes: jpeg },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.uploads.map((u: { width: number; height: number }) => [u.width, u.height])).toEqual([
      [1365, 2048], // rotated to portrait, long side 2048
      [390, 520],
      [500, 500],
      [640, 480],
      [640, 480],
    ]);
    const [first] = res.body.uploads;
    expect(Object.keys(first).sort()).toEqual(['created_at', 'height', 'id', 'url', 'width']);

    const [row] = await t.db.query(`SELECT storage_key, size_bytes FROM uploads WHERE id = $1`, [first.id]);
    expect(row.storage_key).toBe(`users/${who.userId}/uploads/${first.id}.jpg`);
    const stored = fs.readFileSync(path.join(t.config.storage.localDir, 'objects', row.storage_key));
    expect(stored.length).toBe(row.size_bytes);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1365, height: 2048 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(stored.toString('latin1')).not.toMatch(/Secret Phone|PhoneCo|Exif/);
    expect(stored.includes(Buffer.from([0xff, 0xe1]))).toBe(false); // no APP1 segment (EXIF, GPS, XMP) at all

    const all = await t.db.query(`SELECT storage_key FROM uploads WHERE user_id = $1`, [who.userId]);
    for (const { storage_key: key } of all) {
      const bytes = fs.readFileSync(path.join(t.config.storage.localDir, 'objects', key));
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(bytes.toString('latin1')).not.toContain('<script');
    }

    // the signed URL serves it; the same link altered, or after it expired, is refused
    const link = local(first.url);
    const ok = await t.http.get(link).expect(200);
    expect(ok.headers['content-type']).toBe('image/jpeg');
    const refused = { statusCode: 403, code: 'FORBIDDEN', message: 'This link has expired or is invalid.' };
    const u = new URL(first.url, 'http://any-host');
    const sig = u.searchParams.get('sig')!;
    const tampered = new URL(u);
    // the first character: the last one of a base64url HMAC carries padding bits that decode alike
    tampered.searchParams.set('sig', `${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`);
    expect((await t.http.get(pathOf(tampered))).body).toEqual(refused);
    const otherKey = first.url.replace(first.id, res.body.uploads[1].id);
    expect((await t.http.get(local(otherKey))).body).toEqual(refused);
    const longer = new URL(u);
    longer.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 3600));
    expect((await t.http.get(pathOf(longer))).body).toEqual(refused);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 16 * 60 * 1000);
    try {
      expect((await t.http.get(link)).body).toEqual(refused);
    } finally {
      clock.mockRestore();
    }
  });

  it('GET and DELETE work on my own photos only', async () => {
    const [me, other] = [await person(t), await person(t)];
    const res = await post(t, me, [{ name: 'a.jpg', type: 'image/jpeg', bytes: jpeg }]).expect(201);
    const id = res.body.uploads[0].id as string;

    const mine = await t.http.get(`/api/uploads/${id}`).set(bearer(me.accessToken)).expect(200);
    expect(mine.body).toMatchObject({ id, width: 640, height: 480 });
    expect((await t.http.get(local(mine.body.url))).status).toBe(200);

    const notFound = { statusCode: 404, code: 'RECORD_NOT_FOUND', message: 'Photo not found.' };
    expect((await t.http.get(`/api/uploads/${id}`).set(bearer(other.accessToken))).body).toEqual(notFound);
    expect((await t.http.delete(`/api/uploads/${id}`).set(bearer(other.accessToken))).body).toEqual(notFound);
    expect((await t.http.get('/api/uploads/not-a-uuid').set(bearer(me.accessToken))).body).toEqual(notFound);
    expect(storedFiles(me.userId)).toHaveLength(1);

    await t.http.delete(`/api/uploads/${id}`).set(bearer(me.accessToken)).expect(204);
    expect(storedFiles(me.userId)).toEqual([]);
    expect(await rows(me.userId)).toBe(0);
    expect((await t.http.get(`/api/uploads/${id}`).set(bearer(me.accessToken))).status).toBe(404);
    expect((await t.http.get(local(mine.body.url))).status).toBe(404);
  });
});
