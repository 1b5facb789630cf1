import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { STORAGE, type StoragePort } from '../../src/storage';
import { bearer, signUp, type SignedIn } from '../helpers/auth';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { readZip, type ZipFile } from '../helpers/zip';
import type { Response } from 'supertest';

/** "Download my data" (GET /api/me/export) through the real API: the ZIP read back, file by file. */
describe('download my data', () => {
  let t: TestApp;
  let db: DataSource;
  let storage: StoragePort;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    storage = t.app.get<StoragePort>(STORAGE);
  });
  afterAll(async () => t?.close());

  const photo = (background: string) =>
    // at least the uploads' smallest side (UPLOAD_LIMITS.minSide)
    sharp({ create: { width: 512, height: 640, channels: 3, background } })
      .jpeg()
      .toBuffer();

  /** A person with a photo, a result, a ticket with a reply and a note, and a ledger. */
  async function someone(name: string, colour: string): Promise<{ who: SignedIn; photoId: string; generationId: string; result: Buffer }> {
    const who = await signUp(t.http, { full_name: name });
    const upload = await t.http
      .post('/api/uploads')
      .set(bearer(who.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', await photo(colour), { filename: 'me.jpg', contentType: 'image/jpeg' })
      .expect(201);
    const photoId: string = upload.body.uploads[0].id;
    const result = await photo('#123456');
    const [generation] = await db.query(
      `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, tier, result_key, completed_at)
       VALUES (gen_random_uuid(), $1, 'image', 'completed', 1, 'bikini', 'assembled', '{"template_id":"bikini-yellow"}', 'complete', 60, 'preview', 'free', 'pending', now())
       RETURNING id`,
      [who.userId],
    );
    const key = `users/${who.userId}/results/${generation.id}.jpg`;
    await storage.put(key, result, { contentType: 'image/jpeg' });
    await db.query(`UPDATE user_generations SET result_key = $2 WHERE id = $1`, [generation.id, key]);
    await t.http
      .post('/api/support/inquiries')
      .set(bearer(who.accessToken))
      .send({ name, email: who.email, subject: `Question of ${name}`, message: `Words of ${name}` })
      .expect(201);
    return { who, photoId, generationId: generation.id, result };
  }

  /** Reads a binary answer whole. */
  const download = (token: string) =>
    t.http
      .get('/api/me/export')
      .set(bearer(token))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  const json = (files: ZipFile[], name: string) => JSON.parse(files.find((f) => f.name === name)!.data.toString('utf8'));

  it("answers a ZIP of the person's data, files included, and nothing of anyone else's", async () => {
    const mine = await someone('Ellen Export', '#a87');
    const theirs = await someone('Other Person', '#7a8');
    // a staff reply and an internal note on my ticket: the reply is mine to see, the note is not
    const [ticket] = await db.query(`SELECT id FROM support_inquiries WHERE user_id = $1`, [mine.who.userId]);
    await db.query(
      `INSERT INTO support_messages (inquiry_id, kind, body, delivered) VALUES ($1, 'reply', 'A reply for Ellen', 'logged'), ($1, 'note', 'Internal note about Ellen', NULL)`,
      [ticket.id],
    );

    // "Only you" data (made here as the face checks make it; they are off in this app)
    await db.query(`INSERT INTO face_consents (user_id, version) VALUES ($1, 'v-test')`, [mine.who.userId]);
    await db.query(
      `INSERT INTO upload_faces (upload_id, user_id, descriptor, face_width, score) VALUES ($1, $2, array_fill(0.125::real, ARRAY[128]), 240, 0.99)`,
      [mine.photoId, mine.who.userId],
    );
    await db.query(
      `INSERT INTO face_check_events (user_id, kind, outcome, distance) VALUES ($1, 'selfie', 'still', NULL), ($2, 'selfie', 'mismatch', 0.7)`,
      [mine.who.userId, theirs.who.userId],
    );

    await db.query(
      `INSERT INTO generation_likeness (generation_id, distance, tries, outcome, threshold) VALUES ($1, 0.31, '[0.31]', 'passed', 0.5), ($2, 0.33, '[0.33]', 'passed', 0.5)`,
      [mine.generationId, theirs.generationId],
    );

    const res: Response = await download(mine.who.accessToken).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="fitting-room-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const files = readZip(res.body as Buffer);
    const names = files.map((f) => f.name).sort();
    expect(names).toEqual(
      [
        'README.txt',
        'activity.json',
        'credits.json',
        'faces.json',
        'generations.json',
        'photos.json',
        `photos/${mine.photoId}.jpg`,
        'profile.json',
        `results/${mine.generationId}.jpg`,
        'sessions.json',
        'settings.json',
        'tickets.json',
      ].sort(),
    );
    // the files themselves, byte for byte
    expect(files.find((f) => f.name === `results/${mine.generationId}.jpg`)!.data.equals(mine.result)).toBe(true);
    const [upload] = await db.query(`SELECT storage_key FROM uploads WHERE id = $1`, [mine.photoId]);
    expect(files.find((f) => f.name === `photos/${mine.photoId}.jpg`)!.data.equals((await storage.get(upload.storage_key)).body)).toBe(
      true,
    );
    // the JSON
    expect(json(files, 'profile.json')).toMatchObject({ id: mine.who.userId, email: mine.who.email, full_name: 'Ellen Export' });
    expect(JSON.stringify(json(files, 'profile.json'))).not.toMatch(/argon2|password_hash|totp_secret/);
    expect(json(files, 'generations.json')).toEqual([
      expect.objectContaining({ id: mine.generationId, status: 'completed', file: `results/${mine.generationId}.jpg` }),
    ]);
    expect(json(files, 'credits.json').ledger.length).toBeGreaterThan(0);
    const faces = json(files, 'faces.json');
    expect(faces.consent).toMatchObject({ version: 'v-test' });
    expect(faces.photos).toEqual([expect.objectContaining({ upload_id: mine.photoId, face_width: 240, verified_at: null })]);
    expect(faces.photos[0].descriptor).toHaveLength(128);
    expect(faces.checks).toEqual([expect.objectContaining({ kind: 'selfie', outcome: 'still', distance: null })]);
    expect(faces.likeness).toEqual([expect.objectContaining({ generation_id: mine.generationId, outcome: 'passed', tries: [0.31] })]);
    const tickets = json(files, 'tickets.json');
    expect(tickets).toEqual([
      expect.objectContaining({
        subject: 'Question of Ellen Export',
        number: expect.any(Number),
        messages: [expect.objectContaining({ body: 'A reply for Ellen' })],
      }),
    ]);
    expect(json(files, 'activity.json').map((a: { activity_type: string }) => a.activity_type)).toContain('sign_up');
    // nothing of the other person, nor the staff's note
    const everything = files.map((f) => f.data.toString('latin1')).join('\n');
    for (const foreign of [
      theirs.who.userId,
      theirs.who.email,
      'Other Person',
      theirs.generationId,
      theirs.photoId,
      'Internal note about Ellen',
    ]) {
      expect({ foreign, found: everything.includes(foreign) }).toEqual({ foreign, found: false });
    }
  });

  it('needs a session, and is limited to 3 an hour per account (429 with Retry-After), the others unaffected', async () => {
    expect((await t.http.get('/api/me/export')).status).toBe(401);
    const who = await signUp(t.http);
    for (let i = 0; i < 3; i++) await download(who.accessToken).expect(200);
    const limited = await t.http.get('/api/me/export').set(bearer(who.accessToken));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await signUp(t.http);
    await download(other.accessToken).expect(200);
  });
});
