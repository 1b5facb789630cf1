import { SafetyRefusalsService } from '../../src/modules/generations/safety-refusals.service';
import { FakeAiProvider } from '../fakes/fake-ai-provider';
import {
  createGenerationApp,
  GenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitFor,
} from '../generations/generation-test-kit';
import { bearer, PASSWORD, refreshWith, signIn, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';

const CUSTOM = { type: 'image', category: 'bikini', template_id: 'bikini-yellow', custom_pose: '' } as const;
const SAFE_POSE = 'walking on the beach at sunset';
const HOSTILE_POSE = 'topless on the beach';

/**
 * POST /api/generations/check, the record and count of refused custom poses (and the 24-hour pause
 * after too many), and suspending an account: against the real PostgreSQL and queue.
 */
describe('check before upload, refusals, suspension', () => {
  let g: GenerationApp;
  let fake: FakeAiProvider;
  let admin: SignedIn;
  let support: SignedIn;
  const adminEmail = uniqueEmail('safety-admin');

  beforeAll(async () => {
    fake = new FakeAiProvider();
    g = await createGenerationApp({
      driver: 'in-process',
      provider: fake,
      env: { ADMIN_EMAILS: adminEmail, AI_POLL_INTERVAL_MS: '50' },
    });
    admin = await signUp(g.http, { email: adminEmail });
    support = await signUp(g.http);
    await g.db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
  });
  afterAll(async () => g?.close());

  const check = (who: SignedIn, body: Record<string, unknown>) =>
    g.http.post('/api/generations/check').set(bearer(who.accessToken)).send(body);
  const refusalCount = async (userId: string) =>
    (await g.db.query(`SELECT count(*)::int AS n FROM safety_refusals WHERE user_id = $1`, [userId]))[0].n;

  describe('POST /api/generations/check', () => {
    it('answers the cost and the credits, and changes nothing', async () => {
      const who = await person(g);
      const before = await g.db.query(
        `SELECT (SELECT count(*) FROM user_generations WHERE user_id = $1)::int AS g, (SELECT count(*) FROM credit_holds WHERE user_id = $1)::int AS h`,
        [who.userId],
      );
      const res = await check(who, { type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ cost: 1, credits: 3, credits_after: 2 });
      expect((await check(who, { ...CUSTOM, custom_pose: SAFE_POSE })).body).toEqual({ cost: 3, credits: 3, credits_after: 0 });
      const after = await g.db.query(
        `SELECT (SELECT count(*) FROM user_generations WHERE user_id = $1)::int AS g, (SELECT count(*) FROM credit_holds WHERE user_id = $1)::int AS h`,
        [who.userId],
      );
      expect(after).toEqual(before);
    });

    it('answers each refusal a start would give: tier, video, safety, balance, unverified', async () => {
      const who = await person(g);
      expect(
        (await check(who, { type: 'image', category: 'lingerie', template_id: 'lingerie-silk', scene_id: 'bedroom-standing' })).status,
      ).toBe(403);
      expect(
        (await check(who, { type: 'video', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' })).status,
      ).toBe(403);
      expect((await check(who, { ...CUSTOM, custom_pose: HOSTILE_POSE })).body).toMatchObject({
        statusCode: 400,
        code: 'VALIDATION_ERROR',
      });
      await g.db.query(`UPDATE credit_accounts SET subscription_balance = 0 WHERE user_id = $1`, [who.userId]);
      expect((await check(who, { ...CUSTOM, custom_pose: SAFE_POSE })).body).toEqual({
        statusCode: 400,
        code: 'INSUFFICIENT_CREDITS',
        message: 'Insufficient credits. Required: 3, Available: 0.',
      });
      const unverified = await signUp(g.http, { verified: false });
      expect((await check(unverified, { ...CUSTOM, custom_pose: SAFE_POSE })).body.code).toBe('EMAIL_NOT_VERIFIED');
    });
  });

  describe('refused custom poses', () => {
    it('records each refusal (check and start alike), shows the texts to admins only, and pauses custom poses for 24 hours after more than 5 in an hour', async () => {
      const who = await person(g);
      const photo = await uploadPhoto(g, who);
      for (let i = 0; i < 3; i++) expect((await check(who, { ...CUSTOM, custom_pose: `${HOSTILE_POSE} ${i}` })).status).toBe(400);
      for (let i = 0; i < 2; i++)
        expect((await startGeneration(g, who, { ...CUSTOM, custom_pose: `naked pose ${i}`, upload_ids: [photo] })).status).toBe(400);
      expect(await refusalCount(who.userId)).toBe(5);
      // still allowed: five is the limit
      expect((await check(who, { ...CUSTOM, custom_pose: SAFE_POSE })).status).toBe(200);
      // the sixth refusal pauses custom poses, and admins are told
      expect((await check(who, { ...CUSTOM, custom_pose: 'nude selfie' })).status).toBe(400);
      const paused = await check(who, { ...CUSTOM, custom_pose: SAFE_POSE });
      expect(paused.status).toBe(429);
      expect(paused.body.code).toBe('CUSTOM_POSE_PAUSED');
      expect(paused.body.message).toMatch(/^Custom poses are paused for your account until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect((await startGeneration(g, who, { ...CUSTOM, custom_pose: SAFE_POSE, upload_ids: [photo] })).status).toBe(429);
      // the listed poses still work
      expect(
        (await check(who, { type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' })).status,
      ).toBe(200);
      const [row] = await g.db.query(`SELECT custom_pose_paused_until FROM users WHERE id = $1`, [who.userId]);
      const hours = (new Date(row.custom_pose_paused_until).getTime() - Date.now()) / 3600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      const notes = await g.http
        .get('/api/admin/notifications')
        .query({ filter: JSON.stringify({ type: 'custom_pose_paused' }) })
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(notes.body.some((n: { message: string }) => n.message.includes(who.userId))).toBe(true);
      // the console: admins see the texts, support the counts only
      const forAdmin = await g.http.get(`/api/admin/users/${who.userId}`).set(bearer(admin.accessToken)).expect(200);
      expect(forAdmin.body.refusals).toMatchObject({ total: 6, last_24h: 6, paused_until: expect.any(String) });
      expect(forAdmin.body.refusals.recent[0]).toMatchObject({ text: 'nude selfie', source: 'check', reasons: [expect.any(String)] });
      const forSupport = await g.http.get(`/api/admin/users/${who.userId}`).set(bearer(support.accessToken)).expect(200);
      expect(forSupport.body.refusals.total).toBe(6);
      expect(forSupport.body.refusals.recent.every((r: { text: string | null }) => r.text === null)).toBe(true);
    });

    it('clears the texts after 30 days and keeps the count', async () => {
      const who = await person(g);
      await check(who, { ...CUSTOM, custom_pose: HOSTILE_POSE });
      await g.db.query(`UPDATE safety_refusals SET created_at = now() - interval '31 days' WHERE user_id = $1`, [who.userId]);
      await g.app.get(SafetyRefusalsService).handleRefusalsSweep();
      expect(await g.db.query(`SELECT text FROM safety_refusals WHERE user_id = $1`, [who.userId])).toEqual([{ text: null }]);
    });
  });

  describe('suspension', () => {
    it('refuses sign-in with a clear message, ends the sessions, cancels the running generation and releases its hold; lifting lets the person back', async () => {
      const who = await person(g);
      const photo = await uploadPhoto(g, who);
      fake.behaviour = { kind: 'never' }; // the generation is still running when the account is suspended
      const started = await startGeneration(g, who, { ...IMAGE_START, upload_ids: [photo] });
      expect(started.status).toBe(202);
      const res = await g.http
        .post(`/api/admin/users/${who.userId}/suspension`)
        .set(bearer(admin.accessToken))
        .send({ reason: 'Repeated explicit requests' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        suspended_at: expect.any(String),
        suspension_reason: 'Repeated explicit requests',
        suspended_by: admin.email,
      });
      // what the console's user page shows, to admins and support staff alike
      const shown = await g.http.get(`/api/admin/users/${who.userId}`).set(bearer(support.accessToken)).expect(200);
      expect(shown.body).toMatchObject({
        suspended_at: res.body.suspended_at,
        suspension_reason: 'Repeated explicit requests',
        suspended_by: admin.email,
      });
      // out at once: access token, refresh token, password; the session's holder is told why
      const ended = {
        statusCode: 401,
        code: 'ACCOUNT_SUSPENDED',
        message: 'This account is suspended. If you think this is a mistake, please contact support.',
      };
      expect((await g.http.get('/api/me').set(bearer(who.accessToken))).body).toEqual(ended);
      expect((await refreshWith(g.http, who.refreshToken)).body).toEqual(ended);
      // a forged or unknown refresh token learns nothing of the suspension
      const guessed = await refreshWith(g.http, `${who.refreshToken.split('.')[0]}.${'A'.repeat(43)}`);
      expect(guessed.status).toBe(401);
      expect(guessed.body.message).not.toMatch(/suspended/);
      // the contact form stays open to them (their stale token is ignored there)
      const contact = {
        name: 'Suspended Person',
        email: who.email,
        subject: 'Please lift my suspension',
        message: 'I think this is a mistake.',
      };
      const inquiry = await g.http.post('/api/support/inquiries').set(bearer(who.accessToken)).send(contact);
      expect(inquiry.status).toBe(201);
      expect((await g.http.post('/api/auth/sign-in').send({ email: who.email, password: PASSWORD })).body).toEqual({
        statusCode: 403,
        code: 'ACCOUNT_SUSPENDED',
        message: 'This account is suspended. If you think this is a mistake, please contact support.',
      });
      // a wrong password still says nothing about the suspension
      expect((await g.http.post('/api/auth/sign-in').send({ email: who.email, password: 'not-the-password' })).status).toBe(401);
      // the running generation: cancelled, nothing held
      const generation = await waitFor('the cancel', async () => {
        const [row] = await g.db.query(`SELECT status, error FROM user_generations WHERE id = $1`, [started.body.id]);
        return row.status === 'failed' ? row : undefined;
      });
      expect(generation.error).toBe('Cancelled');
      expect(await g.db.query(`SELECT status FROM credit_holds WHERE generation_id = $1`, [started.body.id])).toEqual([
        { status: 'released' },
      ]);
      // audited, and only admins may do it
      expect(
        (await g.http.post(`/api/admin/users/${who.userId}/suspension`).set(bearer(support.accessToken)).send({ reason: 'x' })).status,
      ).toBe(403);
      const trail = await g.db.query(
        `SELECT action, after FROM audit_log WHERE target_user_id = $1 AND action LIKE 'user.%suspend' ORDER BY created_at`,
        [who.userId],
      );
      expect(trail).toEqual([{ action: 'user.suspend', after: { suspended: true, reason: 'Repeated explicit requests' } }]);
      // lifted: sign-in works again; the sessions the suspension ended stay ended, without the reason
      const lifted = await g.http.delete(`/api/admin/users/${who.userId}/suspension`).set(bearer(admin.accessToken)).expect(200);
      expect(lifted.body).toMatchObject({ suspended_at: null, suspension_reason: null, suspended_by: null });
      await signIn(g.http, who.email);
      expect((await g.http.get('/api/me').set(bearer(who.accessToken))).body).toMatchObject({ statusCode: 401, code: 'AUTH_ERROR' });
      expect((await g.http.get('/api/me').set(bearer(who.accessToken))).body.message).not.toMatch(/suspended/);
      expect((await refreshWith(g.http, who.refreshToken)).body.message).not.toMatch(/suspended/);
      fake.behaviour = { kind: 'succeed', polls: 1 };
    });

    it('does not let an admin suspend their own account', async () => {
      const res = await g.http.post(`/api/admin/users/${admin.userId}/suspension`).set(bearer(admin.accessToken)).send({ reason: 'oops' });
      expect(res.body).toMatchObject({ statusCode: 400, message: 'You cannot suspend your own account.' });
    });
  });
});
