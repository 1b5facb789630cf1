/**
 * Webhooks for developers (docs/api.md#webhooks) with the real app and queue (the AI vendor
 * replaced by its fake) and a real HTTP endpoint on this machine: generation.completed,
 * generation.failed and credits.changed arrive signed after the change committed; a failed
 * delivery is retried with backoff and shown in the delivery log; an endpoint that keeps failing is
 * switched off with a mail, and a test event that gets through switches it on again. In production
 * no delivery reaches a loopback or private address, whatever the host name resolves to at the time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { DeveloperWebhooksService } from '../../src/modules/developer-webhooks/developer-webhooks.service';
import { FakeAiProvider } from '../fakes/fake-ai-provider';
import {
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitFor,
  waitForEnd,
  type GenerationApp,
} from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import { readOutbox } from '../helpers/mail';
import { WebhookReceiver, type ReceivedDelivery } from './webhook-receiver';

/** The receiver's check, written as docs/api.md tells a developer to write it. */
function signatureHolds(secret: string, delivery: ReceivedDelivery, now = Math.floor(Date.now() / 1000)): boolean {
  const header = String(delivery.headers['fitting-room-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${delivery.rawBody}`).digest('hex');
  return !!parts.v1 && parts.v1.length === expected.length && timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
}

describe('webhooks for developers', () => {
  let t: GenerationApp;
  let db: DataSource;
  const fake = new FakeAiProvider();
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createGenerationApp({ driver: 'in-process', provider: fake });
    db = t.db;
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });
  beforeEach(() => {
    fake.behaviour = { kind: 'succeed', polls: 0 };
    receiver.status = 200;
  });

  const addEndpoint = async (who: SignedIn, events: string[], url = receiver.url) => {
    const res = await t.http.post('/api/me/webhooks').set(bearer(who.accessToken)).send({ url, events });
    if (res.status !== 201) throw new Error(`endpoint creation answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as { id: string; secret: string };
  };
  const deliveriesTo = (endpointId: string) =>
    db.query(`SELECT * FROM developer_webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at`, [endpointId]);

  it('delivers a signed generation.completed and credits.changed once the result is stored, and logs them', async () => {
    const who = await person(t);
    const endpoint = await addEndpoint(who, ['generation.completed', 'credits.changed']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [await uploadPhoto(t, who)] });
    expect(started.status).toBe(202);
    await waitForEnd(t, who, started.body.id);
    const completed = await waitFor('generation.completed', async () =>
      receiver.of('generation.completed').find((d) => d.body.data.generation.id === started.body.id),
    );
    expect(signatureHolds(endpoint.secret, completed)).toBe(true);
    expect(signatureHolds('whsec_someone-else', completed)).toBe(false);
    expect(completed.headers).toMatchObject({
      'content-type': 'application/json',
      'fitting-room-event': 'generation.completed',
      'user-agent': 'FittingRoom-Webhooks/1.0',
    });
    expect(completed.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'generation.completed',
      created_at: expect.any(String),
      data: {
        generation: {
          id: started.body.id,
          status: 'completed',
          type: 'image',
          category: 'bikini',
          credits_charged: started.body.cost,
          url: `${t.config.appUrl}/api/generations/${started.body.id}`,
          download_url: `${t.config.appUrl}/api/generations/${started.body.id}/download`,
        },
      },
    });
    const credits = await waitFor('credits.changed', async () =>
      receiver.of('credits.changed').find((d) => d.body.data.changes.some((c: { kind: string }) => c.kind === 'generation_charge')),
    );
    expect(signatureHolds(endpoint.secret, credits)).toBe(true);
    const balance = await t.app.get(CreditsService).getBalance(who.userId);
    expect(credits.body.data).toEqual({
      balance,
      changes: [{ kind: 'generation_charge', bucket: 'subscription', amount: -started.body.cost }],
    });
    const log = await waitFor('the delivery log', async () => {
      const res = await t.http.get('/api/me/webhooks').set(bearer(who.accessToken)).expect(200);
      const deliveries = res.body[0].deliveries as { state: string }[];
      return deliveries.length >= 2 && deliveries.every((d) => d.state === 'succeeded') ? res.body : undefined;
    });
    expect(log[0]).toMatchObject({
      id: endpoint.id,
      url: receiver.url,
      enabled: true,
      events: ['generation.completed', 'credits.changed'],
    });
    expect(log[0].secret).toBeUndefined();
    expect(log[0].deliveries[0]).toMatchObject({ state: 'succeeded', attempts: 1, last_status: 200, last_error: null });
    expect(log[0].deliveries[0].last_duration_ms).toEqual(expect.any(Number));
  });

  it('delivers generation.failed to endpoints that asked for it, and nothing to those that did not', async () => {
    const who = await person(t);
    const failing = await addEndpoint(who, ['generation.failed']);
    const completedOnly = await addEndpoint(who, ['generation.completed'], `${receiver.url}?only=completed`);
    fake.behaviour = { kind: 'fail', polls: 0, reason: 'the vendor could not render it' };
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [await uploadPhoto(t, who)] });
    const ended = await waitForEnd(t, who, started.body.id);
    expect(ended.status).toBe('failed');
    const failed = await waitFor('generation.failed', async () =>
      receiver.of('generation.failed').find((d) => d.body.data.generation.id === started.body.id),
    );
    expect(signatureHolds(failing.secret, failed)).toBe(true);
    expect(failed.body.data.generation).toMatchObject({ id: started.body.id, status: 'failed', cancelled: false, reason: ended.error });
    expect(await deliveriesTo(completedOnly.id)).toEqual([]);
  });

  it('retries a failed delivery with backoff, shows it in the log, and succeeds later with the same event and a fresh signature', async () => {
    const who = await person(t);
    const endpoint = await addEndpoint(who, ['credits.changed']);
    receiver.status = 503;
    const before = receiver.received.length;
    await t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'add', amount: 5, reason: 'a gift', actorId: who.userId });
    const [pending] = await waitFor('the first attempt', async () => {
      const rows = await deliveriesTo(endpoint.id);
      return rows[0]?.attempts === 1 && rows[0]?.last_status === 503 ? rows : undefined;
    });
    expect(pending.state).toBe('pending');
    const waitMs = new Date(pending.next_attempt_at).getTime() - new Date(pending.last_attempt_at).getTime();
    expect(waitMs).toBeGreaterThan(55_000); // the first retry comes a minute later
    expect(waitMs).toBeLessThan(65_000);
    const logged = (await t.http.get('/api/me/webhooks').set(bearer(who.accessToken))).body[0].deliveries[0];
    expect(logged).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_status: 503,
      last_error: 'answered 503',
      next_attempt_at: expect.any(String),
    });
    // a minute later (the attempt's job, run now), the endpoint answers
    receiver.status = 200;
    await t.app.get(DeveloperWebhooksService).deliver({ deliveryId: pending.id, attempt: 2 });
    const [done] = await deliveriesTo(endpoint.id);
    expect(done).toMatchObject({ state: 'succeeded', attempts: 2, last_status: 200 });
    const attempts = receiver.received.slice(before).filter((d) => d.body.type === 'credits.changed');
    expect(attempts).toHaveLength(2);
    expect(attempts[1].rawBody).toBe(attempts[0].rawBody); // the same event, byte for byte
    expect(attempts.every((d) => signatureHolds(endpoint.secret, d))).toBe(true);
    // the same attempt run again (a duplicated job) sends nothing
    await t.app.get(DeveloperWebhooksService).deliver({ deliveryId: pending.id, attempt: 2 });
    expect(receiver.received.slice(before).filter((d) => d.body.type === 'credits.changed')).toHaveLength(2);
  });

  it('switches off an endpoint that keeps failing, mails its owner, and a test event that gets through switches it on again', async () => {
    const who = await person(t);
    const endpoint = await addEndpoint(who, ['credits.changed']);
    // nine failures already, the first of them 13 hours ago
    await db.query(
      `UPDATE developer_webhook_endpoints SET consecutive_failures = 9, failing_since = now() - interval '13 hours' WHERE id = $1`,
      [endpoint.id],
    );
    receiver.status = 500;
    await t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'add', amount: 1, reason: 'one', actorId: who.userId });
    await waitFor('the endpoint to be switched off', async () => {
      const [e] = await db.query(`SELECT disabled_at, disabled_reason FROM developer_webhook_endpoints WHERE id = $1`, [endpoint.id]);
      return e.disabled_at ? e : undefined;
    });
    const [row] = await deliveriesTo(endpoint.id);
    expect(row).toMatchObject({ state: 'failed', next_attempt_at: null }); // its retries end with it
    const mail = await waitFor('the mail', async () =>
      readOutbox(t.config.mail.outboxDir).find(
        (m) => m.headers.to?.includes(who.email) && m.headers.subject === 'A webhook endpoint was switched off',
      ),
    );
    expect(mail.text.replace(/\s+/g, ' ')).toContain(`We switched off your webhook endpoint ${receiver.url}`);
    const listed = (await t.http.get('/api/me/webhooks').set(bearer(who.accessToken))).body[0];
    expect(listed).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    // while off, events make no delivery
    await t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'add', amount: 1, reason: 'two', actorId: who.userId });
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveriesTo(endpoint.id)).toHaveLength(1);
    // fixed: the test event gets through and the endpoint is on again
    receiver.status = 200;
    const test = await t.http.post(`/api/me/webhooks/${endpoint.id}/test`).set(bearer(who.accessToken)).expect(202);
    // answered as queued; the in-process queue may already have made the attempt by the time the row is read
    expect(test.body).toMatchObject({ event_type: 'webhook.test' });
    expect([
      { state: 'pending', attempts: 0 },
      { state: 'pending', attempts: 1 },
      { state: 'succeeded', attempts: 1 },
    ]).toContainEqual({
      state: test.body.state,
      attempts: test.body.attempts,
    });
    const received = await waitFor('the test event', async () =>
      receiver.of('webhook.test').find((d) => d.body.data.endpoint_id === endpoint.id),
    );
    expect(signatureHolds(endpoint.secret, received)).toBe(true);
    await waitFor('the endpoint to be on again', async () => {
      const res = await t.http.get('/api/me/webhooks').set(bearer(who.accessToken));
      return res.body[0].enabled ? true : undefined;
    });
    const [e] = await db.query(`SELECT consecutive_failures, failing_since FROM developer_webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(e).toEqual({ consecutive_failures: 0, failing_since: null });
  });

  it('refuses bad endpoints and keeps at most 10 per person, changing nothing', async () => {
    const who = await person(t);
    for (const body of [
      { url: 'ftp://example.com/x', events: ['generation.completed'] },
      { url: 'http://example.com/x', events: ['generation.completed'] },
      { url: 'https://user:pw@example.com/x', events: ['generation.completed'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['user.deleted'] },
      { url: receiver.url },
    ]) {
      const res = await t.http.post('/api/me/webhooks').set(bearer(who.accessToken)).send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    for (let i = 0; i < 10; i++) await addEndpoint(who, ['generation.completed'], `${receiver.url}?n=${i}`);
    const eleventh = await t.http
      .post('/api/me/webhooks')
      .set(bearer(who.accessToken))
      .send({ url: receiver.url, events: ['generation.completed'] });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.message).toBe('You have 10 webhook endpoints: delete one before adding another.');
    expect((await t.http.get('/api/me/webhooks').set(bearer(who.accessToken))).body).toHaveLength(10);
  });

  it('stops the retries of an endpoint that is deleted', async () => {
    const who = await person(t);
    const endpoint = await addEndpoint(who, ['credits.changed']);
    receiver.status = 500;
    await t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'add', amount: 1, reason: 'x', actorId: who.userId });
    const [pending] = await waitFor('the first attempt', async () => {
      const rows = await deliveriesTo(endpoint.id);
      return rows[0]?.attempts === 1 ? rows : undefined;
    });
    await t.http.delete(`/api/me/webhooks/${endpoint.id}`).set(bearer(who.accessToken)).expect(204);
    const count = receiver.received.length;
    await t.app.get(DeveloperWebhooksService).deliver({ deliveryId: pending.id, attempt: 2 });
    expect(receiver.received.length).toBe(count);
    expect(await deliveriesTo(endpoint.id)).toEqual([]);
  });
});

