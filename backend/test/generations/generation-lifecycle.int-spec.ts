/**
 * One generation from start to end, for both queue drivers (in-process, and BullMQ on the real
 * Redis), against the real PostgreSQL, with only the AI vendor replaced by a fake: success (stages
 * in order over SSE, result stored, charged once), vendor failure, moderation refusal, the timeout
 * at the deadline (time budgets scaled down to seconds; generation-budgets.int-spec.ts runs the
 * default ones), cancel, the provider's webhook. After each: the ledger equals the balances.
 */
import sharp from 'sharp';
import { ProviderErrorKind } from '../../src/modules/generations/providers/ai-provider';
import { MessageQueueService, QueueName } from '../../src/queue';
import { FakeAiProvider, fakeResultJpeg } from '../fakes/fake-ai-provider';
import { bearer } from '../helpers/auth';
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
  type DriverKind,
  type GenerationApp,
  type SseEvent,
} from './generation-test-kit';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

const STAGE_ORDER = ['creating', 'starting', 'processing', 'polling', 'finalizing'];
const TIMEOUT = 'Operation timed out: generation. Please try again.';

/** The app's address; the links it gives the browser are host-relative. */
let baseUrl = '';
async function fetchBytes(url: string): Promise<{ status: number; type: string | null; body: Buffer; disposition: string | null }> {
  expect(url).toMatch(/^\/api\/files\//);
  const res = await fetch(`${baseUrl}${url}`);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
    disposition: res.headers.get('content-disposition'),
  };
}

/** Mean absolute difference of two images' pixels (same size), 0-255. */
async function pixelDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((img) => sharp(img).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - y[i]);
  return sum / x.length;
}

