/**
 * Time budgets per generation type, through the whole application (real BullMQ on Redis, real
 * PostgreSQL, the DashScope adapter) against a fake Model Studio whose tasks take time
 * (clocked-dashscope.server.ts), on the default settings: the first status check 3 s after the start,
 * each wait then x1.5 up to 15 s, 5 minutes for an image and 15 for a video (generation-schedule.ts).
 *
 * Minutes pass in moments: each time the worker puts a status check on the queue with a wait,
 * `fastForward` moves the vendor's clock by that wait and the generation's stored deadline (and
 * creation) back by it, then lets the check run at once (BullMQ's promote). The worker measures its
 * budget against the stored deadline by the database's clock, so for it that much time has passed;
 * every other part (the queue, the adapter, the claims, the credits) runs as in production.
 *
 * Then: a start that timed out, or whose answer was lost, is never sent to the vendor twice,
 * whatever retries it (the queue's retry, a duplicate job, the sweep, a resubmit).
 */
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { GenerationPipeline } from '../../src/modules/generations/generation-pipeline';
import { checkTimesMs, pollScheduleOf } from '../../src/modules/generations/generation-schedule';
import { GenerationWorkerService } from '../../src/modules/generations/generation-worker.service';
import { JobName, QueueName } from '../../src/queue';
import { bearer } from '../helpers/auth';
import { ClockedDashScopeServer } from './clocked-dashscope.server';
import {
  books,
  collectEvents,
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitFor,
  waitForEnd,
  type GenerationApp,
} from './generation-test-kit';

const TIMEOUT = 'Operation timed out: generation. Please try again.';

/** The generations queue of an app, read directly in BullMQ (what is delayed, and making it due now). */
function generationsQueue(t: GenerationApp): { queue: Queue; close: () => Promise<void> } {
  const connection = new Redis(t.config.queue.redisUrl!, { maxRetriesPerRequest: null });
  const queue = new Queue(QueueName.Generations, { connection, prefix: t.config.queue.prefix });
  return {
    queue,
    close: async () => {
      await queue.close();
      await connection.quit();
    },
  };
}

