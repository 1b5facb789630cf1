import { DataSource } from 'typeorm';
import { TcpProxy } from '../fakes/tcp-proxy';
import { deleteRedisKeys, IMAGE_START, startGeneration, uploadPhoto, waitFor, waitForEnd } from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';

const REDIS_PORT = Number(new URL(process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379').port || 6379);

/**
 * Redis away, behind a proxy the test takes down and brings back: the API starts anyway and
 * serves, a start fails fast (503) with nothing held or left running, health says the queue is
 * down, the console answers; when Redis returns, generations run again.
 */
describe('Redis unreachable', () => {
  const proxy = new TcpProxy(REDIS_PORT);
  let t: TestApp;
  const adminEmail = uniqueEmail('outage-admin');

  beforeAll(async () => {
    await proxy.start({ down: true });
    const t0 = Date.now();
    t = await createTestApp({
      REDIS_URL: proxy.url,
      QUEUE_CONSUME_IN_API: 'true',
      ADMIN_EMAILS: adminEmail,
      AI_POLL_INTERVAL_MS: '50',
    });
    // it started although Redis is not there
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 60_000);
  afterAll(async () => {
    proxy.up();
    await t?.close();
    if (t) await deleteRedisKeys(`redis://127.0.0.1:${REDIS_PORT}`, t.config.queue.prefix);
    await proxy.stop();
  });

  it('serves, fails a start fast (503) releasing its hold, reports the queue down, keeps the console answering; and recovers when Redis returns', async () => {
    await t.http.get('/api/catalog').expect(200);
    const admin = await signUp(t.http, { email: adminEmail });
    const who = await signUp(t.http);
    const photo = await uploadPhoto(t, who);

    const t0 = Date.now();
    const res = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    const generations = await t.app.get(DataSource).query(`SELECT id, status FROM user_generations WHERE user_id = $1`, [who.userId]);
    expect(generations).toEqual([{ id: expect.any(String), status: 'failed' }]);
    const me = await t.http.get('/api/me').set(bearer(who.accessToken)).expect(200);
    expect(me.body.credit_balance.held).toBe(0);
    // the live view of a generation cannot listen for events: it says so at once (the app then polls)
    const s0 = Date.now();
    const stream = await t.http.get(`/api/generations/${generations[0].id}/events`).set(bearer(who.accessToken));
    expect(Date.now() - s0).toBeLessThan(5_000);
    expect(stream.status).toBe(503);
    expect(stream.body.code).toBe('SERVICE_UNAVAILABLE');

    const health = await t.http.get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body.error.queue).toMatchObject({ status: 'down' });
    // the rate limits hold, counted in this process's memory while Redis is away
    expect(health.body.details.rate_limits).toMatchObject({ status: 'up', store: 'memory' });
    // live, and ready: the API serves everything but starting a generation, so it stays in rotation
    await t.http.get('/api/health/live').expect(200);
    expect((await t.http.get('/api/health/ready')).status).toBe(200);
    const q0 = Date.now();
    const queues = await t.http.get('/api/admin/queues').set(bearer(admin.accessToken));
    expect(Date.now() - q0).toBeLessThan(5_000);
    expect(queues.status).toBe(200);
    expect(queues.body).toMatchObject({ driver: 'bullmq', healthy: false });

    // Redis returns: the queue is picked up, and a generation runs to the end
    proxy.up();
    await waitFor(
      'the queue to be healthy',
      async () => (await t.http.get('/api/admin/queues').set(bearer(admin.accessToken))).body.healthy === true,
      30_000,
      200,
    );
    await waitFor(
      'the rate limits back on Redis',
      async () => (await t.http.get('/api/health')).body.details?.rate_limits?.store === 'redis',
      30_000,
      200,
    );
    const again = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [photo] });
    expect(again.status).toBe(202);
    expect((await waitForEnd(t, who, again.body.id, 30_000)).status).toBe('completed');
  }, 90_000);
});