describe.each<DriverKind>(['in-process', 'bullmq'])('a generation, %s queue', (driver) => {
  let t: GenerationApp;
  const fake = new FakeAiProvider();

  beforeAll(async () => {
    t = await createGenerationApp({ driver, provider: fake, env: { AI_POLL_INTERVAL_MS: '40' } });
    baseUrl = t.baseUrl;
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    fake.behaviour = { kind: 'succeed', polls: 3 };
    fake.startDelayMs = 0;
  });

  it('succeeds: the stages arrive in order over SSE, the result is stored, watermarked and tagged, charged once', async () => {
    const who = await person(t); // free: 3 credits
    const upload = await uploadPhoto(t, who);
    fake.startDelayMs = 700; // long enough for the stream to open while the provider is starting
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      user_id: who.userId,
      type: 'image',
      status: 'processing',
      cost: 1,
      category: 'bikini',
      metadata: { outfit_id: 'bikini-yellow', scene_id: 'beach-standing', upload_ids: [upload] },
      url: null,
      error: null,
    });
    expect(started.body.prompt).toMatch(/^show the woman /);
    expect(started.body.metadata.upload_path).toBe(`users/${who.userId}/uploads/${upload}.jpg`);
    const id = started.body.id as string;
    expect((await books(t.db, who.userId, id)).held).toBe(1);

    const stream = await collectEvents(t.baseUrl, id, who.accessToken);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const progress = stream.events.filter((e) => e.event === 'progress').map((e) => e.data);
    const stages = progress.map((p) => p.stage as string);
    // never backwards, and every stage is seen, the ones passed before the stream opened too
    expect(stages.map((s) => STAGE_ORDER.indexOf(s))).toEqual([...stages.map((s) => STAGE_ORDER.indexOf(s))].sort((a, b) => a - b));
    expect([...new Set(stages)]).toEqual(STAGE_ORDER);
    expect(progress[0]?.message).toBe('Saving your request...');
    // "Still working (n of max)": max is the checks that fit in its budget, as recorded on it
    const polls = progress.filter((p) => p.stage === 'polling');
    const [{ max_polls: maxPolls }] = await t.db.query(`SELECT max_polls FROM user_generations WHERE id = $1`, [id]);
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.map((p) => p.message)).toEqual(polls.map((p) => `Still working (${p.poll} of ${maxPolls})...`));
    // the fake provider is named 'preview' (the local renderer's name): its start is worded as the preview's
    expect(progress.find((p) => p.stage === 'starting')?.message).toBe('Making your preview...');
    expect(progress.find((p) => p.stage === 'processing')?.message).toBe('Creating your look (this may take 10-30 seconds)...');
    expect(progress.find((p) => p.stage === 'finalizing')?.message).toBe('Finishing touches...');
    const last = stream.events.at(-1) as SseEvent;
    expect(last.event).toBe('completed');
    expect(last.data.generation).toMatchObject({ id, status: 'completed', progress: { stage: 'complete', message: 'Complete!' } });

    // the stored result: ours, private, watermarked (free tier) and tagged AI-generated
    const [row] = await t.db.query(`SELECT result_key, provider_job_id FROM user_generations WHERE id = $1`, [id]);
    expect(row.result_key).toBe(`users/${who.userId}/results/${id}.jpg`);
    const file = await fetchBytes(last.data.generation.url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/jpeg');
    const meta = await sharp(file.body).metadata();
    expect([meta.width, meta.height]).toEqual([600, 800]);
    expect(meta.exif?.toString('latin1')).toContain('AI-generated');
    expect(meta.xmp?.toString()).toContain('trainedAlgorithmicMedia');
    expect(await pixelDiff(file.body, await fakeResultJpeg())).toBeGreaterThan(1.5); // the watermark is there

    const money = await books(t.db, who.userId, id);
    expect(money).toMatchObject({ charged: 1, held: 0, available: 2, balanced: true, holds: [{ status: 'captured', amount: 1 }] });
    expect(fake.startsFor(id)).toBe(1);
    expect(fake.starts.find((s) => s.generationId === id)).toMatchObject({
      type: 'image',
      size: '2953*4096',
      templateId: 'bikini-yellow',
      sceneId: 'beach-standing',
    });

    const events = await t.db.query(`SELECT event FROM analytics_events WHERE properties->>'generation_id' = $1 ORDER BY created_at`, [id]);
    expect(events.map((e: { event: string }) => e.event)).toEqual(['generation_started', 'generation_completed']);
    const activity = await t.db.query(
      `SELECT activity_type FROM user_activity_logs WHERE user_id = $1 AND activity_type LIKE 'generation%' ORDER BY created_at`,
      [who.userId],
    );
    expect(activity.map((a: { activity_type: string }) => a.activity_type)).toEqual(['generation_started', 'generation_completed']);

    // listed, downloadable under the product's name, and a late stream just says completed
    const list = await t.http.get('/api/generations').set(bearer(who.accessToken)).expect(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, items: [{ id, status: 'completed' }] });
    const download = await t.http.get(`/api/generations/${id}/download`).set(bearer(who.accessToken)).expect(302);
    const downloaded = await fetchBytes(download.headers.location);
    expect(downloaded.disposition).toBe(`attachment; filename="fitting-room-${id}.jpg"`);
    expect(downloaded.body.equals(file.body)).toBe(true);
    // a browser that comes after the end still sees each stage it passed, in order, then completed
    const late = await collectEvents(t.baseUrl, id, who.accessToken);
    expect(late.events.map((e) => (e.event === 'progress' ? e.data.stage : e.event))).toEqual([...STAGE_ORDER, 'completed']);
    // the user's stats count it, and the credit it cost
    expect((await t.http.get('/api/me/stats').set(bearer(who.accessToken)).expect(200)).body).toMatchObject({
      total_generations: 1,
      successful_generations: 1,
      failed_generations: 0,
      total_credits_spent: 1,
    });
  });

  it('does not watermark a paid tier, and stores a video as a tagged MP4', async () => {
    const who = await person(t, { tier: 'glow_up', addCredits: 10 });
    const upload = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'succeed', polls: 1 };
    const image = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const done = await waitForEnd(t, who, image.body.id);
    expect(done.status).toBe('completed');
    expect(await pixelDiff((await fetchBytes(done.url)).body, await fakeResultJpeg())).toBeLessThan(1.5);

    const video = await startGeneration(t, who, { ...IMAGE_START, type: 'video', upload_ids: [upload] });
    expect(video.status).toBe(202);
    expect(video.body.cost).toBe(4); // beach-standing 1 + video 3
    const finished = await waitForEnd(t, who, video.body.id);
    expect(finished.status).toBe('completed');
    const file = await fetchBytes(finished.url);
    expect(file.type).toBe('video/mp4');
    expect(file.body.toString('latin1', 4, 8)).toBe('ftyp');
    expect(file.body.toString('latin1')).toContain('AI-generated');
    const download = await t.http.get(`/api/generations/${video.body.id}/download`).set(bearer(who.accessToken)).expect(302);
    expect((await fetchBytes(download.headers.location)).disposition).toBe(`attachment; filename="fitting-room-${video.body.id}.mp4"`);
    expect(await books(t.db, who.userId)).toMatchObject({ held: 0, balanced: true, available: 3 + 10 - 1 - 4 });
  });

  it('fails with "Generation failed" when the vendor fails, releasing the hold', async () => {
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'fail', polls: 2, reason: 'PipelineError: out of memory' };
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const stream = await collectEvents(t.baseUrl, started.body.id, who.accessToken);
    expect(stream.events.at(-1)).toEqual({ event: 'failed', data: { reason: 'Generation failed' } });
    const done = await waitForEnd(t, who, started.body.id);
    expect(done).toMatchObject({
      status: 'failed',
      error: 'Generation failed',
      url: null,
      progress: { stage: 'failed', message: 'Generation failed' },
    });
    expect(await books(t.db, who.userId, started.body.id)).toMatchObject({
      charged: 0,
      held: 0,
      available: 3,
      balanced: true,
      holds: [{ status: 'released' }],
    });
    const events = await t.db.query(`SELECT event FROM analytics_events WHERE properties->>'generation_id' = $1 ORDER BY created_at`, [
      started.body.id,
    ]);
    expect(events.map((e: { event: string }) => e.event)).toEqual(['generation_started', 'generation_failed']);
    // not listed: only completed generations are
    expect((await t.http.get('/api/generations').set(bearer(who.accessToken))).body.total).toBe(0);
    // counted as failed in the user's stats, and nothing spent
    expect((await t.http.get('/api/me/stats').set(bearer(who.accessToken)).expect(200)).body).toMatchObject({
      total_generations: 1,
      successful_generations: 0,
      failed_generations: 1,
      total_credits_spent: 0,
    });
  });

  it("fails with the vendor's refusal when its moderation refuses (at start or while processing)", async () => {
    const who = await person(t, { addCredits: 5 });
    const upload = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'refuse', at: 'status', reason: 'Refused by the content moderation of the vendor: DataInspectionFailed' };
    const a = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(await waitForEnd(t, who, a.body.id)).toMatchObject({
      status: 'failed',
      error: 'Refused by the content moderation of the vendor: DataInspectionFailed',
    });

    fake.behaviour = { kind: 'refuse', at: 'start', reason: 'Refused at the door' };
    const b = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(await waitForEnd(t, who, b.body.id)).toMatchObject({ status: 'failed', error: 'Refused at the door' });
    expect(fake.startsFor(b.body.id)).toBe(1);
    expect(await books(t.db, who.userId)).toMatchObject({ held: 0, available: 8, balanced: true });
  });

  it('fails at its deadline after a last check there: "Operation timed out...", the vendor told to stop, a late webhook taken for nothing', async () => {
    // a 2 s budget: checks 40, 60, 90, 135, 200, 200 ... ms apart, the last one at the deadline
    const hooked = new FakeAiProvider({ name: 'fashn', webhooks: true });
    const d = await createGenerationApp({ driver, provider: hooked, env: { AI_POLL_INTERVAL_MS: '40', AI_IMAGE_DEADLINE_SECONDS: '2' } });
    try {
      const who = await person(d);
      const upload = await uploadPhoto(d, who);
      hooked.behaviour = { kind: 'never' };
      const started = await startGeneration(d, who, { ...IMAGE_START, upload_ids: [upload] });
      const id = started.body.id as string;
      const stream = await collectEvents(d.baseUrl, id, who.accessToken);
      expect(stream.events.at(-1)).toEqual({ event: 'failed', data: { reason: TIMEOUT } });
      const [row] = await d.db.query(`SELECT max_polls, polls, created_at, deadline_at, completed_at FROM user_generations WHERE id = $1`, [
        id,
      ]);
      expect(new Date(row.deadline_at).getTime() - new Date(row.created_at).getTime()).toBe(2000);
      // not a moment before its deadline, after the last of its checks, numbered max
      expect(new Date(row.completed_at).getTime()).toBeGreaterThanOrEqual(new Date(row.deadline_at).getTime() - 40);
      const polls = stream.events.filter((e) => e.event === 'progress' && e.data.stage === 'polling');
      expect(polls.at(-1)?.data).toMatchObject({ poll: row.max_polls, message: `Still working (${row.max_polls} of ${row.max_polls})...` });
      expect(polls.every((p) => p.data.max_polls === row.max_polls)).toBe(true);
      const job = hooked.jobOf(id)!;
      expect(job.statusCalls).toBeGreaterThan(2);
      expect(job.statusCalls).toBeLessThanOrEqual(row.max_polls);
      await waitFor('the vendor told to stop', async () => hooked.cancels.includes(job.id));
      const released = { charged: 0, held: 0, available: 3, balanced: true, holds: [{ status: 'released', amount: 1 }] };
      expect(await books(d.db, who.userId, id)).toMatchObject(released);

      // the vendor finishes after all and calls back: too late, the generation stays failed and free
      hooked.finish(job.id);
      const call = hooked.webhookCall(job.id, 'completed');
      await d.http.post('/api/webhooks/ai/fashn').set(call.headers).send(call.body).expect(202);
      const after = await d.http.get(`/api/generations/${id}`).set(bearer(who.accessToken)).expect(200);
      expect(after.body).toMatchObject({ status: 'failed', error: TIMEOUT, url: null });
      expect(hooked.jobOf(id)!.statusCalls).toBe(job.statusCalls); // its result is not even asked for
      expect(await books(d.db, who.userId, id)).toMatchObject(released);
    } finally {
      await d.close();
    }
  });

  it('is cancelled by its owner: failed "Cancelled", hold released, polling stops, the vendor asked to stop', async () => {
    const who = await person(t);
    const other = await person(t);
    const upload = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'never' };
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const id = started.body.id as string;
    const stream = collectEvents(t.baseUrl, id, who.accessToken);
    await waitFor('a status check', async () => (fake.jobOf(id)?.statusCalls ?? 0) >= 2);

    await t.http.post(`/api/generations/${id}/cancel`).set(bearer(other.accessToken)).expect(404);
    const cancelled = await t.http.post(`/api/generations/${id}/cancel`).set(bearer(who.accessToken)).expect(200);
    expect(cancelled.body).toMatchObject({ id, status: 'failed', error: 'Cancelled' });
    expect((await stream).events.at(-1)).toEqual({ event: 'failed', data: { reason: 'Cancelled' } });
    expect(fake.cancels).toContain(fake.jobOf(id)!.id);
    const calls = fake.jobOf(id)!.statusCalls;
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.jobOf(id)!.statusCalls).toBeLessThanOrEqual(calls + 1); // at most the step already running
    expect(await books(t.db, who.userId, id)).toMatchObject({
      charged: 0,
      held: 0,
      available: 3,
      balanced: true,
      holds: [{ status: 'released' }],
    });
    const again = await t.http.post(`/api/generations/${id}/cancel`).set(bearer(who.accessToken)).expect(409);
    expect(again.body).toEqual({ statusCode: 409, code: 'CONFLICT', message: 'This generation is not running' });
  });

  it("finishes at once on the provider's verified webhook, and refuses a forged one", async () => {
    const hooked = new FakeAiProvider({ name: 'fashn', webhooks: true });
    const h = await createGenerationApp({ driver, provider: hooked, env: { AI_POLL_INTERVAL_MS: '60000' } });
    try {
      const who = await person(h);
      const upload = await uploadPhoto(h, who);
      hooked.behaviour = { kind: 'never' };
      const started = await startGeneration(h, who, { ...IMAGE_START, upload_ids: [upload] });
      const id = started.body.id as string;
      const job = await waitFor('the provider job', async () => {
        const [row] = await h.db.query(`SELECT provider_job_id FROM user_generations WHERE id = $1`, [id]);
        return row.provider_job_id as string | null;
      });
      expect(hooked.starts[0].webhookUrl).toBe(`${h.config.appUrl}/api/webhooks/ai/fashn`);

      const forged = hooked.webhookCall(job, 'completed', 'not-the-secret');
      const refused = await h.http.post('/api/webhooks/ai/fashn').set(forged.headers).send(forged.body);
      expect(refused.status).toBe(401);
      await h.http.post('/api/webhooks/ai/dashscope').set(forged.headers).send(forged.body).expect(404);

      hooked.finish(job);
      const call = hooked.webhookCall(job, 'completed');
      const accepted = await h.http.post('/api/webhooks/ai/fashn').set(call.headers).send(call.body);
      expect(accepted.status).toBe(202);
      expect(accepted.body).toEqual({ received: true });
      // the poll interval is a minute: only the webhook can have finished it this soon
      const done = await waitForEnd(h, who, id, 10_000);
      expect(done.status).toBe('completed');
      expect(await books(h.db, who.userId, id)).toMatchObject({ charged: 1, balanced: true });
      // the timed poll that was to run in a minute is gone from the queue, not left to run for nothing
      const generationsQueue = async () =>
        (await h.app.get(MessageQueueService).countsByQueue()).find((q) => q.name === QueueName.Generations)!.counts;
      await waitFor('no generation step left waiting', async () => ((await generationsQueue()).delayed === 0 ? true : null));
      expect(await generationsQueue()).toMatchObject({ waiting: 0, delayed: 0 });
      // a duplicate webhook changes nothing
      await h.http.post('/api/webhooks/ai/fashn').set(call.headers).send(call.body).expect(202);
      await new Promise((r) => setTimeout(r, 200));
      expect(await books(h.db, who.userId, id)).toMatchObject({ charged: 1, held: 0, balanced: true });
    } finally {
      await h.close();
    }
  });

  it('serves many browsers at once on a fresh process (the event subscriptions open concurrently)', async () => {
    const crowd = new FakeAiProvider();
    crowd.behaviour = { kind: 'succeed', polls: 2 };
    const c = await createGenerationApp({ driver, provider: crowd, env: { AI_POLL_INTERVAL_MS: '40' } });
    try {
      const people = await Promise.all(Array.from({ length: 8 }, () => person(c)));
      const photos = await Promise.all(people.map((who) => uploadPhoto(c, who)));
      const ids = await Promise.all(
        people.map(async (who, i) => (await startGeneration(c, who, { ...IMAGE_START, upload_ids: [photos[i]] })).body.id as string),
      );
      const streams = await Promise.all(ids.map((id, i) => collectEvents(c.baseUrl, id, people[i].accessToken)));
      expect(streams.map((s) => [s.status, s.events.at(-1)?.event])).toEqual(ids.map(() => [200, 'completed']));
      for (const [i, who] of people.entries())
        expect(await books(c.db, who.userId, ids[i])).toMatchObject({ charged: 1, held: 0, balanced: true });
    } finally {
      await c.close();
    }
  });

  it('retries a start refused with 429 (which starts nothing), and gives up on other start errors without starting twice', async () => {
    const who = await person(t, { addCredits: 5 });
    const upload = await uploadPhoto(t, who);
    fake.behaviour = { kind: 'startError', error: ProviderErrorKind.RateLimited, retryAfterMs: 30 };
    const limited = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(await waitForEnd(t, who, limited.body.id)).toMatchObject({ status: 'failed', error: 'Failed to start generation' });
    expect(fake.startsFor(limited.body.id)).toBe(3); // MAX_START_ATTEMPTS

    fake.behaviour = { kind: 'startError', error: ProviderErrorKind.Network };
    const network = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(await waitForEnd(t, who, network.body.id)).toMatchObject({ status: 'failed', error: 'Failed to start generation' });
    expect(fake.startsFor(network.body.id)).toBe(1); // the request may have reached the vendor: never again
    expect(await books(t.db, who.userId)).toMatchObject({ held: 0, available: 8, balanced: true });
  });
});