describe('time budgets on the default settings (BullMQ, a fake Model Studio on a clock)', () => {
  const vendor = new ClockedDashScopeServer();
  let t: GenerationApp;
  let q: ReturnType<typeof generationsQueue>;

  beforeAll(async () => {
    await vendor.start();
    t = await createGenerationApp({
      driver: 'bullmq',
      env: {
        AI_PROVIDER: 'dashscope',
        DASHSCOPE_API_KEY: vendor.apiKey,
        DASHSCOPE_BASE_URL: vendor.baseUrl,
        // the defaults, over the test kit's faster ones
        AI_POLL_INTERVAL_MS: '3000',
        AI_POLL_MAX_INTERVAL_MS: '15000',
      },
    });
    q = generationsQueue(t);
  });
  afterAll(async () => {
    await q?.close();
    await t?.close();
    await vendor.stop();
  });
  beforeEach(() => vendor.reset());

  /** Moves the generation's stored times back by `ms`, as if that much of its life had passed. */
  async function age(id: string, ms: number): Promise<void> {
    await t.db.query(
      `UPDATE user_generations SET deadline_at = deadline_at - $2 * interval '1 millisecond',
              created_at = created_at - $2 * interval '1 millisecond' WHERE id = $1`,
      [id, ms],
    );
  }

  /**
   * Runs each status check of generation `id` as soon as the worker puts it on the queue, until the
   * generation ends: the vendor's clock moves by the check's wait, and the generation ages by what
   * is left of that wait (the real time since the check was queued has passed already). Answers the
   * waits, in order.
   */
  async function fastForward(id: string): Promise<number[]> {
    const waits: number[] = [];
    for (;;) {
      const next = await waitFor(
        `generation ${id}'s next status check, or its end`,
        async () => {
          const [row] = await t.db.query(`SELECT status FROM user_generations WHERE id = $1`, [id]);
          if (row.status !== 'processing') return { job: undefined };
          const delayed: Job[] = await q.queue.getDelayed();
          const job = delayed.find((j) => j.name === JobName.GenerationPoll && j.data.generationId === id);
          return job ? { job } : undefined;
        },
        60_000,
        10,
      );
      if (!next.job) return waits;
      const wait = next.job.delay;
      const aged = Math.max(0, wait - (Date.now() - next.job.timestamp));
      vendor.advance(wait);
      await age(id, aged);
      try {
        await next.job.promote();
      } catch {
        // it became due on its own meanwhile (a stalled machine): its real wait has passed, not a moved one
        vendor.advance(-wait);
        await age(id, -aged);
      }
      waits.push(wait);
    }
  }

  const DEFAULT_SCHEDULE = pollScheduleOf({ pollIntervalMs: 3000, pollMaxIntervalMs: 15_000 });

  it('a video that takes 4 minutes (the old 60 checks 3 s apart gave up at 180 s) completes, seen at check 19, 249.4 s in', async () => {
    vendor.nextTiming = { queuedMs: 20_000, doneMs: 240_000 };
    const who = await person(t, { tier: 'model_mode', addCredits: 10 });
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, type: 'video', upload_ids: [upload] });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    const stream = collectEvents(t.baseUrl, id, who.accessToken, 120_000);
    const waits = await fastForward(id);

    const [row] = await t.db.query(
      `SELECT status, error, polls, max_polls, provider_job_id, result_key,
              extract(epoch FROM deadline_at - created_at)::int AS budget_s FROM user_generations WHERE id = $1`,
      [id],
    );
    expect(row).toMatchObject({ status: 'completed', error: null, budget_s: 900, max_polls: 63, polls: 19 });
    expect(row.result_key).toBe(`users/${who.userId}/results/${id}.mp4`);
    // the vendor was asked 19 times, on the default schedule: 3, 7.5, 14.25, 24.375 s, then every 15 s
    const planned = checkTimesMs(900_000, DEFAULT_SCHEDULE);
    expect(vendor.queryTimes.get(row.provider_job_id)).toEqual(planned.slice(0, 19));
    expect(planned[18]).toBe(249_375);
    expect(waits).toEqual([3000, 4500, 6750, 10_125, ...Array(15).fill(15_000)]);
    expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 4, held: 0, balanced: true, holds: [{ status: 'captured' }] });

    // what the person saw: "Still working (n of 63)" counting up, then the video
    const { events } = await stream;
    expect(events.at(-1)?.event).toBe('completed');
    const checks = events.filter((e) => e.event === 'progress' && e.data.stage === 'polling').map((e) => e.data);
    expect(checks.every((c) => c.message === `Still working (${c.poll} of 63)...`)).toBe(true);
    expect(checks.map((c) => c.poll)).toEqual([...checks.map((c) => c.poll)].sort((a, b) => a - b));
    expect(checks.at(-1)?.poll).toBeGreaterThanOrEqual(18);
  });

  it('an image still queued at its deadline: 23 checks, the last at 5 minutes; failed, its credits released, cancelled at the vendor', async () => {
    vendor.nextTiming = { queuedMs: Number.POSITIVE_INFINITY, doneMs: Number.POSITIVE_INFINITY };
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const id = started.body.id as string;
    const stream = collectEvents(t.baseUrl, id, who.accessToken, 120_000);
    await fastForward(id);

    const [row] = await t.db.query(
      `SELECT status, error, polls, max_polls, provider_job_id, completed_at >= deadline_at AS at_deadline,
              extract(epoch FROM deadline_at - created_at)::int AS budget_s FROM user_generations WHERE id = $1`,
      [id],
    );
    expect(row).toMatchObject({ status: 'failed', error: TIMEOUT, budget_s: 300, max_polls: 23, polls: 23, at_deadline: true });
    const asked = vendor.queryTimes.get(row.provider_job_id)!;
    expect(asked).toHaveLength(23);
    expect(asked.slice(0, 22)).toEqual(checkTimesMs(300_000, DEFAULT_SCHEDULE).slice(0, 22));
    expect(asked[22]).toBeGreaterThan(294_375);
    expect(asked[22]).toBeLessThanOrEqual(300_000);
    await waitFor('the vendor to cancel the task', async () => vendor.cancelled.includes(row.provider_job_id));
    expect(await books(t.db, who.userId, id)).toMatchObject({
      charged: 0,
      held: 0,
      available: 3,
      balanced: true,
      holds: [{ status: 'released' }],
    });
    const { events } = await stream;
    expect(events.at(-1)).toEqual({ event: 'failed', data: { reason: TIMEOUT } });
    const checks = events.filter((e) => e.event === 'progress' && e.data.stage === 'polling');
    expect(checks.at(-1)?.data.message).toBe('Still working (23 of 23)...');
  });

  it('a result that comes between the last regular check and the deadline is taken at the last check: charged, nothing cancelled', async () => {
    // check 22 comes 294.375 s in; the task finishes at 295 s; the last check is at 300 s
    vendor.nextTiming = { queuedMs: 30_000, doneMs: 295_000 };
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const id = started.body.id as string;
    await fastForward(id);

    const [row] = await t.db.query(
      `SELECT status, error, polls, max_polls, provider_job_id, result_key FROM user_generations WHERE id = $1`,
      [id],
    );
    expect(row).toMatchObject({ status: 'completed', error: null, polls: 23, max_polls: 23 });
    expect(row.result_key).toBe(`users/${who.userId}/results/${id}.jpg`);
    expect(vendor.queryTimes.get(row.provider_job_id)).toHaveLength(23);
    expect(vendor.cancelled).toEqual([]);
    expect(vendor.cancelRefused).toEqual([]);
    expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 1, held: 0, balanced: true, holds: [{ status: 'captured' }] });
    const done = await t.http.get(`/api/generations/${id}`).set(bearer(who.accessToken)).expect(200);
    expect(done.body).toMatchObject({ status: 'completed', progress: { stage: 'complete', message: 'Complete!' } });
  });
});

