import { DataSource } from 'typeorm';
import { deleteRedisKeys } from '../generations/generation-test-kit';
import { bearer, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

/** The admin's queue monitor: the JSON overview with either driver, Bull Board behind its cookie with BullMQ. */
describe('admin queue monitor', () => {
  describe('with the in-process driver', () => {
    let t: TestApp;
    let admin: SignedIn;
    const adminEmail = uniqueEmail('queues-admin');

    beforeAll(async () => {
      t = await createTestApp({ ADMIN_EMAILS: adminEmail, REDIS_URL: undefined });
      admin = await signUp(t.http, { email: adminEmail });
    });
    afterAll(async () => t?.close());

    it('answers counts per queue, and no board', async () => {
      const res = await t.http.get('/api/admin/queues').set(bearer(admin.accessToken)).expect(200);
      expect(res.body).toMatchObject({ driver: 'in-process', healthy: true, board_url: null });
      expect(res.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['generations', 'maintenance']);
      for (const q of res.body.queues)
        expect(Object.keys(q.counts).sort()).toEqual(['active', 'completed', 'delayed', 'failed', 'waiting']);
      await t.http.post('/api/admin/queue-board/session').set(bearer(admin.accessToken)).expect(404);
      await t.http.get('/api/admin/queue-board').expect(404);
    });
  });

  describe('with BullMQ (Redis)', () => {
    let t: TestApp;
    let admin: SignedIn;
    let support: SignedIn;
    const adminEmail = uniqueEmail('board-admin');
    const supportEmail = uniqueEmail('board-support');

    beforeAll(async () => {
      t = await createTestApp({ ADMIN_EMAILS: adminEmail, REDIS_URL: testRedisUrl() });
      admin = await signUp(t.http, { email: adminEmail });
      support = await signUp(t.http, { email: supportEmail });
      await t.app.get(DataSource).query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    });
    afterAll(async () => {
      await t?.close();
      if (t) await deleteRedisKeys(testRedisUrl(), t.config.queue.prefix);
    });

    const boardCookie = (setCookie: string[] | string | undefined) => {
      const all = ([] as string[]).concat(setCookie ?? []);
      return all.find((c) => c.startsWith('fr_queue_board='));
    };

    it('counts the Redis queues', async () => {
      const res = await t.http.get('/api/admin/queues').set(bearer(admin.accessToken)).expect(200);
      expect(res.body).toMatchObject({ driver: 'bullmq', healthy: true, board_url: '/api/admin/queue-board' });
      expect(res.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['generations', 'maintenance']);
    });

    it('serves Bull Board to an admin through a short-lived httpOnly cookie, and to no one else', async () => {
      // a browser's navigation without the cookie, or with a forged one
      await t.http.get('/api/admin/queue-board').expect(401);
      await t.http.get('/api/admin/queue-board/api/queues').set('Cookie', 'fr_queue_board=forged.token.value').expect(401);
      // a bearer access token is not a board cookie
      await t.http.get('/api/admin/queue-board').set('Cookie', `fr_queue_board=${admin.accessToken}`).expect(401);
      // only the rule's roles get a cookie
      await t.http.post('/api/admin/queue-board/session').set(bearer(support.accessToken)).expect(403);
      await t.http.post('/api/admin/queue-board/session').expect(401);

      const session = await t.http.post('/api/admin/queue-board/session').set(bearer(admin.accessToken)).expect(200);
      expect(session.body.url).toBe('/api/admin/queue-board');
      const cookie = boardCookie(session.headers['set-cookie']);
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Path=\/api\/admin\/queue-board/);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Max-Age=900/);
      const pair = cookie!.split(';')[0];

      const page = await t.http.get('/api/admin/queue-board').set('Cookie', pair).expect(200);
      expect(page.text).toContain('__UI_CONFIG__');
      const api = await t.http.get('/api/admin/queue-board/api/queues').set('Cookie', pair).expect(200);
      expect(api.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['generations', 'maintenance']);

      // the board cookie is no bearer token either
      await t.http
        .get('/api/admin/stats')
        .set(bearer(pair.split('=')[1]))
        .expect(401);

      // signing out ends the board too
      await t.http.post('/api/auth/sign-out').set(bearer(admin.accessToken));
      await t.http.get('/api/admin/queue-board/api/queues').set('Cookie', pair).expect(401);
    });

    it('refuses the board to an account that lost the admin role', async () => {
      const other = await signUp(t.http, { email: uniqueEmail('demoted') });
      const db = t.app.get(DataSource);
      await db.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [other.userId]);
      const session = await t.http.post('/api/admin/queue-board/session').set(bearer(other.accessToken)).expect(200);
      const pair = boardCookie(session.headers['set-cookie'])!.split(';')[0];
      await t.http.get('/api/admin/queue-board/api/queues').set('Cookie', pair).expect(200);
      await db.query(`UPDATE users SET role = 'user' WHERE id = $1`, [other.userId]);
      await t.http.get('/api/admin/queue-board/api/queues').set('Cookie', pair).expect(403);
    });
  });
});