describe('webhooks for developers in production (no private addresses)', () => {
  let t: GenerationApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createGenerationApp({ driver: 'in-process', env: { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('refuses http://, loopback, private and metadata endpoints when they are added', async () => {
    const who = await person(t);
    const port = new URL(receiver.url).port;
    for (const url of [
      receiver.url,
      `https://127.0.0.1:${port}/x`,
      `https://localhost:${port}/x`,
      'https://10.0.0.7/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
    ]) {
      const res = await t.http
        .post('/api/me/webhooks')
        .set(bearer(who.accessToken))
        .send({ url, events: ['generation.completed'] });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await t.http.get('/api/me/webhooks').set(bearer(who.accessToken))).body).toEqual([]);
  });

  it('checks the address again at each delivery: a host name that now resolves to loopback is not called', async () => {
    const who = await person(t);
    // an endpoint made while its name pointed elsewhere, now resolving to this machine (DNS rebinding);
    // its secret sealed as the app seals them
    const sealed = (t.app.get(DeveloperWebhooksService) as unknown as { box: { seal(s: string): string } }).box.seal('whsec_rebound');
    const [endpoint] = await t.db.query(
      `INSERT INTO developer_webhook_endpoints (user_id, url, events, secret_sealed) VALUES ($1, $2, '{credits.changed}', $3) RETURNING id`,
      [who.userId, `https://localhost:${new URL(receiver.url).port}/hooks`, sealed],
    );
    await t.http.post(`/api/me/webhooks/${endpoint.id}/test`).set(bearer(who.accessToken)).expect(202);
    const [delivery] = await waitFor('the attempt', async () => {
      const rows = await t.db.query(`SELECT * FROM developer_webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
      return rows[0]?.state === 'failed' ? rows : undefined;
    });
    expect(delivery.last_error).toBe('refused: the host resolves to a private, loopback or reserved address');
    expect(delivery.last_status).toBeNull();
    expect(receiver.received).toEqual([]);
  });
});
