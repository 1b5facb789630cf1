/**
 * PostgreSQL restarted under load: a real server (the embedded PostgreSQL the launcher uses, its own
 * data directory) stopped with a fast shutdown and started again on the same port, while people read
 * their account and history and three generations are at the vendor. The API and the worker are
 * not restarted: they must reconnect by themselves, answer 503 (never 500) while the database is
 * away, answer 200 to every request started after it is back, and end every generation exactly.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/cli/embedded-postgres';
import { IMAGE_START, waitFor } from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import { testRedisUrl, uniqueId } from '../helpers/test-app';
import { describeTally, expectSettledCleanly, openDb, personWithPhoto, report, settled, Stack, tally, waitUntilEnded } from './fault-kit';
import { HoldingFashn } from './holding-fashn';
import type { DataSource } from 'typeorm';

interface Sample {
  route: string;
  startedAt: number;
  ms: number;
  status: number;
}

const DOWN_FOR_MS = 3000;

describe('PostgreSQL restarted under load', () => {
  const vendor = new HoldingFashn();
  const dataDir = path.join(os.tmpdir(), `fr-pg-fault-${uniqueId('pg')}`);
  const password = 'fault-pg-password';
  let pg: EmbeddedPostgresHandle;
  let stack: Stack;
  let db: DataSource;

  beforeAll(async () => {
    await vendor.start();
    // about 7 s at the vendor at a 300 ms poll: long enough to be in flight across the restart
    vendor.nextPlan = { pollsBeforeDone: 24, outcome: { end: 'completed' } };
    pg = await startEmbeddedPostgres({ dataDir, password, database: 'fault_restart', log: () => undefined });
    stack = new Stack({
      databaseUrl: pg.url,
      redisUrl: testRedisUrl(),
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
    await stack.start();
    db = await openDb(pg.url);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    await db?.destroy().catch(() => undefined);
    await pg?.stop();
    await vendor.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the API and worker reconnect by themselves: 503 while away, no 5xx once back, generations in flight end exactly', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => personWithPhoto(stack.http, db)));
    const start = (who: SignedIn & { photo: string }) =>
      stack.http
        .post('/api/generations')
        .set(bearer(who.accessToken))
        .send({ ...IMAGE_START, upload_ids: [who.photo] });

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

    // load: four people reading their account and their history, one request after another each
    const samples: Sample[] = [];
    let loading = true;
    const loop = async (who: SignedIn) => {
      for (let i = 0; loading; i++) {
        const route = i % 2 ? '/api/generations' : '/api/me';
        const startedAt = Date.now();
        const status = await fetch(`${stack.baseUrl}${route}`, { headers: bearer(who.accessToken), signal: AbortSignal.timeout(15_000) })
          .then(async (r) => (await r.arrayBuffer(), r.status))
          .catch(() => 0);
        samples.push({ route, startedAt, ms: Date.now() - startedAt, status });
      }
    };
    const loops = people.map(loop);
    await new Promise((r) => setTimeout(r, 1000));

    await db.destroy();
    const downAt = Date.now();
    await pg.stop();
    const stoppedAt = Date.now();
    await new Promise((r) => setTimeout(r, DOWN_FOR_MS));
    const duringStart = Date.now();
    const refused = await start(people[3]);
    const refusedIn = Date.now() - duringStart;
    pg = await startEmbeddedPostgres({ dataDir, password, database: 'fault_restart', port: pg.port, log: () => undefined });
    const upAt = Date.now();
    await new Promise((r) => setTimeout(r, 4000));
    loading = false;
    await Promise.all(loops);
    db = await openDb(pg.url);

    if (process.env.FAULT_DEBUG) console.log(stack.output());
    expect(stack.api!.exited()).toBe(false);
    expect(stack.worker!.exited()).toBe(false);
    // a start while the database is away fails fast with a clear 503 and leaves nothing behind
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(refusedIn).toBeLessThan(5000);

    const before = samples.filter((s) => s.startedAt + s.ms < downAt);
    const away = samples.filter((s) => s.startedAt + s.ms >= downAt && s.startedAt < upAt);
    const after = samples.filter((s) => s.startedAt >= upAt);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(20);
    // while away: the database's absence is a 503 (or the answer from before), never a 500 or a hang
    expect(away.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);
    // once back: every request answers 200, without restarting anything
    expect(after.filter((s) => s.status !== 200)).toEqual([]);

    // a start after it is back is accepted
    const again = await start(people[3]);
    expect(again.status).toBe(202);

    const ids = [...inFlight, again.body.id as string];
    await Promise.all(ids.map((id) => waitUntilEnded(db, id, 120_000)));
    const settledAfter = Date.now() - upAt;
    const outcomes = await Promise.all(ids.map((id) => settled(db, stack.storageDir, id)));
    outcomes.forEach(expectSettledCleanly);
    // the vendor kept its jobs: every generation completes
    expect(outcomes.map((o) => o.status)).toEqual(['completed', 'completed', 'completed', 'completed']);

    const firstOk = after.find((s) => s.status === 200);
    report('PostgreSQL restarted under load (embedded PostgreSQL, fast shutdown, same port; API and worker processes untouched)', {
      'database away (ms)': upAt - downAt,
      'shutdown took (ms)': stoppedAt - downAt,
      'requests in all': samples.length,
      'while away': `${describeTally(tally(away, (s) => String(s.status)))}; slowest ${Math.max(0, ...away.map((s) => s.ms))} ms`,
      'after it was back': `${describeTally(tally(after, (s) => String(s.status)))}; first 200 ${firstOk ? firstOk.startedAt + firstOk.ms - upAt : '-'} ms after start; slowest ${Math.max(0, ...after.map((s) => s.ms))} ms`,
      'a start while away': `answered ${refused.status} in ${refusedIn} ms`,
      'generations (3 in flight + 1 after)': `${describeTally(tally(outcomes, (o) => o.status))}; charged ${outcomes.reduce((n, o) => n + o.charges, 0)}; open holds ${outcomes.reduce((n, o) => n + o.openHolds, 0)}; all ended ${settledAfter} ms after the database was back`,
    });
  }, 240_000);
});
