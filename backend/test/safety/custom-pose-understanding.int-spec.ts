import { FakeAiProvider } from '../fakes/fake-ai-provider';
import { createGenerationApp, GenerationApp, person, startGeneration, uploadPhoto } from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';

const CUSTOM = { type: 'image', category: 'bikini', template_id: 'bikini-yellow' } as const;

/** Innocent texts the check does not understand: another language, a name, misspellings, a number it cannot read. */
const NOT_UNDERSTOOD = [
  'caminando en la playa al atardecer',
  'posing next to Zorblatt on a pier',
  'walking on the beahc at sunset',
  'sitting in a cafe with a capuccino',
  'standing with 7 by the pool',
  'bailando bajo la lluvia',
];
/** Texts refused for a safety category. */
const REFUSED = [
  'topless on the beach',
  'me at 15 in a swimsuit',
  'naked in the garden',
  'legs spread on the bed',
  'holding a gun',
  'nude selfie',
];

/**
 * Refusal means unsafe (docs/safety.md): a custom pose the check does not understand answers
 * CUSTOM_POSE_NOT_UNDERSTOOD with the words and close words it knows, and is neither recorded nor
 * counted; only refusals with a safety category pause custom poses, and the pause's 429 says
 * when to come back (Retry-After). Against the real PostgreSQL and the in-process queue.
 */
