/**
 * The AI vendor answers 5xx, 429 with Retry-After, and nothing in time, in bursts, to the real API
 * and worker processes. Starts are tried again (3 in all) only when nothing can have started, later
 * each time and never before Retry-After; status checks back off the same way; when the vendor
 * does not recover, the generation fails cleanly: not charged, its hold released.
 */
import { IMAGE_START } from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import { expectSettledCleanly, openDb, personWithPhoto, report, settled, Stack, waitUntilEnded } from './fault-kit';
import { HoldingFashn, type VendorPhase } from './holding-fashn';
import type { DataSource } from 'typeorm';

const POLL_MS = 300;
const RETRY_BASE_MS = 200;
const TIMEOUT_MS = 1500;
/** the image budget (AI_IMAGE_DEADLINE_SECONDS): room for the slowest recovery below, on a loaded machine */
const DEADLINE_SECONDS = 25;

const vendorError = (status: number, name: string, message: string, headers?: Record<string, string>) => ({
  status,
  body: { error: name, message },
  headers,
});
const INTERNAL = vendorError(500, 'InternalServerError', 'An unexpected error occurred');
const RATE_LIMITED = vendorError(429, 'RateLimitExceeded', 'Too many requests', { 'Retry-After': '1' });
// Answers long after the timeout, so that a stalled worker still sees no answer in time.
const SILENT = { status: 200, body: { id: 'late', error: null }, delayMs: TIMEOUT_MS + 10_000 };

describe('the AI vendor failing in bursts', () => {
  const vendor = new HoldingFashn();
  let stack: Stack;
  let db: DataSource;
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    await vendor.start();
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'completed' } };
    db = await openDb(testDatabaseUrl());
    stack = new Stack({
      databaseUrl: testDatabaseUrl(),
      redisUrl: testRedisUrl(),
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        PROVIDER_INPUTS: 'url', // HoldingFashn tells people apart by their photo links
        AI_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
        AI_POLL_INTERVAL_MS: String(POLL_MS),
        AI_RETRY_BASE_MS: String(RETRY_BASE_MS),
        AI_POLL_MAX_INTERVAL_MS: String(POLL_MS), // a check every POLL_MS while the vendor answers, as before
        AI_IMAGE_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
        AI_SWEEP_INTERVAL_MS: '1000',
      },
    });
    await stack.start();
  }, 120_000);

  afterEach(() => {
    vendor.runOverrides.length = 0;
    vendor.statusOverrides.length = 0;
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'completed' } };
  });

  afterAll(async () => {
    report('AI vendor answering 5xx, 429 and nothing in time, in bursts (API and worker processes, fake FASHN)', figures);
    await stack?.close();
    await db?.destroy();
    await vendor.stop();
  });

  /** Runs one generation to its end; answers its books, the vendor's calls of `phase`, and the gaps between them. */
  async function generate(phase: VendorPhase) {
    const who = await personWithPhoto(stack.http, db);
    const res = await stack.http
      .post('/api/generations')
      .set(bearer(who.accessToken))
      .send({ ...IMAGE_START, upload_ids: [who.photo] });
    expect(res.status).toBe(202);
    await waitUntilEnded(db, res.body.id, 60_000);
    const [row] = await db.query(`SELECT error FROM user_generations WHERE id = $1`, [res.body.id]);
    const calls = vendor.timeline.filter((t) => t.phase === phase && t.user === who.userId).map((t) => t.at);
    const gaps = calls.slice(1).map((at, i) => at - calls[i]);
    return { books: await settled(db, stack.storageDir, res.body.id), error: row.error as string | null, calls: calls.length, gaps };
  }

  it('a start answered 500 then 429 (Retry-After: 1) is tried again later each time, and completes charged once', async () => {
    vendor.runOverrides.push(INTERNAL, RATE_LIMITED);
    const { books, calls, gaps } = await generate('submit');
    expectSettledCleanly(books);
    expect(books.status).toBe('completed');
    expect(calls).toBe(3);
    expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8); // backoff after the 500
    expect(gaps[1]).toBeGreaterThanOrEqual(1000); // Retry-After: 1 honoured
    figures['start: 500, 429 (Retry-After 1), ok'] = `completed, charged ${books.charges}; 3 starts, waits ${gaps.join(' ms, ')} ms`;
  });

  it('a start the vendor keeps refusing (500 x 3) fails cleanly: not charged, hold released, tried 3 times with growing waits', async () => {
    vendor.runOverrides.push(INTERNAL, INTERNAL, INTERNAL);
    const { books, error, calls, gaps } = await generate('submit');
    expectSettledCleanly(books);
    expect({ status: books.status, error, calls }).toEqual({ status: 'failed', error: 'Failed to start generation', calls: 3 });
    expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8);
    expect(gaps[1]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 2 * 0.8);
    figures['start: 500 x 3'] =
      `failed "${error}", charged ${books.charges}, open holds ${books.openHolds}; 3 starts, waits ${gaps.join(' ms, ')} ms`;
  });

  it('a start that gets no answer in time fails with the timeout message and is not started again (it may be running)', async () => {
    vendor.runOverrides.push(SILENT);
    const { books, error, calls } = await generate('submit');
    expectSettledCleanly(books);
    expect({ status: books.status, error, calls }).toEqual({
      status: 'failed',
      error: 'Operation timed out: generation. Please try again.',
      calls: 1,
    });
    figures['start: no answer within the timeout'] = `failed "${error}", charged ${books.charges}, open holds ${books.openHolds}; 1 start`;
  });

  it('status checks answered 500, 429 (Retry-After: 1), nothing, 500 back off, then the generation completes charged once', async () => {
    vendor.statusOverrides.push(INTERNAL, RATE_LIMITED, SILENT, INTERNAL);
    const { books, calls, gaps } = await generate('poll');
    expectSettledCleanly(books);
    expect(books.status).toBe('completed');
    expect(calls).toBe(6); // 4 failed checks, "processing", "completed"
    expect(gaps[0]).toBeGreaterThanOrEqual(POLL_MS * 0.8);
    expect(gaps[1]).toBeGreaterThanOrEqual(1000); // Retry-After honoured
    expect(gaps[2]).toBeGreaterThanOrEqual(TIMEOUT_MS + POLL_MS * 4 * 0.8); // the timeout, then 4 x the interval
    expect(gaps[3]).toBeGreaterThanOrEqual(POLL_MS * 8 * 0.8);
    figures['status: 500, 429, no answer, 500, ok'] =
      `completed, charged ${books.charges}; ${calls} checks, waits ${gaps.join(' ms, ')} ms`;
  });

  it('status checks that never succeed end in a clean failure at the deadline: not charged, hold released', async () => {
    for (let i = 0; i < 100; i++) vendor.statusOverrides.push(INTERNAL);
    const t0 = Date.now();
    const { books, error, calls, gaps } = await generate('poll');
    expectSettledCleanly(books);
    expect({ status: books.status, error }).toEqual({ status: 'failed', error: 'Generation failed' });
    // it kept asking, later each time, until its deadline and not before (the last check is at most 300 ms early)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - POLL_MS);
    expect(calls).toBeGreaterThanOrEqual(6);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(POLL_MS * 8 * 1.2 + 500); // capped
    figures['status: 500 forever'] =
      `failed "${error}" after ${calls} checks in ${Date.now() - t0} ms, charged ${books.charges}, open holds ${books.openHolds}; waits ${gaps.join(', ')} ms`;
  });
});
