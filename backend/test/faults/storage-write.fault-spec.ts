/**
 * The object storage (S3, here the fake S3 speaking its protocol) refuses writes, as S3 does when
 * it is overloaded (503 SlowDown) or failing (500 InternalError), under the real API and worker
 * processes. No generation completes without its file, its hold is released, nothing is charged;
 * an upload answers 503 and records nothing; when writes work again, everything does.
 */
import { IMAGE_START, photoJpeg } from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import { FakeS3Server } from '../storage/fake-s3.server';
import { expectSettledCleanly, openDb, personWithPhoto, report, settled, Stack, waitUntilEnded } from './fault-kit';
import { HoldingFashn } from './holding-fashn';
import type { DataSource } from 'typeorm';

const BUCKET = 'fault-photos';
const CREDENTIALS = { accessKeyId: 'AKIAFAULTSUITE', secretAccessKey: 'fault-suite-secret-key-0123456789' };
/** the image budget (AI_IMAGE_DEADLINE_SECONDS): a generation whose result cannot be stored fails at its deadline */
const DEADLINE_SECONDS = 12;

describe('storage failing on write', () => {
  const vendor = new HoldingFashn();
  let s3: FakeS3Server;
  let stack: Stack;
  let db: DataSource;
  const figures: Record<string, string> = {};
  const stored = (key: string) => s3.buckets.get(BUCKET)!.has(key);

  beforeAll(async () => {
    await vendor.start();
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'completed' } };
    s3 = await FakeS3Server.start({ ...CREDENTIALS, buckets: [BUCKET] });
    db = await openDb(testDatabaseUrl());
    stack = new Stack({
      databaseUrl: testDatabaseUrl(),
      redisUrl: testRedisUrl(),
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        PROVIDER_INPUTS: 'url', // HoldingFashn tells people apart by their photo links
        AI_REQUEST_TIMEOUT_MS: '3000',
        AI_POLL_INTERVAL_MS: '300',
        AI_RETRY_BASE_MS: '200',
        AI_POLL_MAX_INTERVAL_MS: '300',
        AI_IMAGE_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: s3.url,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    await stack.start();
  }, 120_000);

  afterEach(() => {
    s3.failWrites = null;
  });

  afterAll(async () => {
    report('Storage failing on write (API and worker processes, fake S3 answering 503 SlowDown / 500 InternalError)', figures);
    await stack?.close();
    await db?.destroy();
    await s3?.stop();
    await vendor.stop();
  });

  it('results cannot be written: the generation never completes without its file, fails cleanly, and the next one completes once writes work', async () => {
    const who = await personWithPhoto(stack.http, db);
    s3.failWrites = { keys: /\/results\//, status: 503 };
    const refusedBefore = s3.refusedWrites;
    const first = await stack.http
      .post('/api/generations')
      .set(bearer(who.accessToken))
      .send({ ...IMAGE_START, upload_ids: [who.photo] });
    expect(first.status).toBe(202);
    await waitUntilEnded(db, first.body.id, 60_000);
    const failed = await settled(db, stored, first.body.id);
    expectSettledCleanly(failed);
    expect(failed.status).toBe('failed');
    expect(s3.refusedWrites - refusedBefore).toBeGreaterThan(0);
    expect([...s3.buckets.get(BUCKET)!.keys()].some((k) => k.includes(first.body.id))).toBe(false);
    const [{ error }] = await db.query(`SELECT error FROM user_generations WHERE id = $1`, [first.body.id]);
    expect(error).toBe('Generation failed');
    const api = await stack.http.get(`/api/generations/${first.body.id}`).set(bearer(who.accessToken));
    expect(api.body).toMatchObject({ status: 'failed' });
    figures['result writes refused (503)'] =
      `generation failed "${error}", charged ${failed.charges}, open holds ${failed.openHolds}, result stored: ${failed.fileStored}; S3 refused ${s3.refusedWrites - refusedBefore} writes`;

    s3.failWrites = null;
    const second = await stack.http
      .post('/api/generations')
      .set(bearer(who.accessToken))
      .send({ ...IMAGE_START, upload_ids: [who.photo] });
    expect(second.status).toBe(202);
    await waitUntilEnded(db, second.body.id, 60_000);
    const ok = await settled(db, stored, second.body.id);
    expectSettledCleanly(ok);
    expect(ok.status).toBe('completed');
    figures['writes work again'] = `the next generation completed, charged ${ok.charges}, its file stored: ${ok.fileStored}`;
  });

  it('photos cannot be written: the upload answers 503 at once, records nothing, takes nothing from the allowance; then uploads work', async () => {
    const who = await personWithPhoto(stack.http, db);
    s3.failWrites = { keys: /\/uploads\//, status: 500 };
    const t0 = Date.now();
    const refused = await stack.http
      .post('/api/uploads')
      .set(bearer(who.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', await photoJpeg(), { filename: 'me.jpg', contentType: 'image/jpeg' });
    const ms = Date.now() - t0;
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is temporarily unavailable. Please try again.',
    });
    expect(refused.headers['retry-after']).toBe('5');
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [who.userId]);
    expect(n).toBe(1); // the photo personWithPhoto uploaded before
    const usage = await stack.http.get('/api/uploads/usage').set(bearer(who.accessToken)).expect(200);
    expect(usage.body.photos_this_hour).toBe(1);
    figures['photo writes refused (500)'] = `upload answered ${refused.status} in ${ms} ms; rows added 0; allowance taken 0`;

    s3.failWrites = null;
    const ok = await stack.http
      .post('/api/uploads')
      .set(bearer(who.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', await photoJpeg(), { filename: 'me.jpg', contentType: 'image/jpeg' });
    expect(ok.status).toBe(201);
  });
});
