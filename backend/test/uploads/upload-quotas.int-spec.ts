/**
 * Upload quotas per account and the bound on image work, through the real app on the real
 * PostgreSQL and Redis (BullMQ driver: the hourly counters live in Redis, shared by every API
 * process). Counted on the bytes received; a refused batch takes nothing from the allowance and
 * stores nothing; racing uploads cannot pass a limit together; a small file declaring a huge canvas
 * is refused on its header, and the API keeps answering while a burst of them arrives.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import sharp from 'sharp';
import { IMAGE_WORK_GATE, type WorkGate } from '../../src/common/concurrency';
import { AUTH_RATE_LIMIT_STORAGE } from '../../src/modules/auth/rate-limit/auth-rate-limit';
import { createGenerationApp, person, type GenerationApp } from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import type { RateLimitStore } from '../../src/modules/auth/rate-limit/redis-throttler.storage';

/** A JPEG with grain (it compresses as a photo does), of about `kb` kB, and at least 400 px a side (the smallest photo accepted is 384). */
async function grainyJpeg(kb: number, seed = 1): Promise<Buffer> {
  const side = Math.max(400, Math.round(Math.sqrt(kb * 1024 * 2.2)));
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (((i + seed) * 2654435761) >>> 24) & 255;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** A PNG of `width` x `height` in flat colour at the strongest compression: a few hundred pixels per byte. */
const flatPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c8a27a' } })
    .png({ compressionLevel: 9 })
    .toBuffer();

const upload = (t: GenerationApp, who: SignedIn, ...files: Buffer[]) => {
  let req = t.http.post('/api/uploads').set(bearer(who.accessToken)).field('confirm_own_photos', 'true');
  files.forEach((bytes, i) => (req = req.attach('files', bytes, { filename: `p${i}.jpg`, contentType: 'image/jpeg' })));
  return req;
};
const usage = async (t: GenerationApp, who: SignedIn) =>
  (await t.http.get('/api/uploads/usage').set(bearer(who.accessToken)).expect(200)).body;
const rowCount = async (t: GenerationApp, who: SignedIn): Promise<number> =>
  (await t.db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [who.userId]))[0].n;
