import sharp from 'sharp';
import { ReportedImageJobs } from '../../src/modules/support/reported-image.jobs';
import { COPY_TRANSFORMS, personPhoto, seeded } from '../../src/scripts/takedown-corpus';
import { STORAGE, type StoragePort } from '../../src/storage';
import {
  createGenerationApp,
  GenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitForEnd,
} from '../generations/generation-test-kit';
import { bearer, PASSWORD, signIn, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { ownDatabase } from '../helpers/own-database';

/**
 * "Report an image" from a re-shared copy, where results look alike: preview results of one
 * template and scene (the real preview renderer) made from look-alike photos of two people. A copy
 * is taken for a result without asking only when it is unambiguous; otherwise an admin compares the
 * kept copy with the candidates and chooses. The copy is kept privately, and not for ever.
 */
describe('reports of an image by a copy, among look-alike results', () => {
  let g: GenerationApp;
  let storage: StoragePort;
  let admin: SignedIn;
  let support: SignedIn;
  let stranger: SignedIn;
  const adminEmail = uniqueEmail('report-admin');
  let ownerA: SignedIn;
  let ownerB: SignedIn;
  let resultA: { id: string; key: string; body: Buffer };
  let resultB: { id: string; key: string; body: Buffer };
  // a database of its own: the matcher ranks every stored result, and other files' look-alike results would crowd the candidates
  const ownDb = ownDatabase('reported_image');

  beforeAll(async () => {
    await ownDb.create();
    g = await createGenerationApp({ driver: 'in-process', env: { ADMIN_EMAILS: adminEmail, AI_PROVIDER: 'preview' } });
    storage = g.app.get<StoragePort>(STORAGE);
    admin = await signUp(g.http, { email: adminEmail });
    support = await signUp(g.http);
    stranger = await signUp(g.http);
    await g.db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    support = await signIn(g.http, support.email);
    // two people photographed at the same place, framed the same: their results differ only in the person
    ownerA = await person(g, { addCredits: 10 });
    ownerB = await person(g, { addCredits: 10 });
    resultA = await generate(ownerA, await personPhoto(11, 7));
    resultB = await generate(ownerB, await personPhoto(12, 7)); // B's is the newer
  }, 300_000);
  afterAll(async () => {
    await g?.close();
    await ownDb.drop();
  });

  async function generate(who: SignedIn, photo: Buffer): Promise<{ id: string; key: string; body: Buffer }> {
    const res = await startGeneration(g, who, { ...IMAGE_START, upload_ids: [await uploadPhoto(g, who, photo)] });
    expect(res.status).toBe(202);
    expect((await waitForEnd(g, who, res.body.id, 180_000)).status).toBe('completed');
    const [row] = await g.db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [res.body.id]);
    return { id: res.body.id, key: row.result_key, body: (await storage.get(row.result_key)).body };
  }

  /** "Report an image" with a copy, as the contact form sends it. */
  async function report(copy: Buffer, fields: Record<string, string> = {}, who?: SignedIn): Promise<string> {
    const req = g.http.post('/api/support/inquiries');
    if (who) req.set(bearer(who.accessToken));
    for (const [k, v] of Object.entries({
      name: 'Vic Tim',
      email: uniqueEmail('victim'),
      subject: 'This is me',
      message: 'Someone shared this picture of me.',
      kind: 'abuse_report',
      ...fields,
    }))
      req.field(k, v);
    const res = await req.attach('image', copy, { filename: 'copy.jpg', contentType: 'image/jpeg' });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  const ticket = async (id: string, who: SignedIn = admin) =>
    (await g.http.get(`/api/admin/support-inquiries/${id}`).set(bearer(who.accessToken)).expect(200)).body;

  it("takes a copy of A's result for A, never for B's newer look-alike, and asks an admin once A's result is gone", async () => {
    // the looks-alike are real: most of the two pictures is the same scene, card and labels
    const copyOfA = await COPY_TRANSFORMS.crop10(resultA.body, seeded(1));
    const found = await ticket(await report(copyOfA));
    expect(found).toMatchObject({ generation_id: resultA.id, image_match: 'hash' });
    // B's is listed beside it, clearly behind (other tests' results of this template may be listed too)
    const ids = found.image_candidates.map((c: { generation_id: string }) => c.generation_id);
    expect(ids[0]).toBe(resultA.id);
    expect(ids).toContain(resultB.id);
    expect(found.image_candidates[0].score).toBeGreaterThan(found.image_candidates[ids.indexOf(resultB.id)].score);

    // cropped by a fifth, turned 5 degrees, letterboxed, screenshotted: still A, still without asking
    for (const way of ['crop20', 'rotate5', 'border', 'screenshot'] as const) {
      const copy = await COPY_TRANSFORMS[way](resultA.body, seeded(2));
      expect({ way, ...pick(await ticket(await report(copy)), 'generation_id', 'image_match') }).toEqual({
        way,
        generation_id: resultA.id,
        image_match: 'hash',
      });
    }

    // A deletes their result: the same copy now looks most like B's, which is not it; nobody is named
    await g.http.delete(`/api/generations/${resultA.id}`).set(bearer(ownerA.accessToken)).expect(204);
    const asked = await ticket(await report(copyOfA));
    expect(asked).toMatchObject({ generation_id: null, image_match: 'candidates' });
    expect(asked.image_candidates.map((c: { generation_id: string }) => c.generation_id)).toContain(resultB.id);
    // nothing to take down until an admin chooses
    await g.http
      .post(`/api/admin/support-inquiries/${asked.id}/remove-generation`)
      .set(bearer(admin.accessToken))
      .send({ include_source: true })
      .expect(400);
    expect((await g.db.query(`SELECT id FROM user_generations WHERE id = $1`, [resultB.id])).length).toBe(1);
  }, 300_000);

  it('keeps the copy privately: support and admins see it through a short signed link, only admins see the results beside it', async () => {
    // a copy carrying EXIF (a camera, a place): the kept copy is re-encoded without any of it
    const copy = await sharp(await COPY_TRANSFORMS.recompress(resultB.body, seeded(3)))
      .withExif({ IFD0: { Copyright: 'Jane Doe, 12 Secret Street', Artist: 'Jane Doe' } })
      .jpeg()
      .toBuffer();
    const id = await report(copy);
    expect((await sharp(copy).metadata()).exif).toBeDefined();
    const [row] = await g.db.query(`SELECT reported_image_key FROM support_inquiries WHERE id = $1`, [id]);
    expect(row.reported_image_key).toBe(`support/reported-images/${id}.jpg`);
    const kept = (await storage.get(row.reported_image_key)).body;
    expect(kept.equals(copy)).toBe(false);
    const keptMeta = await sharp(kept).metadata();
    expect([keptMeta.format, keptMeta.exif, keptMeta.xmp, keptMeta.iptc]).toEqual(['jpeg', undefined, undefined, undefined]);

    // nobody else reads the ticket, and the file has no address of its own
    await g.http.get(`/api/admin/support-inquiries/${id}`).expect(401);
    await g.http.get(`/api/admin/support-inquiries/${id}`).set(bearer(stranger.accessToken)).expect(403);
    await g.http.get(`/api/files/${row.reported_image_key}`).expect(403);

    const bySupport = await ticket(id, support);
    expect(bySupport.reported_image_url).toMatch(/^\/api\/files\/support\/reported-images\//);
    const served = await g.http.get(bySupport.reported_image_url).expect(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.from(served.body).equals(kept)).toBe(true);
    expect(bySupport.reported_generation).toMatchObject({ generation_id: resultB.id, exists: true, result_url: null });
    expect(bySupport.image_candidates.every((c: { result_url: string | null }) => c.result_url === null)).toBe(true);
    // the link expires within minutes
    const expires = Number(new URL(bySupport.reported_image_url, 'http://x').searchParams.get('exp'));
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(300_000);

    const byAdmin = await ticket(id);
    expect(byAdmin.reported_generation.result_url).toMatch(/^\/api\/files\/users\//);
    await g.http.get(byAdmin.reported_generation.result_url).expect(200);
    // support cannot choose (nor take down); an admin's choice must be one of the candidates
    await g.http
      .post(`/api/admin/support-inquiries/${id}/match`)
      .set(bearer(support.accessToken))
      .send({ generation_id: null })
      .expect(403);
  }, 120_000);

  it('lets an admin choose among the candidates when none is clearly ahead, then take it down; the choice is noted and audited', async () => {
    // B's copy with a sticker over the person's face: nothing agrees well enough to be sure
    const { width, height } = await sharp(resultB.body).metadata();
    const sticker = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width! * 0.35}" cy="${height! * 0.38}" r="${width! * 0.19}" fill="#ffcc00"/></svg>`,
    );
    const stuck = await sharp(resultB.body)
      .composite([{ input: sticker }])
      .toBuffer();
    const copy = await sharp(stuck).resize(900).jpeg({ quality: 80 }).toBuffer();
    const id = await report(copy);
    const asked = await ticket(id);
    expect(asked).toMatchObject({ generation_id: null, image_match: 'candidates' });
    expect(asked.image_candidates.map((c: { generation_id: string }) => c.generation_id)).toContain(resultB.id);

    const choose = (generation_id: string | null) =>
      g.http.post(`/api/admin/support-inquiries/${id}/match`).set(bearer(admin.accessToken)).send({ generation_id });
    expect((await choose(resultA.id)).status).toBe(400); // not a candidate
    expect((await g.http.post(`/api/admin/support-inquiries/${id}/match`).set(bearer(admin.accessToken)).send({})).status).toBe(400);
    expect((await choose(null)).body).toMatchObject({ generation_id: null, image_match: 'none' });
    const chosen = (await choose(resultB.id).expect(200)).body;
    expect(chosen).toMatchObject({ generation_id: resultB.id, image_match: 'chosen' });
    expect(chosen.messages.map((m: { body: string }) => m.body)).toEqual([
      expect.stringMatching(/^(None of the \d+ candidates is|The candidate is not) the reported image\.$/),
      `Chose generation ${resultB.id} as the reported image, after comparing it with the copy sent.`,
    ]);
    const trail = await g.db.query(
      `SELECT action, after FROM audit_log WHERE target_id = $1 AND action = 'support.match.choose' ORDER BY created_at`,
      [id],
    );
    expect(trail.map((r: { after: { image_match: string } }) => r.after.image_match)).toEqual(['none', 'chosen']);

    await g.http.post(`/api/admin/support-inquiries/${id}/remove-generation`).set(bearer(admin.accessToken)).send({}).expect(200);
    expect((await g.db.query(`SELECT id FROM user_generations WHERE id = $1`, [resultB.id])).length).toBe(0);
    expect((await choose(null)).status).toBe(409);
    // the ticket still shows the copy, and the result as gone
    expect((await ticket(id)).reported_generation).toMatchObject({ generation_id: resultB.id, exists: false, result_url: null });
  }, 120_000);

  it('deletes a kept copy 30 days after its ticket is resolved (not while it is open), and with the reporter\'s "Delete All My Data"', async () => {
    const jobs = g.app.get(ReportedImageJobs);
    const picture = await personPhoto(3);
    const resolved = await report(picture);
    const open = await report(picture);
    const reporter = await signUp(g.http);
    const mine = await report(picture, { email: reporter.email });
    const keyOf = async (id: string) =>
      (await g.db.query(`SELECT reported_image_key AS key, reported_image_deleted_at AS at FROM support_inquiries WHERE id = $1`, [id]))[0];
    const resolvedKey = (await keyOf(resolved)).key;
    await g.db.query(`UPDATE support_inquiries SET status = 'resolved', resolved_at = now() - interval '31 days' WHERE id = $1`, [
      resolved,
    ]);
    await g.db.query(`UPDATE support_inquiries SET created_at = now() - interval '90 days' WHERE id = $1`, [open]);

    expect(await jobs.sweepReportedImages()).toBeGreaterThanOrEqual(1);
    expect(await storage.exists(resolvedKey)).toBe(false);
    expect(await keyOf(resolved)).toEqual({ key: null, at: expect.any(Date) });
    expect((await ticket(resolved)).reported_image_url).toBeNull();
    expect((await keyOf(open)).key).not.toBeNull();
    expect(await storage.exists((await keyOf(open)).key)).toBe(true);

    // the reporter (the address they reported from) deletes their account: the copy goes with it, the report stays
    const mineKey = (await keyOf(mine)).key;
    await g.http.delete('/api/me').set(bearer(reporter.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    expect(await storage.exists(mineKey)).toBe(false);
    expect(await keyOf(mine)).toEqual({ key: null, at: expect.any(Date) });
    expect((await ticket(mine)).kind).toBe('abuse_report');
  }, 120_000);

  it('signs results stored without a signature, and offers one not signed yet only as a candidate', async () => {
    const jobs = g.app.get(ReportedImageJobs);
    const owner = await person(g, { addCredits: 10 });
    const result = await generate(owner, await personPhoto(21));
    // as if stored before signatures existed
    await g.db.query(`DELETE FROM result_signatures WHERE generation_id = $1`, [result.id]);
    const copy = await COPY_TRANSFORMS.recompress(result.body, seeded(4));
    const older = await ticket(await report(copy));
    expect(older).toMatchObject({ generation_id: null, image_match: 'candidates' });
    expect(older.image_candidates).toContainEqual(expect.objectContaining({ generation_id: result.id, hash_distance: expect.any(Number) }));

    const signatureOf = async () =>
      (
        await g.db.query(`SELECT version, length(signature) AS bytes, created_at FROM result_signatures WHERE generation_id = $1`, [
          result.id,
        ])
      )[0];
    expect((await jobs.sweepSignatures()).signed).toBeGreaterThanOrEqual(1);
    expect(await signatureOf()).toMatchObject({ version: 1, bytes: expect.any(Number) });
    expect((await signatureOf()).bytes).toBeGreaterThan(1000);
    expect((await ticket(await report(copy))).generation_id).toBe(result.id);
    // a result whose file is gone is marked once (an empty signature), not tried again
    await g.db.query(`DELETE FROM result_signatures WHERE generation_id = $1`, [result.id]);
    await storage.delete(result.key);
    expect((await jobs.sweepSignatures()).unreadable).toBeGreaterThanOrEqual(1);
    const marked = await signatureOf();
    expect(marked).toMatchObject({ version: 1, bytes: 0 });
    await jobs.sweepSignatures();
    expect((await signatureOf()).created_at).toEqual(marked.created_at);
  }, 300_000);
});

function pick<T extends Record<string, unknown>>(o: T, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