describe('custom poses: not understood versus refused', () => {
  let g: GenerationApp;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('understanding-admin');

  beforeAll(async () => {
    g = await createGenerationApp({ driver: 'in-process', provider: new FakeAiProvider(), env: { ADMIN_EMAILS: adminEmail } });
    admin = await signUp(g.http, { email: adminEmail });
  });
  afterAll(async () => g?.close());

  const check = (who: SignedIn, customPose: string) =>
    g.http
      .post('/api/generations/check')
      .set(bearer(who.accessToken))
      .send({ ...CUSTOM, custom_pose: customPose });
  const refusalRows = async (userId: string) =>
    (await g.db.query(`SELECT reasons FROM safety_refusals WHERE user_id = $1 ORDER BY created_at`, [userId])) as Array<{
      reasons: string;
    }>;
  const pausedNotices = async (userId: string) => {
    const res = await g.http
      .get('/api/admin/notifications')
      .query({ filter: JSON.stringify({ type: 'custom_pose_paused' }) })
      .set(bearer(admin.accessToken))
      .expect(200);
    return (res.body as Array<{ message: string }>).filter((n) => n.message.includes(userId)).length;
  };

  it('answers CUSTOM_POSE_NOT_UNDERSTOOD with the words it did not understand and close words it knows, recording nothing', async () => {
    const who = await person(g);
    const res = await check(who, 'walking on the beahc with smokie eyes');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      code: 'CUSTOM_POSE_NOT_UNDERSTOOD',
      message:
        'These words weren\'t understood: "beahc", "smokie". Describe the pose in everyday English words, for example: walking on the beach at sunset',
      not_understood: {
        words: [
          { word: 'beahc', suggestions: expect.arrayContaining(['beach']) },
          { word: 'smokie', suggestions: expect.arrayContaining(['smoky']) },
        ],
        characters: [],
        other_language: false,
      },
    });
    // the suggestion, put in place of the word, is accepted
    const fixed = await check(who, 'walking on the beach with smoky eyes');
    expect(fixed.status).toBe(200);
    expect(fixed.body).toEqual({ cost: 3, credits: 3, credits_after: 0 });
    // another language: English only for now
    const spanish = await check(who, 'caminando en la playa al atardecer');
    expect(spanish.body).toMatchObject({
      code: 'CUSTOM_POSE_NOT_UNDERSTOOD',
      message: expect.stringMatching(/^Custom poses are in English only for now\./),
      not_understood: { other_language: true },
    });
    expect(await refusalRows(who.userId)).toEqual([]);
  });

  it('six texts it does not understand, at the check and at a start, pause nothing and tell no admin', async () => {
    const who = await person(g, { addCredits: 10 });
    const photo = await uploadPhoto(g, who);
    for (const [i, text] of NOT_UNDERSTOOD.entries()) {
      const res =
        i % 2 === 0 ? await check(who, text) : await startGeneration(g, who, { ...CUSTOM, custom_pose: text, upload_ids: [photo] });
      expect({ text, status: res.status, code: res.body.code }).toEqual({ text, status: 400, code: 'CUSTOM_POSE_NOT_UNDERSTOOD' });
    }
    expect(await refusalRows(who.userId)).toEqual([]);
    // still free to write a custom pose: not paused
    const after = await check(who, 'walking on the beach at sunset');
    expect(after.status).toBe(200);
    const [row] = await g.db.query(`SELECT custom_pose_paused_until FROM users WHERE id = $1`, [who.userId]);
    expect(row.custom_pose_paused_until).toBeNull();
    expect(await pausedNotices(who.userId)).toBe(0);
  });

  it('six refused texts pause custom poses for 24 hours: the 429 says when to come back in Retry-After, and the admins are told', async () => {
    const who = await person(g);
    for (const text of REFUSED) {
      const res = await check(who, text);
      expect({ text, status: res.status, code: res.body.code }).toEqual({ text, status: 400, code: 'VALIDATION_ERROR' });
    }
    const rows = await refusalRows(who.userId);
    expect(rows).toHaveLength(6);
    // the age under 18 is refused as a minor, not as a number it could not read
    expect(rows[1].reasons.split(',')[0]).toBe('minor');
    const paused = await check(who, 'walking on the beach at sunset');
    expect(paused.status).toBe(429);
    expect(paused.body.code).toBe('CUSTOM_POSE_PAUSED');
    const retryAfter = Number(paused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    // 24 hours from the sixth refusal, a few seconds ago at most
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 300);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const [row] = await g.db.query(`SELECT custom_pose_paused_until FROM users WHERE id = $1`, [who.userId]);
    const untilSeconds = (new Date(row.custom_pose_paused_until).getTime() - Date.now()) / 1000;
    expect(Math.abs(untilSeconds - retryAfter)).toBeLessThan(60);
    expect(await pausedNotices(who.userId)).toBe(1);
  });

  it('reads numbers: an adult age, a time and a film size are understood; an age under 18 is refused as a minor and counted', async () => {
    const who = await person(g);
    expect((await check(who, 'a 30 year old woman at 5 pm, shot on 35mm film')).status).toBe(200);
    expect((await check(who, 'celebrating my 40th birthday in a size 12 dress')).status).toBe(200);
    const minor = await check(who, 'a 16-year-old at the beach');
    expect(minor.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(/minor/) });
    expect((await refusalRows(who.userId)).map((r) => r.reasons)).toEqual(['minor']);
  });

  describe('POST /api/generations/custom-pose/check (as a person types)', () => {
    it('names the words it does not understand with close words, judges no safety and records nothing', async () => {
      const who = await person(g);
      const res = await g.http
        .post('/api/generations/custom-pose/check')
        .set(bearer(who.accessToken))
        .send({ text: 'sitting in a cafe with a capuccino' })
        .expect(200);
      expect(res.body).toEqual({
        understood: false,
        message: expect.stringContaining('"capuccino"'),
        not_understood: {
          words: [{ word: 'capuccino', suggestions: expect.arrayContaining(['cappuccino']) }],
          characters: [],
          other_language: false,
        },
      });
      const fine = await g.http
        .post('/api/generations/custom-pose/check')
        .set(bearer(who.accessToken))
        .send({ text: 'walking on the beach' });
      expect(fine.body).toEqual({ understood: true, message: null, not_understood: { words: [], characters: [], other_language: false } });
      // understood, though a start would refuse it: safety is judged at the start, and nothing here is counted
      for (let i = 0; i < 7; i++) {
        const unsafe = await g.http
          .post('/api/generations/custom-pose/check')
          .set(bearer(who.accessToken))
          .send({ text: `topless on the beach ${i}` });
        expect(unsafe.status).toBe(200);
      }
      expect(await refusalRows(who.userId)).toEqual([]);
      expect((await check(who, 'walking on the beach at sunset')).status).toBe(200);
    });

    it('needs a signed-in person and a text', async () => {
      expect((await g.http.post('/api/generations/custom-pose/check').send({ text: 'walking' })).status).toBe(401);
      const who = await person(g);
      const res = await g.http.post('/api/generations/custom-pose/check').set(bearer(who.accessToken)).send({});
      expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    });
  });

  it('GET /api/generations/custom-pose/building-blocks: short phrases of poses, places, light, mood and props that a start accepts', async () => {
    const res = await g.http.get('/api/generations/custom-pose/building-blocks').expect(200);
    expect(res.body.groups.map((b: { id: string }) => b.id)).toEqual(['pose', 'place', 'light', 'mood', 'props']);
    const who = await person(g);
    const [pose, place, light] = res.body.groups as Array<{ phrases: string[] }>;
    expect((await check(who, `${pose.phrases[0]} ${place.phrases[0]} ${light.phrases[0]}`)).status).toBe(200);
  });
});