const storedFiles = (t: GenerationApp, who: SignedIn): number => {
  const dir = path.join(t.config.storage.localDir, 'objects', 'users', who.userId, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
};

describe('upload quotas: photos an hour', () => {
  let t: GenerationApp;
  let photo: Buffer;
  beforeAll(async () => {
    t = await createGenerationApp({ driver: 'bullmq', env: { UPLOAD_QUOTA_PHOTOS_PER_HOUR: '3' } });
    photo = await grainyJpeg(40);
  });
  afterAll(async () => t?.close());

  it('counts accepted photos, refuses the batch that would pass the limit with 429 and Retry-After, and shows the usage', async () => {
    const me = await person(t);
    expect(await usage(t, me)).toMatchObject({
      photos_this_hour: 0,
      photos_per_hour: 3,
      bytes_this_hour: 0,
      bytes_kept: 0,
      hour_resets_at: null,
    });

    await upload(t, me, photo, photo).expect(201);
    const after = await usage(t, me);
    expect(after).toMatchObject({ photos_this_hour: 2, bytes_this_hour: photo.length * 2, bytes_kept: photo.length * 2 });
    const resetsIn = Date.parse(after.hour_resets_at) - Date.now();
    expect(resetsIn).toBeGreaterThan(3500_000);
    expect(resetsIn).toBeLessThanOrEqual(3600_000);

    const refused = await upload(t, me, photo, photo);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'You can upload 3 photos an hour. Please try again in 60 minutes.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await rowCount(t, me)).toBe(2);
    expect((await usage(t, me)).photos_this_hour).toBe(2); // the refused batch took nothing

    await upload(t, me, photo).expect(201);
    // spent: refused before the body is read
    const spent = await upload(t, me, photo);
    expect(spent.status).toBe(429);
    expect(await rowCount(t, me)).toBe(3);
    expect(storedFiles(t, me)).toBe(3);

    // someone else's allowance is their own
    await upload(t, await person(t), photo, photo, photo).expect(201);
  });

  it('a refused photo in a batch takes nothing from the allowance', async () => {
    const me = await person(t);
    await upload(t, me, photo, Buffer.from('not an image at all')).expect(400);
    expect((await usage(t, me)).photos_this_hour).toBe(0);
    await upload(t, me, photo, photo, photo).expect(201);
  });

  it('racing uploads cannot pass the limit together (the count is atomic in Redis)', async () => {
    const me = await person(t);
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(t, me, photo)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    expect(await rowCount(t, me)).toBe(3);
    expect((await usage(t, me)).photos_this_hour).toBe(3);
  });
});

describe('upload quotas: megabytes an hour and megabytes kept', () => {
  let t: GenerationApp;
  let photo: Buffer; // about 400 kB
  beforeAll(async () => {
    t = await createGenerationApp({ driver: 'bullmq', env: { UPLOAD_QUOTA_MB_PER_HOUR: '1', UPLOAD_QUOTA_MB_KEPT: '1' } });
    photo = await grainyJpeg(400);
    expect(photo.length).toBeGreaterThan(300 * 1024);
    expect(photo.length).toBeLessThan(500 * 1024);
  });
  afterAll(async () => t?.close());

  it('megabytes an hour are counted on the bytes received: 429 with the limit in words', async () => {
    const me = await person(t);
    await upload(t, me, photo).expect(201);
    await t.db.query(`DELETE FROM uploads WHERE user_id = $1`, [me.userId]); // room to keep: only the hourly limit speaks
    await upload(t, me, photo).expect(201);
    await t.db.query(`DELETE FROM uploads WHERE user_id = $1`, [me.userId]);
    const refused = await upload(t, me, photo);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('You can upload 1 MB of photos an hour. Please try again in 60 minutes.');
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('megabytes kept: 413 PAYLOAD_TOO_LARGE that says what to do; room comes back when a photo is deleted', async () => {
    const me = await person(t);
    const first = await upload(t, me, photo).expect(201);
    await clearHourly(t, me);
    await upload(t, me, photo).expect(201);
    await clearHourly(t, me);
    const refused = await upload(t, me, photo);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message:
        'Your photos have reached your 1 MB of storage. Photos are deleted 30 days after their last use; remove photos you no longer need to upload more.',
    });
    expect(await rowCount(t, me)).toBe(2);
    expect(storedFiles(t, me)).toBe(2);
    expect((await usage(t, me)).bytes_kept).toBe(photo.length * 2);

    await t.http.delete(`/api/uploads/${first.body.uploads[0].id}`).set(bearer(me.accessToken)).expect(204);
    await upload(t, me, photo).expect(201);
  });

  it('racing uploads cannot pass the storage allowance together (a per-account lock in the recording transaction)', async () => {
    const me = await person(t);
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(t, me, photo)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(2);
    expect(answers.filter((r) => r.status === 201 || r.status === 413 || r.status === 429)).toHaveLength(5);
    expect(await rowCount(t, me)).toBe(2);
    expect(storedFiles(t, me)).toBe(2); // the refused ones' files were removed again
  });
});

describe('image work: bounded per process, checked cheaply first', () => {
  let t: GenerationApp;
  let gate: WorkGate;
  beforeAll(async () => {
    t = await createGenerationApp({ driver: 'in-process', env: { IMAGE_WORK_CONCURRENCY: '1', IMAGE_WORK_QUEUE: '0' } });
    gate = t.app.get<WorkGate>(IMAGE_WORK_GATE);
  });
  afterAll(async () => t?.close());

  it('when every slot is taken, an upload answers 503 with Retry-After at once, stores nothing and takes nothing from the allowance', async () => {
    const me = await person(t);
    const photo = await grainyJpeg(30);
    let release!: () => void;
    const busy = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const refused = await upload(t, me, photo);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'We are processing many photos right now. Please try again in a moment.',
      });
      expect(refused.headers['retry-after']).toBe('2');
      expect(await rowCount(t, me)).toBe(0);
      expect((await usage(t, me)).photos_this_hour).toBe(0);
    } finally {
      release();
      await busy;
    }
    await upload(t, me, photo).expect(201);
  });

  it('20 parallel small PNGs declaring nearly 40 MP are refused on their headers, and /api/health keeps answering', async () => {
    const me = await person(t);
    const bomb = await flatPng(6300, 6300); // 39.7 MP in about 130 kB
    expect(bomb.length).toBeLessThan(200 * 1024);
    const burst = Promise.all(Array.from({ length: 20 }, () => upload(t, me, bomb)));
    const health = await t.http.get('/api/health/live');
    expect(health.status).toBe(200);
    const answers = await burst;
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(400));
    expect(answers[0].body.message).toBe(
      'This file declares far more pixels than a photo of its size holds. Please upload an ordinary photo.',
    );
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    expect(await rowCount(t, me)).toBe(0);
  });

  it('a PNG whose header declares more than 40 MP is refused before anything is decoded', async () => {
    const me = await person(t);
    const png = Buffer.from(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    );
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)) >>> 0, 29);
    const res = await upload(t, me, png);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This photo is too large: at most 40 megapixels');
  });
});

/** Forgets the hourly counters of a person, so a test can speak of the storage allowance alone. */
async function clearHourly(t: GenerationApp, who: SignedIn): Promise<void> {
  const store = t.app.get<RateLimitStore>(AUTH_RATE_LIMIT_STORAGE, { strict: false });
  await store.clear(`upload-photos:${who.userId}`);
  await store.clear(`upload-bytes:${who.userId}`);
}
