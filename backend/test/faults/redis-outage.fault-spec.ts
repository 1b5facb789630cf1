/**
 * Redis unreachable, behind a TCP proxy the test takes down and brings back, under the real API and
 * worker processes: at start (both processes start anyway; starts fail fast with 503 and release
 * their holds; health says so), when it returns (the queue is picked up without a restart), and
 * going away in the middle of a run (fast 503s while away; generations in flight end exactly).
 */
import * as fs from 'node:fs';
import { TcpProxy } from '../fakes/tcp-proxy';
import { IMAGE_START, waitFor } from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import { describeTally, expectSettledCleanly, openDb, personWithPhoto, report, settled, Stack, tally, waitUntilEnded } from './fault-kit';
import { HoldingFashn } from './holding-fashn';
import type { DataSource } from 'typeorm';

const REDIS_PORT = Number(new URL(testRedisUrl()).port || 6379);

describe('Redis unreachable', () => {
  const vendor = new HoldingFashn();
  const proxy = new TcpProxy(REDIS_PORT);
  let stack: Stack;
  let db: DataSource;
  const figures: Record<string, string | number> = {};

  const start = (who: SignedIn & { photo: string }) =>
    stack.http
      .post('/api/generations')
      .set(bearer(who.accessToken))
      .send({ ...IMAGE_START, upload_ids: [who.photo] });

  beforeAll(async () => {
    await vendor.start();
    vendor.nextPlan = { pollsBeforeDone: 6, outcome: { end: 'completed' } };
    await proxy.start({ down: true });
    db = await openDb(testDatabaseUrl());
    stack = new Stack({
      databaseUrl: testDatabaseUrl(),
      redisUrl: proxy.url,
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        PROVIDER_INPUTS: 'url', // HoldingFashn tells people apart by their photo links
        AI_REQUEST_TIMEOUT_MS: '1500',
        AI_POLL_INTERVAL_MS: '300',
        AI_RETRY_BASE_MS: '200',
        AI_POLL_MAX_INTERVAL_MS: '300', // a check every 300 ms: the waits do not grow
        AI_SWEEP_INTERVAL_MS: '1000',
      },
    });
  }, 60_000);

  afterAll(async () => {
    report('Redis unreachable at start and in the middle of a run (API and worker processes, a TCP proxy in front of Redis)', figures);
    proxy.up();
    await stack?.close();
    await proxy.stop();
    await db?.destroy();
    await vendor.stop();
  });

  it('at start: both processes start, starts answer 503 fast and release their holds, health says the queue is down', async () => {
    const t0 = Date.now();
    await stack.start({ waitForWorker: false });
    const startedIn = Date.now() - t0;
    expect((await stack.http.get('/api/health/ready')).status).toBe(200);
    const health = await stack.http.get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body.error.queue).toMatchObject({ status: 'down' });

    const people = await Promise.all([1, 2, 3, 4, 5].map(() => personWithPhoto(stack.http, db)));
    const times: number[] = [];
    for (const who of people) {
      const s0 = Date.now();
      const res = await start(who);
      times.push(Date.now() - s0);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    }
    expect(Math.max(...times)).toBeLessThan(5000);
    const rows: { id: string; status: string }[] = await db.query(`SELECT id, status FROM user_generations WHERE user_id = ANY($1)`, [
      people.map((p) => p.userId),
    ]);
    expect(rows.map((r) => r.status)).toEqual(Array(5).fill('failed'));
    for (const r of rows) expectSettledCleanly(await settled(db, stack.storageDir, r.id));
    expect(stack.worker!.exited()).toBe(false);

    figures['API started without Redis in (ms)'] = startedIn;
    figures['starts while away'] =
      `5 answered 503 in ${Math.min(...times)}-${Math.max(...times)} ms; records failed 5; open holds 0; charged 0`;
  }, 120_000);

  it('when it returns: the queue is picked up without a restart, a start is accepted and completes', async () => {
    const who = await personWithPhoto(stack.http, db);
    proxy.up();
    const t0 = Date.now();
    await waitFor('the worker to report itself healthy', async () => fs.existsSync(stack.workerAliveFile), 30_000, 100);
    const workerBack = Date.now() - t0;
    const accepted = await waitFor(
      'a start to be accepted',
      async () => {
        const res = await start(who);
        return res.status === 202 ? res : undefined;
      },
      30_000,
      250,
    );
    const acceptedAfter = Date.now() - t0;
    await waitUntilEnded(db, accepted.body.id, 30_000);
    const s = await settled(db, stack.storageDir, accepted.body.id);
    expectSettledCleanly(s);
    expect(s.status).toBe('completed');
    figures['Redis back: worker healthy after (ms)'] = workerBack;
    figures['Redis back: first start accepted after (ms)'] = acceptedAfter;
    figures['Redis back: that generation completed after (ms)'] = Date.now() - t0;
  }, 120_000);

  it('going away mid-run: starts answer 503 fast while away; generations in flight end exactly once it returns', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => personWithPhoto(stack.http, db)));
    const inFlight: string[] = [];
    for (const who of people.slice(0, 3)) {
      const res = await start(who);
      expect(res.status).toBe(202);
      inFlight.push(res.body.id);
    }
    await waitFor(
      'every generation to be polled at the vendor',
      async () => people.slice(0, 3).every((p) => vendor.timeline.some((t) => t.phase === 'poll' && t.user === p.userId)),
      20_000,
      20,
    );

    proxy.down();
    const d0 = Date.now();
    const s0 = Date.now();
    const refused = await start(people[3]);
    const refusedIn = Date.now() - s0;
    expect(refused.status).toBe(503);
    expect(refusedIn).toBeLessThan(5000);
    const [{ held }] = await db.query(`SELECT coalesce(sum(held), 0)::int AS held FROM credit_accounts WHERE user_id = $1`, [
      people[3].userId,
    ]);
    expect(held).toBe(0);
    await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - d0))));
    proxy.up();
    const u0 = Date.now();

    await Promise.all(inFlight.map((id) => waitUntilEnded(db, id, 90_000)));
    const settledAfter = Date.now() - u0;
    const outcomes = await Promise.all(inFlight.map((id) => settled(db, stack.storageDir, id)));
    outcomes.forEach(expectSettledCleanly);
    // the vendor kept its jobs: every generation in flight completes
    expect(outcomes.map((o) => o.status)).toEqual(['completed', 'completed', 'completed']);
    figures['away for 3 s mid-run: a start'] = `answered 503 in ${refusedIn} ms, nothing held`;
    figures['away for 3 s mid-run: 3 in flight'] =
      `${describeTally(tally(outcomes, (o) => o.status))}; charged ${outcomes.reduce((n, o) => n + o.charges, 0)}; open holds ${outcomes.reduce((n, o) => n + o.openHolds, 0)}; all ended ${settledAfter} ms after Redis returned`;
  }, 180_000);
});
