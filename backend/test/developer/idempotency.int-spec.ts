/**
 * `Idempotency-Key` on POST /api/generations and POST /api/uploads (docs/api.md), with the real
 * pipeline (the AI vendor replaced by its fake): a retry with the same key and body answers the
 * first answer and starts nothing; another body answers 422; retries at once give one start and one
 * charge; a failed first request keeps nothing; keys are each account's own.
 */
import { randomUUID } from 'node:crypto';
import { FakeAiProvider } from '../fakes/fake-ai-provider';
import {
  createGenerationApp,
  IMAGE_START,
  person,
  photoJpeg,
  uploadPhoto,
  waitForEnd,
  type GenerationApp,
} from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';

const REUSED = {
  statusCode: 422,
  code: 'IDEMPOTENCY_KEY_REUSED',
  message: 'This Idempotency-Key was used with another request. Use a new key for a new request.',
};

describe('Idempotency-Key', () => {
  let t: GenerationApp;
  const fake = new FakeAiProvider();

  beforeAll(async () => {
    t = await createGenerationApp({ driver: 'in-process', provider: fake });
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    fake.behaviour = { kind: 'succeed', polls: 0 };
  });

  const start = (who: SignedIn, body: object, key?: string) => {
    const req = t.http.post('/api/generations').set(bearer(who.accessToken));
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const books = async (userId: string) => {
    const [row] = await t.db.query(
      `SELECT (SELECT count(*)::int FROM user_generations WHERE user_id = $1) AS generations,
              (SELECT count(*)::int FROM credit_holds WHERE user_id = $1) AS holds,
              (SELECT coalesce(sum(-amount), 0)::int FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'generation_charge') AS charged`,
      [userId],
    );
    return row as { generations: number; holds: number; charged: number };
  };

  it('starts once for one key and one body: the retry answers the first answer, and one charge is made', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    const body = { ...IMAGE_START, upload_ids: [photo] };
    const key = randomUUID();
    const first = await start(who, body, key);
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await start(
      who,
      { upload_ids: [photo], scene_id: body.scene_id, template_id: body.template_id, category: body.category, type: 'image' },
      key,
    );
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    await waitForEnd(t, who, first.body.id);
    // after it ended too: still the first answer, nothing new
    const later = await start(who, body, key);
    expect(later.status).toBe(202);
    expect(later.body).toEqual(first.body);
    expect(await books(who.userId)).toEqual({ generations: 1, holds: 1, charged: first.body.cost });
  });

  it('answers 422 for the same key with another body, starting nothing', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    const key = randomUUID();
    const first = await start(who, { ...IMAGE_START, upload_ids: [photo] }, key);
    expect(first.status).toBe(202);
    await waitForEnd(t, who, first.body.id);
    const other = await start(who, { ...IMAGE_START, scene_id: 'poolside-standing', upload_ids: [photo] }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    expect((await books(who.userId)).generations).toBe(1);
    // the key of a start is not an upload's either
    const upload = await t.http
      .post('/api/uploads')
      .set(bearer(who.accessToken))
      .set('Idempotency-Key', key)
      .field('confirm_own_photos', 'true')
      .attach('files', await photoJpeg(), { filename: 'me.jpg', contentType: 'image/jpeg' });
    expect(upload.status).toBe(422);
  });

  it('gives ten retries at once one start and one hold; each is the first answer or 409 while it is still being answered', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    const body = { ...IMAGE_START, upload_ids: [photo] };
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => start(who, body, key)));
    const started = answers.filter((a) => a.status === 202);
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(new Set(started.map((a) => a.body.id)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 202)) {
      expect(a.body).toEqual({
        statusCode: 409,
        code: 'IDEMPOTENCY_KEY_IN_USE',
        message: 'A request with this Idempotency-Key is still in progress. Retry in a moment.',
      });
    }
    const settled = await start(who, body, key);
    expect(settled.body.id).toBe(started[0].body.id);
    expect(await books(who.userId)).toMatchObject({ generations: 1, holds: 1 });
  });

  it('keeps nothing of a failed first request: the retry runs afresh', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    const key = randomUUID();
    const refused = await start(who, { ...IMAGE_START, template_id: 'bikini-nope', upload_ids: [photo] }, key);
    expect(refused.status).toBe(400);
    const retried = await start(who, { ...IMAGE_START, upload_ids: [photo] }, key);
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it("is each account's own: another person's same key starts their own generation", async () => {
    const [a, b] = [await person(t), await person(t)];
    const key = randomUUID();
    const ga = await start(a, { ...IMAGE_START, upload_ids: [await uploadPhoto(t, a)] }, key);
    const gb = await start(b, { ...IMAGE_START, upload_ids: [await uploadPhoto(t, b)] }, key);
    expect([ga.status, gb.status]).toEqual([202, 202]);
    expect(ga.body.id).not.toBe(gb.body.id);
    expect(gb.body.user_id).toBe(b.userId);
  });

  it('refuses a key that is not 1 to 255 printable characters, starting nothing', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    for (const key of ['x'.repeat(256), 'has space']) {
      const res = await start(who, { ...IMAGE_START, upload_ids: [photo] }, key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await books(who.userId)).generations).toBe(0);
  });

  it('makes an upload once for one key and the same files: the retry answers the same photos, another file 422', async () => {
    const who = await person(t);
    const key = randomUUID();
    const jpeg = await photoJpeg();
    const upload = (bytes: Buffer) =>
      t.http
        .post('/api/uploads')
        .set(bearer(who.accessToken))
        .set('Idempotency-Key', key)
        .field('confirm_own_photos', 'true')
        .attach('files', bytes, { filename: 'me.jpg', contentType: 'image/jpeg' });
    const first = await upload(jpeg);
    expect(first.status).toBe(201);
    const again = await upload(jpeg);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.uploads.map((u: { id: string }) => u.id)).toEqual(first.body.uploads.map((u: { id: string }) => u.id));
    const other = Buffer.from(jpeg);
    other[other.length - 3] ^= 0xff; // another file (a byte of its entropy-coded data)
    const changed = await upload(other);
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual(REUSED);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [who.userId]);
    expect(n).toBe(1);
  });
});
