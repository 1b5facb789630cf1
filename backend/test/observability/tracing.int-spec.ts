/**
 * One generation, followed as an operator would in a tracing backend (issue 35): the real API and
 * worker processes export their spans over OTLP/HTTP (JSON) to a collector in the test
 * (OTEL_EXPORTER_OTLP_ENDPOINT), the fake FASHN receives the trace context on each call and sends its
 * webhook back. One trace runs from `POST /api/generations` in the API through the submit job in the
 * worker to the vendor's call; the webhook's own trace links back to it; the log lines carry the
 * trace id. Without the setting nothing is traced: metrics.int-spec.ts runs without it, and its
 * vendor receives no trace context.
 */
import { openDb, personWithPhoto, Stack, waitUntilEnded } from '../faults/fault-kit';
import { HoldingFashn } from '../faults/holding-fashn';
import { IMAGE_START, waitFor } from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import { OtlpCollector, type ReceivedSpan } from './otlp-collector';
import type { DataSource } from 'typeorm';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const TRACE_ID = /^[0-9a-f]{32}$/;

interface LogLine {
  msg?: unknown;
  trace_id?: unknown;
  span_id?: unknown;
  req?: { url?: string };
  res?: { statusCode?: number };
}

/** A process's JSON log lines (the first may be cut: the output kept is its last part). */
function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

describe('one trace from the API through the queue and the worker to the vendor and back (OpenTelemetry, OTLP)', () => {
  const vendor = new HoldingFashn();
  const collector = new OtlpCollector();
  let stack: Stack;
  let db: DataSource;

  beforeAll(async () => {
    await Promise.all([vendor.start(), collector.start()]);
    // done at the first status check, which only the webhook asks for (the scheduled check is a minute away)
    vendor.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'completed' } };
    db = await openDb(testDatabaseUrl());
    stack = new Stack({
      databaseUrl: testDatabaseUrl(),
      redisUrl: testRedisUrl(),
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        FASHN_WEBHOOK_SECRET: 'fashn-webhook-secret-0123456789abcdef0123',
        PROVIDER_INPUTS: 'url',
        AI_POLL_INTERVAL_MS: '60000',
        AI_POLL_MAX_INTERVAL_MS: '60000',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        LOG_LEVEL: 'info',
      },
      // the worker's line for each job it ran ("Job ... done") is a debug line
      workerEnv: { LOG_LEVEL: 'debug' },
    });
    await stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await db?.destroy();
    await vendor.stop();
    await collector.stop();
  });

  const spanOf = (spans: ReceivedSpan[], service: string, name: string) => spans.find((s) => s.service === service && s.name === name);

  it('finds the request, the job, the worker and the vendor call in one trace, and the webhook linked to it', async () => {
    const who = await personWithPhoto(stack.http, db);
    const res = await stack.http
      .post('/api/generations')
      .set(bearer(who.accessToken))
      .send({ ...IMAGE_START, upload_ids: [who.photo] });
    expect(res.status).toBe(202);

    // the vendor was called with the trace context: that is the trace to follow
    const run = await waitFor('the vendor to be asked to start', async () => vendor.lastRun(), 60_000, 50);
    const [, traceId, vendorParent] = TRACEPARENT.exec(String(run.headers['traceparent'])) ?? [];
    expect(traceId).toBeDefined();

    // FASHN calls back; the app checks the status and stores the result
    const [predictionId] = [...vendor.predictions.keys()];
    expect(await vendor.deliverWebhook(predictionId)).toBeLessThan(300);
    expect(await waitUntilEnded(db, res.body.id, 60_000)).toBe('completed');

    const expected = ['POST /api/generations', 'job generation.submit', 'POST FASHN'];
    const spans = await waitFor(
      'the spans of the trace to reach the collector',
      async () => {
        const found = collector.trace(traceId);
        return expected.every((name) => found.some((s) => s.name === name)) ? found : undefined;
      },
      30_000,
      100,
    );

    // the API's request is the root
    const request = spanOf(spans, 'fitting-room-api', 'POST /api/generations')!;
    expect(request).toMatchObject({ kind: SERVER, parentSpanId: undefined });
    expect(request.attributes).toMatchObject({ 'http.route': '/api/generations', 'http.response.status_code': 202 });
    // the worker ran the job the request queued, as its child
    const submit = spanOf(spans, 'fitting-room-worker', 'job generation.submit')!;
    expect(submit).toMatchObject({ kind: CONSUMER, parentSpanId: request.spanId });
    // and called the vendor from within it; the vendor received that span as its parent
    const call = spanOf(spans, 'fitting-room-worker', 'POST FASHN')!;
    expect(call).toMatchObject({ kind: CLIENT, parentSpanId: submit.spanId, spanId: vendorParent });
    expect(call.attributes['fitting_room.vendor_outcome']).toBe('ok');
    // every span of the trace hangs from the request (none orphaned)
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s !== request && !ids.has(s.parentSpanId ?? ''))).toEqual([]);

    // the webhook: a request of the vendor's, its span linked to the generation's trace; the status
    // check it asked for (in the worker) and the vendor's answer belong to the webhook's trace
    const webhook = await waitFor(
      "the webhook's span",
      async () => collector.spans.find((s) => s.service === 'fitting-room-api' && s.name === 'POST /api/webhooks/ai/:provider'),
      30_000,
      100,
    );
    expect(webhook.links).toEqual([{ traceId, spanId: request.spanId }]);
    const check = await waitFor(
      'the status check the webhook asked for',
      async () => collector.trace(webhook.traceId).find((s) => s.name === 'job generation.poll'),
      30_000,
      100,
    );
    expect(check).toMatchObject({ service: 'fitting-room-worker', parentSpanId: webhook.spanId });
    expect(collector.trace(webhook.traceId).some((s) => s.name === 'GET FASHN' && s.parentSpanId === check.spanId)).toBe(true);

    // the log lines of that request and of the worker's jobs carry their trace's id and span
    const api = logLines(stack.api!.output());
    const worker = logLines(stack.worker!.output());
    const requestLine = api.find((l) => l.req?.url === '/api/generations' && l.res?.statusCode === 202);
    expect(requestLine).toMatchObject({ trace_id: traceId, span_id: request.spanId });
    const submitDone = worker.find((l) => /^Job generation\.submit \(.+\) done/.test(String(l.msg)));
    expect(submitDone).toMatchObject({ trace_id: traceId, span_id: submit.spanId });
    const checkDone = worker.find((l) => /^Job generation\.poll \(.+\) done/.test(String(l.msg)) && l.trace_id === webhook.traceId);
    expect(checkDone).toMatchObject({ span_id: check.spanId });
    // every line a job wrote carries a trace; the lines of no job (start-up) carry none
    const jobLines = worker.filter((l) => /^Job /.test(String(l.msg)));
    expect(jobLines.length).toBeGreaterThanOrEqual(2);
    expect(jobLines.filter((l) => !TRACE_ID.test(String(l.trace_id)))).toEqual([]);
    const started = worker.find((l) => l.msg === 'Worker started, consuming jobs');
    expect(started).toBeDefined();
    expect(started?.trace_id).toBeUndefined();
  }, 180_000);
});
