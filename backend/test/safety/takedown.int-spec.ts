import sharp from 'sharp';
import { STORAGE, type StoragePort } from '../../src/storage';
import { distinctResultJpeg, FakeAiProvider } from '../fakes/fake-ai-provider';
import {
  createGenerationApp,
  GenerationApp,
  IMAGE_START,
  person,
  photoJpeg,
  startGeneration,
  uploadPhoto,
  waitForEnd,
} from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { waitForMail } from '../helpers/mail';

/**
 * "Report an image" from what a victim has (a link, or only a re-shared copy), and a takedown that
 * reaches the photo and everything made from it: against the real database, storage and queue.
 */
describe('reports of an image and takedowns', () => {
  let g: GenerationApp;
  let storage: StoragePort;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('takedown-admin');

  beforeAll(async () => {
    const fake = new FakeAiProvider();
    fake.resultImage = (input) => distinctResultJpeg(input.generationId);
    g = await createGenerationApp({ driver: 'in-process', provider: fake, env: { ADMIN_EMAILS: adminEmail } });
    storage = g.app.get<StoragePort>(STORAGE);
    admin = await signUp(g.http, { email: adminEmail });
  });
  afterAll(async () => g?.close());

  async function generate(who: SignedIn, photo: string): Promise<{ id: string; key: string }> {
    const res = await startGeneration(g, who, { ...IMAGE_START, upload_ids: [photo] });
    expect(res.status).toBe(202);
    expect((await waitForEnd(g, who, res.body.id)).status).toBe('completed');
    const [row] = await g.db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [res.body.id]);
    return { id: res.body.id, key: row.result_key };
  }

  const report = (fields: Record<string, string>, image?: Buffer) => {
    const req = g.http.post('/api/support/inquiries');
    for (const [k, v] of Object.entries({
      name: 'Vic Tim',
      subject: 'This is me, please remove it',
      message: 'Someone shared this picture of me.',
      kind: 'abuse_report',
      ...fields,
    }))
      req.field(k, v);
    if (image) req.attach('image', image, { filename: 'copy.jpg', contentType: 'image/jpeg' });
    return req;
  };

  it('finds the image from a re-shared copy (picture or metadata) or a link, mails a receipt, and a takedown removes the photo and everything made from it', async () => {
    const owner = await person(g, { addCredits: 10 });
    const photo = await uploadPhoto(g, owner);
    const other = await uploadPhoto(
      g,
      owner,
      await sharp(await photoJpeg())
        .flip()
        .jpeg()
        .toBuffer(),
    );
    const reported = await generate(owner, photo);
    const sibling = await generate(owner, photo);
    const unrelated = await generate(owner, other);

    // a copy shared on a social network: smaller, recompressed, every bit of metadata gone
    const stored = (await storage.get(reported.key)).body;
    const reshared = await sharp(stored).resize(420).jpeg({ quality: 70 }).toBuffer();
    expect((await sharp(reshared).metadata()).xmp).toBeUndefined();
    const victim = uniqueEmail('victim');
    const byPicture = await report({ email: victim }, reshared).expect(201);
    const ticket = await g.http.get(`/api/admin/support-inquiries/${byPicture.body.id}`).set(bearer(admin.accessToken)).expect(200);
    expect(ticket.body).toMatchObject({ kind: 'abuse_report', priority: 'high', generation_id: reported.id, image_match: 'hash' });
    const receipt = await waitForMail(g.config.mail!.outboxDir, { to: victim, template: 'report-receipt' });
    // the receipt names the ticket by the number people read
    expect(receipt.text).toContain(`#${byPicture.body.number}`);
    // the copy is kept in private storage for the console (test/support/reported-image.int-spec.ts), never in the ticket's row
    expect(JSON.stringify(await g.db.query(`SELECT * FROM support_inquiries WHERE id = $1`, [byPicture.body.id]))).not.toMatch(
      /base64|ffd8ff/i,
    );

    // the original file (its metadata carries the id), and a link to it
    const byMetadata = await report({ email: uniqueEmail('v2') }, stored).expect(201);
    expect((await g.http.get(`/api/admin/support-inquiries/${byMetadata.body.id}`).set(bearer(admin.accessToken))).body).toMatchObject({
      generation_id: reported.id,
      image_match: 'metadata',
    });
    const link = await storage.signedUrl(reported.key);
    const byLink = await g.http
      .post('/api/support/inquiries')
      .send({ name: 'V', email: uniqueEmail('v3'), subject: 'Mine', message: 'Please remove', kind: 'abuse_report', image_url: link })
      .expect(201);
    expect((await g.http.get(`/api/admin/support-inquiries/${byLink.body.id}`).set(bearer(admin.accessToken))).body).toMatchObject({
      generation_id: reported.id,
      image_match: 'link',
    });
    // a picture that is none of ours matches nothing
    const stranger = await report(
      { email: uniqueEmail('v4') },
      await sharp({ create: { width: 300, height: 400, channels: 3, background: '#123456' } })
        .jpeg()
        .toBuffer(),
    ).expect(201);
    expect((await g.http.get(`/api/admin/support-inquiries/${stranger.body.id}`).set(bearer(admin.accessToken))).body).toMatchObject({
      generation_id: null,
      image_match: 'none',
    });
    // a question cannot carry an image
    expect((await report({ email: uniqueEmail('v5'), kind: 'question' }, reshared)).status).toBe(400);

    // the takedown, in one action: the reported result, its photo, the other result from that photo
    const done = await g.http
      .post(`/api/admin/support-inquiries/${byPicture.body.id}/remove-generation`)
      .set(bearer(admin.accessToken))
      .send({ include_source: true })
      .expect(200);
    expect(done.body.messages.at(-1).body).toBe(
      `Removed the reported generation ${reported.id}, the photo it was made from and 1 other generation made from it, with their files.`,
    );
    const left = await g.db.query(`SELECT id FROM user_generations WHERE user_id = $1 ORDER BY created_at`, [owner.userId]);
    expect(left).toEqual([{ id: unrelated.id }]);
    const photos = await g.db.query(`SELECT id, storage_key FROM uploads WHERE user_id = $1`, [owner.userId]);
    expect(photos.map((p: { id: string }) => p.id)).toEqual([other]);
    for (const key of [reported.key, sibling.key, `users/${owner.userId}/uploads/${photo}.jpg`])
      expect({ key, exists: await storage.exists(key) }).toEqual({ key, exists: false });
    expect(await storage.exists(unrelated.key)).toBe(true);
    const trail = await g.db.query(`SELECT action FROM audit_log WHERE target_user_id = $1 ORDER BY created_at`, [owner.userId]);
    expect(trail.map((r: { action: string }) => r.action)).toEqual(['generation.remove', 'generation.remove', 'generation.takedown']);
  });
});
