/**
 * The generation API around the pipeline: refused starts (each with the catalogue's error, and
 * nothing changed: no row, no hold, same balance), one running generation per user, the owner-only
 * routes, the list, delete, download and the expiry of result links.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATEGORY_SCENES } from '../../src/modules/catalog';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { FakeAiProvider } from '../fakes/fake-ai-provider';
import { bearer, type SignedIn } from '../helpers/auth';
import {
  books,
  collectEvents,
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitForEnd,
  type GenerationApp,
} from './generation-test-kit';

const MISSING = {
  statusCode: 400,
  code: 'VALIDATION_ERROR',
  message: 'Please upload at least one image, select a template and a pose or custom prompt',
};

describe('the generation API', () => {
  let t: GenerationApp;
  const fake = new FakeAiProvider();

  beforeAll(async () => {
    t = await createGenerationApp({ driver: 'in-process', provider: fake, env: { AI_POLL_INTERVAL_MS: '30' } });
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    fake.behaviour = { kind: 'succeed', polls: 0 };
  });

  const rowsOf = async (userId: string) =>
    (await t.db.query(`SELECT count(*)::int AS n FROM user_generations WHERE user_id = $1`, [userId]))[0].n;

  describe('refuses bad starts with the catalogue error, changing nothing', () => {
    let free: SignedIn;
    let starter: SignedIn;
    let glowUp: SignedIn;
    let broke: SignedIn;
    let photoOf: Map<string, string>;
    let otherUsersPhoto: string;

    beforeAll(async () => {
      [free, starter, glowUp, broke] = [
        await person(t),
        await person(t, { tier: 'starter' }),
        await person(t, { tier: 'glow_up' }),
        await person(t),
      ];
      photoOf = new Map();
      for (const who of [free, starter, glowUp, broke]) photoOf.set(who.userId, await uploadPhoto(t, who));
      otherUsersPhoto = await uploadPhoto(t, await person(t));
      // an admin deducts 2 of broke's 3 credits: the 3-credit custom pose is then beyond reach
      await t.app.get(CreditsService).adjust({ userId: broke.userId, mode: 'deduct', amount: 2, reason: 'test', actorId: broke.userId });
    });

    type Who = 'free' | 'starter' | 'glowUp' | 'broke';
    const cases: Array<[string, Who, (photo: string) => Record<string, unknown>, object]> = [
      ['no photo', 'free', () => ({ ...IMAGE_START, upload_ids: [] }), MISSING],
      ['no upload_ids at all', 'free', () => ({ ...IMAGE_START }), MISSING],
      ['no template', 'free', (p) => ({ type: 'image', category: 'bikini', scene_id: 'beach-standing', upload_ids: [p] }), MISSING],
      [
        'neither pose nor custom prompt',
        'free',
        (p) => ({ type: 'image', category: 'bikini', template_id: 'bikini-yellow', upload_ids: [p] }),
        MISSING,
      ],
      [
        'both a pose and a custom prompt',
        'free',
        (p) => ({ ...IMAGE_START, custom_pose: 'standing', upload_ids: [p] }),
        { code: 'VALIDATION_ERROR', message: 'Choose either a pose or a custom prompt, not both' },
      ],
      [
        "another user's photo",
        'free',
        () => ({ ...IMAGE_START, upload_ids: [otherUsersPhoto] }),
        { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Photo not found. Please upload it again.' },
      ],
      [
        'an unknown photo id',
        'free',
        () => ({ ...IMAGE_START, upload_ids: ['00000000-0000-4000-8000-000000000000'] }),
        { code: 'VALIDATION_ERROR' },
      ],
      [
        'six photos',
        'free',
        (p) => ({ ...IMAGE_START, upload_ids: [p, p, p, p, p, p] }),
        { code: 'VALIDATION_ERROR', message: 'You can use at most 5 photos per generation' },
      ],
      [
        'an unknown template',
        'free',
        (p) => ({ ...IMAGE_START, template_id: 'bikini-nope', upload_ids: [p] }),
        { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Unknown template: bikini-nope' },
      ],
      [
        'a template of another category',
        'free',
        (p) => ({ ...IMAGE_START, category: 'dress', upload_ids: [p] }),
        { code: 'VALIDATION_ERROR', message: 'This template does not belong to this category' },
      ],
      [
        'a template locked for the tier',
        'free',
        (p) => ({ ...IMAGE_START, template_id: 'bikini-coral-bandeau', upload_ids: [p] }),
        {
          statusCode: 403,
          code: 'FORBIDDEN',
          message: expect.stringMatching(/^This template requires (Starter|Glow Up|Model Mode) or higher to access$/),
        },
      ],
      [
        'lingerie on free',
        'free',
        (p) => ({ type: 'image', category: 'lingerie', template_id: 'lingerie-silk', scene_id: 'beach-standing', upload_ids: [p] }),
        { statusCode: 403, code: 'FORBIDDEN', message: 'This template requires Glow Up or higher to access' },
      ],
      [
        'spicy on glow_up',
        'glowUp',
        (p) => ({ type: 'image', category: 'spicy', template_id: 'spicy-nurse', scene_id: 'beach-standing', upload_ids: [p] }),
        { statusCode: 403, code: 'FORBIDDEN', message: 'This template requires Model Mode or higher to access' },
      ],
      [
        'a pose locked for the tier',
        'free',
        (p) => ({ ...IMAGE_START, scene_id: 'poolside-standing', upload_ids: [p] }),
        { statusCode: 403, code: 'FORBIDDEN', message: 'This pose requires Starter or higher' },
      ],
      [
        'a pose of another category',
        'glowUp',
        (p) => ({ ...IMAGE_START, scene_id: sceneOfCategory('dresses'), upload_ids: [p] }),
        { code: 'VALIDATION_ERROR', message: 'This pose is not available in this category' },
      ],
      [
        'an unknown pose',
        'free',
        (p) => ({ ...IMAGE_START, scene_id: 'moon-walking', upload_ids: [p] }),
        { code: 'VALIDATION_ERROR', message: 'Unknown pose: moon-walking' },
      ],
      [
        'video on starter',
        'starter',
        (p) => ({ ...IMAGE_START, type: 'video', upload_ids: [p] }),
        { statusCode: 403, code: 'FORBIDDEN', message: 'Video generation requires Glow Up or higher' },
      ],
      ['video on free', 'free', (p) => ({ ...IMAGE_START, type: 'video', upload_ids: [p] }), { statusCode: 403, code: 'FORBIDDEN' }],
      [
        'an unknown type',
        'free',
        (p) => ({ ...IMAGE_START, type: 'gif', upload_ids: [p] }),
        { statusCode: 400, code: 'VALIDATION_ERROR', message: 'type must be image or video' },
      ],
      [
        'an unknown category',
        'free',
        (p) => ({ ...IMAGE_START, category: 'swimwear', upload_ids: [p] }),
        { code: 'VALIDATION_ERROR', message: 'Unknown category: swimwear' },
      ],
      [
        'nudity in the custom pose',
        'free',
        (p) => ({
          type: 'image',
          category: 'bikini',
          template_id: 'bikini-yellow',
          custom_pose: 'posing n u d e on the beach',
          upload_ids: [p],
        }),
        { code: 'VALIDATION_ERROR', message: expect.stringContaining('without nudity') },
      ],
      [
        'a minor in the custom pose',
        'free',
        (p) => ({
          type: 'image',
          category: 'bikini',
          template_id: 'bikini-yellow',
          custom_pose: 'looking like a 15 year old schoolgirl',
          upload_ids: [p],
        }),
        { code: 'VALIDATION_ERROR' },
      ],
      [
        'a field the API does not know',
        'free',
        (p) => ({ ...IMAGE_START, upload_ids: [p], cost: 0 }),
        { code: 'VALIDATION_ERROR', message: 'property cost should not exist' },
      ],
      [
        'insufficient credits',
        'broke',
        (p) => ({
          type: 'image',
          category: 'bikini',
          template_id: 'bikini-yellow',
          custom_pose: 'walking along the shore at sunset',
          upload_ids: [p],
        }),
        { statusCode: 400, code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits. Required: 3, Available: 1.' },
      ],
    ];

    /** a scene that belongs to another category (by its id prefix), unlocked for glow_up */
    function sceneOfCategory(prefix: string): string {
      return CATEGORY_SCENES.find((s) => s.id.startsWith(`${prefix}-`) && ['free', 'starter', 'glow_up'].includes(s.requiredTier))!.id;
    }

    it.each(cases)('%s', async (_label, whoName, body, expected) => {
      const who = { free, starter, glowUp, broke }[whoName];
      const before = await books(t.db, who.userId);
      const res = await startGeneration(t, who, body(photoOf.get(who.userId)!));
      expect(res.body).toMatchObject(expected);
      expect(res.status).toBe((expected as { statusCode?: number }).statusCode ?? 400);
      expect(await rowsOf(who.userId)).toBe(0);
      expect(await books(t.db, who.userId)).toEqual(before);
      expect(before.balanced).toBe(true);
    });
  });

  it('starts a custom pose: the prompt is built on the server from the outfit and the checked text, 3 credits', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    const extra = await uploadPhoto(t, who);
    const res = await startGeneration(t, who, {
      type: 'image',
      category: 'bikini',
      template_id: 'bikini-yellow',
      custom_pose: '  walking along the shore at sunset ',
      upload_ids: [photo, extra],
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      cost: 3,
      metadata: { scene_id: 'custom', custom_pose: 'walking along the shore at sunset', upload_ids: [photo, extra] },
    });
    // the customer's words as a quoted description, then the fixed safety clause
    expect(res.body.prompt).toMatch(
      /^show the woman .+, in the pose the customer described as "walking along the shore at sunset"\. The person is an adult, fully clothed in the outfit described, in a non-sexual pose\.$/,
    );
    expect((await waitForEnd(t, who, res.body.id)).status).toBe('completed');
    const sent = fake.starts.find((s) => s.generationId === res.body.id)!;
    expect(sent).toMatchObject({ sceneId: 'custom', scene: undefined, prompt: res.body.prompt });
    // only the first photo goes to the provider
    expect(sent.person.storageKey).toBe(`users/${who.userId}/uploads/${photo}.jpg`);
    expect(await books(t.db, who.userId, res.body.id)).toMatchObject({ charged: 3, available: 0, balanced: true });
  });

  it('runs one generation per user at a time: a second start answers 409 and changes nothing', async () => {
    const who = await person(t, { addCredits: 10 });
    const photo = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'never' };
    // ten starts at once: exactly one wins, nine answer 409, one hold
    const answers = await Promise.all(Array.from({ length: 10 }, () => startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body).toEqual({ statusCode: 409, code: 'CONFLICT', message: 'A generation is already running' });
    }
    expect(await rowsOf(who.userId)).toBe(1);
    expect(await books(t.db, who.userId)).toMatchObject({ held: 1, available: 12, balanced: true });
    const running = answers.find((a) => a.status === 202)!.body.id as string;
    await t.http.post(`/api/generations/${running}/cancel`).set(bearer(who.accessToken)).expect(200);
    // once it ended, the next one may start
    fake.behaviour = { kind: 'succeed', polls: 0 };
    const next = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    expect(next.status).toBe(202);
    await waitForEnd(t, who, next.body.id);
  });

  it('serves each route to the owner only, and answers 404 to anyone else', async () => {
    const [owner, other] = [await person(t), await person(t)];
    const photo = await uploadPhoto(t, owner);
    const started = await startGeneration(t, owner, { ...IMAGE_START, upload_ids: [photo] });
    const id = started.body.id as string;
    await waitForEnd(t, owner, id);
    const notFound = { statusCode: 404, code: 'RECORD_NOT_FOUND', message: 'Generation not found.' };
    for (const [method, url] of [
      ['get', `/api/generations/${id}`],
      ['get', `/api/generations/${id}/download`],
      ['post', `/api/generations/${id}/cancel`],
      ['delete', `/api/generations/${id}`],
    ] as const) {
      const res = await t.http[method](url).set(bearer(other.accessToken));
      expect({ url, method, body: res.body }).toEqual({ url, method, body: notFound });
    }
    const stream = await collectEvents(t.baseUrl, id, other.accessToken).catch((e) => e);
    expect(stream.status).toBe(404);
    expect((await collectEvents(t.baseUrl, id, 'not-a-token')).status).toBe(401);
    expect((await t.http.get(`/api/generations/${id}/events`)).status).toBe(401);
    expect((await t.http.get('/api/generations').set(bearer(other.accessToken))).body).toMatchObject({ total: 0, items: [] });
    expect((await t.http.get(`/api/generations/not-a-uuid`).set(bearer(owner.accessToken))).body).toEqual(notFound);
    // and the owner still has it
    expect((await t.http.get(`/api/generations/${id}`).set(bearer(owner.accessToken))).body.status).toBe('completed');
  });

  it('lists my completed generations newest first, by page and category; deletes one with its file', async () => {
    const who = await person(t, { tier: 'starter', addCredits: 20 });
    const photo = await uploadPhoto(t, who);
    const ids: string[] = [];
    for (const body of [
      IMAGE_START,
      IMAGE_START,
      { type: 'image', category: 'dress', template_id: 'dress-bodycon', scene_id: 'beach-standing' },
    ]) {
      const res = await startGeneration(t, who, { ...body, upload_ids: [photo] });
      expect(res.status).toBe(202);
      await waitForEnd(t, who, res.body.id);
      ids.push(res.body.id);
    }
    fake.behaviour = { kind: 'fail' };
    const failed = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    await waitForEnd(t, who, failed.body.id);

    const all = await t.http.get('/api/generations').set(bearer(who.accessToken)).expect(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, page_size: 24 });
    expect(all.body.items.map((g: { id: string }) => g.id)).toEqual([...ids].reverse());
    const page2 = await t.http.get('/api/generations?page=2&page_size=2').set(bearer(who.accessToken)).expect(200);
    expect(page2.body).toMatchObject({ total: 3, page: 2, page_size: 2, items: [{ id: ids[0] }] });
    const dresses = await t.http.get('/api/generations?category=dress').set(bearer(who.accessToken)).expect(200);
    expect(dresses.body).toMatchObject({ total: 1, items: [{ id: ids[2], category: 'dress' }] });
    // a page past the end still says how many there are, with and without a category
    const past = await t.http.get('/api/generations?page=5&page_size=2').set(bearer(who.accessToken)).expect(200);
    expect(past.body).toMatchObject({ total: 3, page: 5, items: [] });
    const pastDresses = await t.http.get('/api/generations?category=dress&page=3&page_size=1').set(bearer(who.accessToken)).expect(200);
    expect(pastDresses.body).toMatchObject({ total: 1, items: [] });
    const bad = await t.http.get('/api/generations?page_size=1000').set(bearer(who.accessToken));
    expect(bad.status).toBe(400);
    expect((await t.http.get('/api/generations?category=moon').set(bearer(who.accessToken))).status).toBe(400);

    const key = (await t.db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [ids[1]]))[0].result_key as string;
    const file = path.join(t.config.storage.localDir, 'objects', key);
    expect(fs.existsSync(file)).toBe(true);
    await t.http.delete(`/api/generations/${ids[1]}`).set(bearer(who.accessToken)).expect(204);
    expect(fs.existsSync(file)).toBe(false);
    expect((await t.http.get(`/api/generations/${ids[1]}`).set(bearer(who.accessToken))).status).toBe(404);
    expect((await t.http.get('/api/generations').set(bearer(who.accessToken))).body.total).toBe(2);
    // a failed one has nothing to download
    const none = await t.http.get(`/api/generations/${failed.body.id}/download`).set(bearer(who.accessToken));
    expect(none.body).toEqual({ statusCode: 409, code: 'CONFLICT', message: 'This generation has no result to download' });
    expect(await books(t.db, who.userId)).toMatchObject({ held: 0, balanced: true, available: 3 + 20 - 3 });
  });

  it('never serves a stale gallery: a kept page goes as soon as any writer changes the completed generations', async () => {
    const who = await person(t, { tier: 'starter', addCredits: 20 });
    const photo = await uploadPhoto(t, who);
    const ids = async () =>
      ((await t.http.get('/api/generations').set(bearer(who.accessToken)).expect(200)).body.items as { id: string }[]).map((g) => g.id);
    const complete = async () => {
      const res = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
      await waitForEnd(t, who, res.body.id);
      return res.body.id as string;
    };
    const first = await complete();
    expect(await ids()).toEqual([first]);
    expect(await ids()).toEqual([first]); // the same page again, kept by this process

    // the worker completes another: it shows at once
    const second = await complete();
    expect(await ids()).toEqual([second, first]);
    // a generation that fails does not change the gallery, nor what is kept
    fake.behaviour = { kind: 'fail' };
    await complete();
    expect(await ids()).toEqual([second, first]);

    // writers outside this process (another API process, the console, a purge): straight in the database
    await t.db.query(`DELETE FROM user_generations WHERE id = $1`, [second]);
    expect(await ids()).toEqual([first]);
    await t.db.query(`UPDATE user_generations SET category = 'dress' WHERE id = $1`, [first]);
    const dresses = await t.http.get('/api/generations?category=dress').set(bearer(who.accessToken)).expect(200);
    expect(dresses.body).toMatchObject({ total: 1, items: [{ id: first, category: 'dress' }] });
    await t.db.query(`UPDATE user_generations SET status = 'failed' WHERE id = $1`, [first]);
    expect(await ids()).toEqual([]);

    // another person's gallery is their own, kept or not
    const other = await person(t);
    expect((await t.http.get('/api/generations').set(bearer(other.accessToken)).expect(200)).body).toMatchObject({ total: 0, items: [] });
    // and an account with completed generations can still be deleted (the bump finds no account)
    fake.behaviour = { kind: 'succeed', polls: 0 };
    await t.db.query(`UPDATE user_generations SET status = 'completed' WHERE id = $1`, [first]);
    await t.db.query(`DELETE FROM users WHERE id = $1`, [who.userId]);
    expect(await rowsOf(who.userId)).toBe(0);
  });

  it('deletes a running generation: cancelled first, its hold released', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'never' };
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    await t.http.delete(`/api/generations/${started.body.id}`).set(bearer(who.accessToken)).expect(204);
    expect(await rowsOf(who.userId)).toBe(0);
    expect(await books(t.db, who.userId)).toMatchObject({ held: 0, available: 3, balanced: true });
  });

  it('fails cleanly when the photo was deleted before the provider got it', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    fake.startDelayMs = 0;
    const key = (await t.db.query(`SELECT storage_key FROM uploads WHERE id = $1`, [photo]))[0].storage_key as string;
    fs.rmSync(path.join(t.config.storage.localDir, 'objects', key));
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    expect(await waitForEnd(t, who, started.body.id)).toMatchObject({
      status: 'failed',
      error: 'Generation failed: the photo was deleted',
    });
    expect(await books(t.db, who.userId)).toMatchObject({ held: 0, available: 3, balanced: true });
  });

  it('refuses a result link once it is altered or expired', async () => {
    const who = await person(t);
    const photo = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    const done = await waitForEnd(t, who, started.body.id);
    const link = done.url as string;
    expect(link).toMatch(/^\/api\/files\/users\//); // host-relative: it loads from whatever host the app was opened on
    expect((await t.http.get(link)).status).toBe(200);
    const refused = { statusCode: 403, code: 'FORBIDDEN', message: 'This link has expired or is invalid.' };
    expect((await t.http.get(link.replace('/results/', '/uploads/'))).body).toEqual(refused);
    expect((await t.http.get(link.replace(/exp=\d+/, (m) => `exp=${Number(m.slice(4)) + 60}`))).body).toEqual(refused);
    const download = await t.http.get(`/api/generations/${started.body.id}/download`).set(bearer(who.accessToken)).expect(302);
    expect(download.headers.location).toMatch(/^\/api\/files\/users\//);
    const renamed = (download.headers.location as string).replace(/dl=[^&]+/, 'dl=evil.html');
    expect((await t.http.get(renamed)).body).toEqual(refused);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 15 * 60 * 1000 + 1000);
    try {
      expect((await t.http.get(link)).body).toEqual(refused);
    } finally {
      clock.mockRestore();
    }
  });
});