describe('a start is never sent to the vendor twice (BullMQ, a fake Model Studio)', () => {
  const vendor = new ClockedDashScopeServer();
  let t: GenerationApp;
  let q: ReturnType<typeof generationsQueue>;
  let worker: GenerationWorkerService;
  let pipeline: GenerationPipeline;

  beforeAll(async () => {
    await vendor.start();
    t = await createGenerationApp({
      driver: 'bullmq',
      env: {
        AI_PROVIDER: 'dashscope',
        DASHSCOPE_API_KEY: vendor.apiKey,
        DASHSCOPE_BASE_URL: vendor.baseUrl,
        AI_REQUEST_TIMEOUT_MS: '8000',
        AI_RETRY_BASE_MS: '100',
      },
    });
    q = generationsQueue(t);
    worker = t.app.get(GenerationWorkerService);
    pipeline = t.app.get(GenerationPipeline);
  });
  afterAll(async () => {
    await q?.close();
    await t?.close();
    await vendor.stop();
  });
  beforeEach(() => {
    vendor.reset();
    vendor.nextTiming = { queuedMs: 0, doneMs: 0 }; // done at the first query
  });

  /** Waits until no start of any generation waits, runs or is delayed in the queue. */
  async function noStartQueued(): Promise<void> {
    await waitFor('no start left in the queue', async () => {
      const jobs: Job[] = await q.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
      return !jobs.some((j) => j.name === JobName.GenerationSubmit);
    });
  }

  /** Every way a start could be tried again: a duplicate or retried start job, a start job run directly, the sweep, a resubmit. */
  async function tryEverythingThatCouldStartItAgain(id: string): Promise<void> {
    await pipeline.submit(id);
    await pipeline.resubmit({ id, attempts: 1 }, 0);
    await worker.handleSubmit({ generationId: id });
    await worker.resume(true);
    await worker.handleSweep();
    await noStartQueued();
  }

  it('a start that got no answer in time fails with the timeout, and nothing sends it again (the vendor did start a task)', async () => {
    vendor.creationDelayMs = 12_000; // answers after our 8 s timeout
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const id = started.body.id as string;
    const done = await waitForEnd(t, who, id, 40_000);
    expect(done).toMatchObject({ status: 'failed', error: TIMEOUT });
    await tryEverythingThatCouldStartItAgain(id);
    await waitFor('the vendor to have made its task', async () => vendor.timings.size === 1, 30_000);
    expect(vendor.creations()).toHaveLength(1);
    const [row] = await t.db.query(`SELECT status, attempts, provider_job_id FROM user_generations WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'failed', attempts: 1, provider_job_id: null });
    expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 0, held: 0, available: 3, balanced: true });
  });

  it('a start whose process died during the call (in doubt) is failed by the sweep, never repeated; its late task is cancelled', async () => {
    vendor.creationDelayMs = 5000; // within the timeout: the answer would come, but its process is gone
    vendor.nextTiming = { queuedMs: 60_000, doneMs: 120_000 };
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const id = started.body.id as string;
    await waitFor('the start to reach the vendor', async () => vendor.creations().length === 1);
    // another worker takes the job over (BullMQ hands a stalled job back): the claim refuses it
    await worker.handleSubmit({ generationId: id });
    expect(vendor.creations()).toHaveLength(1);
    // long after, the sweep finds the start in doubt: it fails it rather than start it again
    await t.db.query(
      `UPDATE user_generations SET submit_started_at = now() - interval '10 minutes', updated_at = now() - interval '10 minutes' WHERE id = $1`,
      [id],
    );
    await worker.handleSweep();
    const done = await waitForEnd(t, who, id);
    expect(done).toMatchObject({ status: 'failed', error: 'Failed to start generation' });
    expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 0, held: 0, available: 3, balanced: true });
    // the vendor's answer arrives at last: the generation has ended, so the task it names is cancelled
    await waitFor('the late task to be cancelled', async () => vendor.cancelled.length === 1);
    expect(vendor.cancelled).toEqual([...vendor.timings.keys()]);
    await tryEverythingThatCouldStartItAgain(id);
    expect(vendor.creations()).toHaveLength(1);
  });

  it('a 504 from the gateway is a start in doubt too: failed, not retried', async () => {
    vendor.submitOverrides.push({ status: 504, body: { request_id: 'r-504', code: 'GatewayTimeout', message: 'Gateway Timeout' } });
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const done = await waitForEnd(t, who, started.body.id);
    expect(done).toMatchObject({ status: 'failed', error: 'Failed to start generation' });
    await tryEverythingThatCouldStartItAgain(started.body.id);
    expect(vendor.creations()).toHaveLength(1);
  });

  it('while a 429, which starts nothing, is tried again: two creations, one task, charged once', async () => {
    vendor.submitOverrides.push({
      status: 429,
      body: { request_id: 'r-429', code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' },
    });
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const done = await waitForEnd(t, who, started.body.id, 30_000);
    expect(done).toMatchObject({ status: 'completed' });
    expect(vendor.creations()).toHaveLength(2);
    expect(vendor.timings.size).toBe(1);
    expect(await books(t.db, who.userId, started.body.id)).toMatchObject({ charged: 1, held: 0, balanced: true });
  });
});
