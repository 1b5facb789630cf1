/**
 * The metrics an operator scrapes (issue 35): the real API (`dist/main.js`) and worker
 * (`dist/worker.js`) processes, each with its own METRICS_PORT behind METRICS_TOKEN, a fake FASHN,
 * and what a day brings: a generation that completes, one the vendor fails, refused custom poses
 * up to a pause, a signed Stripe webhook event. Then both are scraped as Prometheus does, and each
 * family of docs/operations.md#metrics is there with the values those steps must have left.
 * Another test: the public port serves no metrics, and the metrics port none without the token.
 */
import Stripe from 'stripe';
import { freePort } from '../../src/common/free-port';
import { openDb, personWithPhoto, Stack, waitUntilEnded } from '../faults/fault-kit';
import { HoldingFashn } from '../faults/holding-fashn';
import { IMAGE_START, waitFor } from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import { parsePrometheusText, type Scrape } from './prometheus-text';
import type { DataSource } from 'typeorm';

const TOKEN = 'metrics-token-0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_metrics_test_0123456789abcdef';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('metrics of the API and of a worker (Prometheus, METRICS_PORT)', () => {
  const vendor = new HoldingFashn();
  let stack: Stack;
  let db: DataSource;
  let apiMetrics: string;
  let workerMetrics: string;

  beforeAll(async () => {
    await vendor.start();
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'completed' } };
    db = await openDb(testDatabaseUrl());
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    apiMetrics = `http://127.0.0.1:${apiPort}/metrics`;
    workerMetrics = `http://127.0.0.1:${workerPort}/metrics`;
    stack = new Stack({
      databaseUrl: testDatabaseUrl(),
      redisUrl: testRedisUrl(),
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        PROVIDER_INPUTS: 'url',
        AI_POLL_INTERVAL_MS: '300',
        AI_POLL_MAX_INTERVAL_MS: '300',
        AI_RETRY_BASE_MS: '100',
        METRICS_TOKEN: TOKEN,
        STRIPE_SECRET_KEY: 'sk_test_metrics_0123456789',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: 'http://127.0.0.1:9', // never called: the event below needs nothing from Stripe
        STRIPE_EVENT_RETRY_MS: '100',
      },
      apiEnv: { METRICS_PORT: String(apiPort) },
      workerEnv: { METRICS_PORT: String(workerPort) },
    });
    await stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await db?.destroy();
    await vendor.stop();
  });

  async function scrape(url: string): Promise<Scrape> {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await res.text());
  }

  it('after a day of work, each family is there with the values that work left, in the API and in the worker', async () => {
    // a generation that completes
    const who = await personWithPhoto(stack.http, db);
    const ok = await stack.http
      .post('/api/generations')
      .set(bearer(who.accessToken))
      .send({ ...IMAGE_START, upload_ids: [who.photo] });
    expect(ok.status).toBe(202);
    expect(await waitUntilEnded(db, ok.body.id, 60_000)).toBe('completed');
    const cost: number = ok.body.cost ?? (await db.query(`SELECT cost FROM user_generations WHERE id = $1`, [ok.body.id]))[0].cost;

    // one the vendor fails: 500 on each of the 3 tries of its start, then its hold is released
    const other = await personWithPhoto(stack.http, db);
    for (let i = 0; i < 3; i++) vendor.runOverrides.push({ status: 500, body: { error: 'InternalServerError', message: 'boom' } });
    const failed = await stack.http
      .post('/api/generations')
      .set(bearer(other.accessToken))
      .send({ ...IMAGE_START, upload_ids: [other.photo] });
    expect(failed.status).toBe(202);
    expect(await waitUntilEnded(db, failed.body.id, 60_000)).toBe('failed');

    // refused custom poses, one more than an hour allows: the account is paused
    const refusals = 6;
    for (let i = 0; i < refusals; i++) {
      const res = await stack.http
        .post('/api/generations/check')
        .set(bearer(who.accessToken))
        .send({ type: 'image', category: 'bikini', template_id: 'bikini-yellow', custom_pose: 'topless on the beach' });
      expect(res.status).toBe(400);
    }

    // a signed Stripe event (of a type the app does not apply): received by the API, processed by the worker
    const payload = JSON.stringify({
      id: `evt_metrics_${Date.now()}`,
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000) - 2,
      api_version: '2026-10-28.endive',
      data: { object: { id: 'cus_metrics', object: 'customer' } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const stripe = await stack.http
      .post('/api/webhooks/stripe')
      .set('Stripe-Signature', signature)
      .set('Content-Type', 'application/json')
      .send(payload);
    expect(stripe.status).toBeLessThan(300);
    await waitFor(
      'the worker to apply the Stripe event',
      async () => ((await scrape(workerMetrics)).value('fr_stripe_events_total', { stage: 'processed', type: 'other' }) ?? 0) >= 1,
      30_000,
      200,
    );

    const api = await scrape(apiMetrics);
    const worker = await scrape(workerMetrics);

    // HTTP by route template, never by path: no id in any label
    expect(api.value('http_requests_total', { method: 'POST', route: '/api/generations', status: '202' })).toBe(2);
    expect(api.value('http_requests_total', { method: 'POST', route: '/api/generations/check', status: '400' })).toBe(refusals);
    expect(api.value('http_request_duration_seconds_count', { method: 'POST', route: '/api/generations', status_class: '2xx' })).toBe(2);
    expect(api.all('http_requests_total').length).toBeGreaterThan(3);
    for (const s of [...api.samples, ...worker.samples]) expect(Object.values(s.labels).join(' ')).not.toMatch(UUID);

    // queues: depth by state and the oldest waiting job's age, read from Redis at the scrape, in both
    for (const m of [api, worker]) {
      expect(m.value('fr_queue_up')).toBe(1);
      expect(m.value('fr_queue_jobs', { queue: 'generations', state: 'waiting' })).toBeGreaterThanOrEqual(0);
      expect(m.value('fr_queue_jobs', { queue: 'maintenance', state: 'failed' })).toBeGreaterThanOrEqual(0);
      expect(m.value('fr_queue_oldest_waiting_seconds', { queue: 'generations' })).toBeGreaterThanOrEqual(0);
    }
    // jobs ran in the worker, with their durations and outcomes
    // (the failed one's start was tried again by new submit jobs: one per try)
    expect(worker.value('fr_queue_job_duration_seconds_count', { job_name: 'generation.submit', outcome: 'completed' })).toBe(4);
    expect(
      worker.value('fr_queue_job_duration_seconds_count', { job_name: 'generation.poll', outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(worker.value('fr_queue_job_duration_seconds_sum', { job_name: 'generation.submit', outcome: 'completed' })).toBeGreaterThan(0);
    expect(api.all('fr_queue_job_duration_seconds_count')).toEqual([]); // the API runs no job (QUEUE_CONSUME_IN_API=false)

    // the vendor: calls by outcome with their time (the failed start: 3 answers of 500)
    expect(worker.value('fr_vendor_request_duration_seconds_count', { provider: 'FASHN', method: 'POST', outcome: 'ok' })).toBe(1);
    expect(worker.value('fr_vendor_request_duration_seconds_count', { provider: 'FASHN', method: 'POST', outcome: 'http_5xx' })).toBe(3);
    expect(
      worker.value('fr_vendor_request_duration_seconds_count', { provider: 'FASHN', method: 'GET', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);

    // generations: started in the API, ended in the worker, by type and outcome
    expect(api.value('fr_generations_started_total', { type: 'image' })).toBe(2);
    expect(worker.value('fr_generations_finished_total', { type: 'image', outcome: 'completed' })).toBe(1);
    expect(worker.value('fr_generations_finished_total', { type: 'image', outcome: 'failed' })).toBe(1);
    expect(worker.value('fr_generation_duration_seconds_count', { type: 'image' })).toBe(1);

    // credits: granted at the two sign-ups and held at the two starts (API), one captured and one released (worker)
    const [{ granted }] = await db.query(
      `SELECT sum(amount)::int AS granted FROM credit_ledger_entries WHERE user_id = ANY($1) AND kind = 'monthly_grant'`,
      [[who.userId, other.userId]],
    );
    expect(api.value('fr_credits_total', { flow: 'granted' })).toBe(granted);
    expect(api.value('fr_credits_total', { flow: 'held' })).toBe(2 * cost);
    expect(worker.value('fr_credits_total', { flow: 'captured' })).toBe(cost);
    expect(worker.value('fr_credits_total', { flow: 'released' })).toBe(cost);

    // Stripe: received by the API, processed by the worker with its lag since Stripe created it
    expect(api.value('fr_stripe_events_total', { stage: 'received', type: 'other' })).toBe(1);
    expect(worker.value('fr_stripe_events_total', { stage: 'processed', type: 'other' })).toBe(1);
    expect(worker.value('fr_stripe_event_lag_seconds_count', { stage: 'processed' })).toBe(1);
    expect(worker.value('fr_stripe_event_lag_seconds_sum', { stage: 'processed' })).toBeGreaterThanOrEqual(2);
    expect(worker.families.get('fr_stripe_events_total')).toBe('counter');

    // safety: every refusal by its reason, and the pause the sixth one caused
    expect(api.value('fr_safety_refusals_total', { reason: 'nudity' })).toBe(refusals);
    expect(api.value('fr_safety_pauses_total')).toBe(1);

    // no OTEL_EXPORTER_OTLP_ENDPOINT here: no tracing, the vendor gets no trace context
    expect(vendor.received.some((r) => 'traceparent' in r.headers)).toBe(false);

    // the process itself, and which process it is
    for (const [m, role] of [
      [api, 'api'],
      [worker, 'worker'],
    ] as const) {
      expect(m.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(m.value('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
      expect(m.families.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
      expect(m.value('fr_data_dir_free_bytes')).toBeGreaterThan(0);
      expect(m.samples.every((s) => s.labels.role === role)).toBe(true);
    }
  }, 180_000);

  it('serves no metrics on the public port, and none on the metrics port without the token', async () => {
    for (const path of ['/metrics', '/api/metrics']) {
      const res = await fetch(`${stack.baseUrl}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      const body = await res.text();
      expect(body).not.toMatch(/# TYPE|http_requests_total|process_cpu/);
    }
    for (const url of [apiMetrics, workerMetrics]) {
      const none = await fetch(url);
      expect(none.status).toBe(401);
      expect(await none.text()).not.toMatch(/# TYPE/);
      const wrong = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN.replace(/.$/, 'x')}` } });
      expect(wrong.status).toBe(401);
      // only /metrics, only read
      expect((await fetch(url.replace('/metrics', '/api/health'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      expect((await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    }
  });
});
