/**
 * The managed catalogue against the real API and PostgreSQL: admins list, create and edit templates
 * and scenes (ra-data-simple-rest), bad input is refused with the catalogue's words and changes
 * nothing, every change is audited and shows in GET /api/catalog, garment photos go through the
 * uploads' intake into private storage, the seed never overwrites an edit, non-admins are refused,
 * and a second API process (node dist/main.js on the same database) shows an edit within seconds.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { freePort } from '../../src/common/free-port';
import { seedTemplates } from '../../src/modules/catalog';
import { CATALOG_ADMIN_MESSAGES } from '../../src/modules/catalog/admin/catalog-admin.service';
import { CatalogRepository } from '../../src/modules/catalog/store/catalog.repository';
import { CUSTOM_POSE_SAFETY_MESSAGES, SafetyReason } from '../../src/modules/generations/safety';
import { UPLOAD_MESSAGES } from '../../src/modules/uploads';
import { STORAGE, type StoragePort } from '../../src/storage';
import { launch, stop, type Proc } from '../faults/fault-kit';
import { waitFor } from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { ownDatabase } from '../helpers/own-database';
import { createTestApp, testDatabaseUrl, testRedisUrl, uniqueId, type TestApp } from '../helpers/test-app';

const TEMPLATE = 'bikini-black';

describe('the managed catalogue (admin API)', () => {
  // its edits would show in every other spec's catalogue: a database of its own
  const ownDb = ownDatabase('catalogue_admin');
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  let db: DataSource;
  const adminEmail = uniqueEmail('catalogue-admin');

  beforeAll(async () => {
    await ownDb.create();
    t = await createTestApp({ ADMIN_EMAILS: adminEmail });
    admin = await signUp(t.http, { email: adminEmail });
    user = await signUp(t.http, { full_name: 'Plain User' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
    await ownDb.drop();
  });

  const asAdmin = (req: request.Test) => req.set(bearer(admin.accessToken));
  const catalogTemplate = async (id: string) =>
    (await t.http.get('/api/catalog').expect(200)).body.templates.find((x: { id: string }) => x.id === id);
  const auditRows = async (targetId: string) =>
    db.query(`SELECT action, before, after, actor_email FROM audit_log WHERE target_id = $1 ORDER BY created_at`, [targetId]);
  const row = async (id: string) => (await db.query(`SELECT * FROM catalog_templates WHERE id = $1`, [id]))[0];

  it('refuses people who are not admins (403) and visitors (401)', async () => {
    await t.http.get('/api/admin/templates').set(bearer(user.accessToken)).expect(403);
    await t.http.get('/api/admin/scenes').set(bearer(user.accessToken)).expect(403);
    await t.http.patch(`/api/admin/templates/${TEMPLATE}`).set(bearer(user.accessToken)).send({ name: 'Mine now' }).expect(403);
    await t.http.post('/api/admin/templates').set(bearer(user.accessToken)).send({}).expect(403);
    await t.http
      .put(`/api/admin/templates/${TEMPLATE}/garment`)
      .set(bearer(user.accessToken))
      .attach(
        'file',
        await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
        'x.png',
      )
      .expect(403);
    await t.http.get('/api/admin/templates').expect(401);
    expect((await row(TEMPLATE)).name).toBe('Classic Black Bikini');
  });

  it('lists templates and scenes in the ra-data-simple-rest dialect', async () => {
    const res = await asAdmin(
      t.http.get('/api/admin/templates').query({ sort: '["name","ASC"]', range: '[0,4]', filter: '{"category":"bikini"}' }),
    ).expect(200);
    expect(res.headers['content-range']).toBe('templates 0-4/12');
    const names = res.body.map((x: { name: string }) => x.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(res.body[0]).toMatchObject({ category: 'bikini', enabled: true, has_garment_photo: false, garment_photo_url: null });
    expect(res.body[0].thumbnail).toMatch(/^\/api\/catalog\/artwork\/bikini-[a-z-]+\.svg\?v=/);

    const scenes = await asAdmin(t.http.get('/api/admin/scenes').query({ range: '[0,9]', filter: '{"q":"beach"}' })).expect(200);
    expect(scenes.headers['content-range']).toMatch(/^scenes 0-\d+\/\d+$/);
    expect(scenes.body.length).toBeGreaterThan(0);
    expect(scenes.body.every((s: { name: string; id: string; description: string }) => /beach/i.test(s.name + s.id + s.description))).toBe(
      true,
    );
    await asAdmin(t.http.get('/api/admin/templates').query({ sort: '["garment_key","ASC"]' })).expect(400);
  });

  it('refuses bad edits with a clear message and changes nothing', async () => {
    const before = await row(TEMPLATE);
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ required_tier: 'platinum' }, /required_tier must be one of: free, starter, glow_up, model_mode/],
      [{ name: '   ' }, CATALOG_ADMIN_MESSAGES.nameEmpty],
      [{ prompt_description: 'wearing a see-through black bikini' }, CATALOG_ADMIN_MESSAGES.forbiddenWord],
      [{ prompt_description: 'wearing a black bikini and holding a gun' }, CUSTOM_POSE_SAFETY_MESSAGES[SafetyReason.Violence]],
      [{ shop_url: 'http://shop.example/black-bikini' }, CATALOG_ADMIN_MESSAGES.shopUrl],
      [{ shop_url: 'javascript:alert(1)' }, CATALOG_ADMIN_MESSAGES.shopUrl],
      [{ shop_url: 'https://user:secret@shop.example/x' }, CATALOG_ADMIN_MESSAGES.shopUrl],
    ];
    for (const [body, message] of cases) {
      const res = await asAdmin(t.http.patch(`/api/admin/templates/${TEMPLATE}`)).send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.message).toMatch(
        typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message,
      );
    }
    const credit = await asAdmin(t.http.patch('/api/admin/scenes/beach-standing')).send({ credit_cost: 0 });
    expect(credit.status).toBe(400);
    expect(await row(TEMPLATE)).toEqual(before);
    expect(await auditRows(TEMPLATE)).toEqual([]);
    await asAdmin(t.http.patch('/api/admin/templates/no-such-template')).send({ name: 'X' }).expect(404);
  });

  it('edits a template: audited, shown in GET /api/catalog at once, and the seed never overwrites it', async () => {
    const res = await asAdmin(t.http.patch(`/api/admin/templates/${TEMPLATE}`))
      .send({ name: '  Midnight Scoop Bikini ', shop_url: 'https://shop.example/midnight', sort_order: 5 })
      .expect(200);
    expect(res.body).toMatchObject({ name: 'Midnight Scoop Bikini', shop_url: 'https://shop.example/midnight', sort_order: 5 });
    expect(await catalogTemplate(TEMPLATE)).toMatchObject({ name: 'Midnight Scoop Bikini', shopUrl: 'https://shop.example/midnight' });
    // sort_order 5 puts it first on the category screen
    const catalog = (await t.http.get('/api/catalog').expect(200)).body;
    expect(catalog.categories.find((c: { id: string }) => c.id === 'bikini').templateIds[0]).toBe(TEMPLATE);

    const audit = await auditRows(TEMPLATE);
    expect(audit).toEqual([
      {
        action: 'catalog.template.update',
        actor_email: adminEmail,
        before: { name: 'Classic Black Bikini', shop_url: null, sort_order: seedTemplates().find((x) => x.id === TEMPLATE)!.sortOrder },
        after: { name: 'Midnight Scoop Bikini', shop_url: 'https://shop.example/midnight', sort_order: 5 },
      },
    ]);
    // the same values again: nothing changes, nothing is audited
    await asAdmin(t.http.patch(`/api/admin/templates/${TEMPLATE}`))
      .send({ name: 'Midnight Scoop Bikini' })
      .expect(200);
    expect(await auditRows(TEMPLATE)).toHaveLength(1);

    // the seed at the next start: inserts only what is missing
    const repo = t.app.get(CatalogRepository);
    expect(await repo.insertMissingSeed()).toBe(0);
    expect((await row(TEMPLATE)).name).toBe('Midnight Scoop Bikini');
    await db.query(`DELETE FROM catalog_templates WHERE id = 'bikini-coral-bandeau'`);
    expect(await repo.insertMissingSeed()).toBe(1);
    expect((await row('bikini-coral-bandeau')).name).toBe('Coral Bandeau Bikini');
    expect((await row(TEMPLATE)).name).toBe('Midnight Scoop Bikini');
  });

  it('edits a scene: its credit cost is what a generation costs', async () => {
    await asAdmin(t.http.patch('/api/admin/scenes/beach-standing')).send({ credit_cost: 2, name: 'Standing by the Sea' }).expect(200);
    const catalog = (await t.http.get('/api/catalog').expect(200)).body;
    expect(catalog.scenes.find((s: { id: string }) => s.id === 'beach-standing')).toMatchObject({
      name: 'Standing by the Sea',
      creditCost: 2,
    });
    const check = await t.http
      .post('/api/generations/check')
      .set(bearer(user.accessToken))
      .send({ type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' });
    expect(check.body.cost).toBe(2);
    expect((await auditRows('beach-standing')).map((r: { action: string }) => r.action)).toEqual(['catalog.scene.update']);
    await asAdmin(t.http.patch('/api/admin/scenes/beach-standing')).send({ credit_cost: 1 }).expect(200);
  });

  it("the Glow Up card's video range is what the cost rule gives on the live catalogue (issue 18, item 12)", async () => {
    const glowUpVideo = async () =>
      (await t.http.get('/api/catalog').expect(200)).body.plans
        .find((p: { id: string }) => p.id === 'glow_up')
        .features.find((f: string) => f.startsWith('Video try-on'));
    // the seed: scenes cost 1-3, +3 for a video (the spec's "3-9" is not what the rule gives)
    expect(await glowUpVideo()).toBe('Video try-on (4-6 credits)');
    // a Glow Up scene made dearer widens the range; a Model Mode scene is not the Glow Up plan's
    await asAdmin(t.http.patch('/api/admin/scenes/bedroom-sitting')).send({ credit_cost: 5 }).expect(200);
    await asAdmin(t.http.patch('/api/admin/scenes/bathroom-standing')).send({ credit_cost: 9 }).expect(200);
    expect(await glowUpVideo()).toBe('Video try-on (4-8 credits)');
    await asAdmin(t.http.patch('/api/admin/scenes/bedroom-sitting')).send({ credit_cost: 3 }).expect(200);
    await asAdmin(t.http.patch('/api/admin/scenes/bathroom-standing')).send({ credit_cost: 2 }).expect(200);
    expect(await glowUpVideo()).toBe('Video try-on (4-6 credits)');
  });

  it('creates a template, refuses a taken id, and a disabled template leaves the catalogue and is refused', async () => {
    const body = {
      id: 'bikini-lilac',
      category: 'bikini',
      name: 'Lilac Ruffle Bikini',
      description: 'A lilac bikini with ruffled straps.',
      prompt_description: 'wearing a lilac ruffle bikini top and matching bikini bottoms',
      required_tier: 'starter',
    };
    const created = await asAdmin(t.http.post('/api/admin/templates')).send(body).expect(201);
    expect(created.body).toMatchObject({ id: 'bikini-lilac', enabled: true, required_tier: 'starter', has_garment_photo: false });
    expect(await catalogTemplate('bikini-lilac')).toMatchObject({ name: 'Lilac Ruffle Bikini', locked: true });
    const thumb = await t.http.get((await catalogTemplate('bikini-lilac')).thumbnail).expect(200);
    expect(thumb.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await asAdmin(t.http.post('/api/admin/templates')).send(body)).status).toBe(409);
    for (const bad of [
      { ...body, id: 'Bad Id' },
      { ...body, id: 'bikini-x', required_tier: 'gold' },
      { ...body, id: 'bikini-y', name: '' },
    ]) {
      expect((await asAdmin(t.http.post('/api/admin/templates')).send(bad)).status).toBe(400);
    }
    expect(await row('bikini-y')).toBeUndefined();

    await asAdmin(t.http.patch('/api/admin/templates/bikini-yellow')).send({ enabled: false }).expect(200);
    expect(await catalogTemplate('bikini-yellow')).toBeUndefined();
    const refused = await t.http
      .post('/api/generations/check')
      .set(bearer(user.accessToken))
      .send({ type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' });
    expect(refused.status).toBe(400);
    await asAdmin(t.http.patch('/api/admin/templates/bikini-yellow')).send({ enabled: true }).expect(200);
    expect(await catalogTemplate('bikini-yellow')).toBeDefined();
  });

  it('keeps a garment photo privately, re-encoded by the uploads intake, audited; refuses what is not a photo', async () => {
    const png = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#3355aa' } })
      .png()
      .withMetadata({ exif: { IFD0: { Artist: 'someone' } } })
      .toBuffer();
    const res = await asAdmin(t.http.put(`/api/admin/templates/${TEMPLATE}/garment`))
      .attach('file', png, 'packshot.png')
      .expect(200);
    expect(res.body.has_garment_photo).toBe(true);
    // host-relative, like every link handed to a browser: it loads on whatever host the console is opened on
    expect(res.body.garment_photo_url).toMatch(/^\/api\/files\//);
    const key = (await row(TEMPLATE)).garment_key as string;
    expect(key).toMatch(new RegExp(`^catalog/templates/${TEMPLATE}/garment-[0-9a-f-]+\\.jpg$`));
    const stored = await t.app.get<StoragePort>(STORAGE).get(key);
    const meta = await sharp(stored.body).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({
      format: 'jpeg',
      width: 300,
      height: 400,
      exif: undefined,
    });
    // the link is signed: without its signature the file is refused
    const unsigned = new URL(res.body.garment_photo_url, 'http://127.0.0.1');
    await t.http.get(unsigned.pathname).expect((r) => expect([401, 403, 404]).toContain(r.status));

    // a second photo replaces the first, whose file is removed
    const jpeg = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#aa3355' } })
      .jpeg()
      .toBuffer();
    await asAdmin(t.http.put(`/api/admin/templates/${TEMPLATE}/garment`))
      .attach('file', jpeg, 'flat-lay.jpg')
      .expect(200);
    expect(await t.app.get<StoragePort>(STORAGE).exists(key)).toBe(false);

    const notImage = await asAdmin(t.http.put(`/api/admin/templates/${TEMPLATE}/garment`)).attach('file', Buffer.from('<svg/>'), 'x.png');
    expect(notImage.status).toBe(400);
    expect(notImage.body.message).toBe(UPLOAD_MESSAGES.notAnImage);
    const wrongField = await asAdmin(t.http.put(`/api/admin/templates/${TEMPLATE}/garment`)).attach('photo', jpeg, 'x.jpg');
    expect(wrongField.status).toBe(400);

    const actions = (await auditRows(TEMPLATE)).map((r: { action: string }) => r.action);
    expect(actions.filter((a: string) => a === 'catalog.template.garment')).toHaveLength(2);

    // a scene's reference photo
    const scene = await asAdmin(t.http.put('/api/admin/scenes/beach-standing/garment')).attach('file', jpeg, 'ref.jpg').expect(200);
    expect(scene.body.has_reference_photo).toBe(true);
  });

  it("sets a new template's thumbnail: validated, fitted, served publicly, in GET /api/catalog at once, audited; a new one replaces it", async () => {
    const created = await asAdmin(t.http.post('/api/admin/templates')).send({
      id: 'bikini-harbour',
      category: 'bikini',
      name: 'Harbour Halter Bikini',
      description: 'A navy halter bikini.',
      prompt_description: 'wearing a navy halter bikini top and matching bikini bottoms',
      required_tier: 'free',
    });
    expect({ status: created.status, body: created.body as unknown }).toMatchObject({ status: 201 });
    const drawn = (await catalogTemplate('bikini-harbour')).thumbnail as string;
    expect(drawn).toMatch(/\.svg\?v=/);

    const photo = await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#1d3557' } })
      .jpeg()
      .toBuffer();
    const res = await asAdmin(t.http.put('/api/admin/templates/bikini-harbour/thumbnail')).attach('file', photo, 'card.jpg').expect(200);
    expect(res.body).toMatchObject({
      has_uploaded_thumbnail: true,
      thumbnail: expect.stringMatching(/^\/api\/catalog\/artwork\/bikini-harbour\.jpg\?v=/),
    });
    const shown = (await catalogTemplate('bikini-harbour')).thumbnail as string;
    expect(shown).toBe(res.body.thumbnail);

    // public, like the artwork: no token
    const picture = await t.http.get(shown).buffer(true).expect(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    expect(picture.headers['cache-control']).toContain('immutable');
    expect(await sharp(picture.body as Buffer).metadata()).toMatchObject({ format: 'jpeg', width: 600, height: 800 });

    const notImage = await asAdmin(t.http.put('/api/admin/templates/bikini-harbour/thumbnail')).attach(
      'file',
      Buffer.from('<svg/>'),
      'x.png',
    );
    expect(notImage.status).toBe(400);
    expect(notImage.body.message).toBe(UPLOAD_MESSAGES.notAnImage);
    await t.http
      .put('/api/admin/templates/bikini-harbour/thumbnail')
      .set(bearer(user.accessToken))
      .attach('file', photo, 'c.jpg')
      .expect(403);

    const firstKey = (await row('bikini-harbour')).thumbnail_key as string;
    const again = await asAdmin(t.http.put('/api/admin/templates/bikini-harbour/thumbnail')).attach('file', photo, 'card2.jpg').expect(200);
    expect(again.body.thumbnail).not.toBe(shown);
    expect(await t.app.get<StoragePort>(STORAGE).exists(firstKey)).toBe(false);
    expect((await catalogTemplate('bikini-harbour')).thumbnail).toBe(again.body.thumbnail);
    const actions = (await auditRows('bikini-harbour')).map((r: { action: string }) => r.action);
    expect(actions.filter((a: string) => a === 'catalog.template.thumbnail')).toHaveLength(2);
  });

  describe('a second API process on the same database', () => {
    let second: Proc | undefined;
    let dataDir = '';
    afterAll(async () => {
      await stop(second);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('shows an edit made through the first within seconds', async () => {
      const port = await freePort();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-catalogue-'));
      second = launch('api-2', 'main.js', {
        NODE_ENV: 'test',
        DATABASE_URL: testDatabaseUrl(),
        REDIS_URL: testRedisUrl(),
        QUEUE_PREFIX: uniqueId('cq'),
        QUEUE_CONSUME_IN_API: 'false',
        DATA_DIR: dataDir,
        FILES_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef0123',
        AUTH_JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: `http://127.0.0.1:${port}`,
        SERVE_UI: 'false',
        LOG_LEVEL: 'warn',
        // the same list as the first process (a process syncs the admins to its list at start)
        ADMIN_EMAILS: adminEmail,
      });
      const other = request(`http://127.0.0.1:${port}`);
      const nameThere = async (id: string) => {
        const res = await other.get('/api/catalog').catch(() => undefined);
        return res?.status === 200 ? res.body.templates.find((x: { id: string }) => x.id === id)?.name : undefined;
      };
      await waitFor(
        'the second API to answer',
        async () => {
          if (second!.exited()) throw new Error(`the second API exited:\n${second!.output()}`);
          return (await nameThere(TEMPLATE)) === 'Midnight Scoop Bikini';
        },
        60_000,
        100,
      );

      const t0 = Date.now();
      await asAdmin(t.http.patch(`/api/admin/templates/${TEMPLATE}`))
        .send({ name: 'Harbour Night Bikini' })
        .expect(200);
      await waitFor('the second API to show the new name', async () => (await nameThere(TEMPLATE)) === 'Harbour Night Bikini', 10_000, 50);
      const ms = Date.now() - t0;
      console.log(`catalogue edit visible on a second API process after ${ms} ms`);
      expect(ms).toBeLessThan(8_000); // a refresh every 2 s, with room for a loaded CI machine
    });
  });
});
