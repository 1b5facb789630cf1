import { DataSource } from 'typeorm';
import { planLookupKey, stripeCatalog } from '../../src/modules/billing/stripe-catalog';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { type FakeStripe } from '../fakes/fake-stripe.server';
import { bearer, PASSWORD, signUp, type SignedIn } from '../helpers/auth';
import { outboxFiles, waitForMail } from '../helpers/mail';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startStripeKit, type StripeKit } from './stripe-kit';

/**
 * Payments end to end: the real API, PostgreSQL, Redis and BullMQ, and the official Stripe SDK
 * pointed at a local fake Stripe that signs its webhooks as Stripe does (stripe-kit.ts).
 */
describe('payments through Stripe', () => {
  let kit: StripeKit;
  let t: TestApp;
  let fake: FakeStripe;
  let db: DataSource;

  beforeAll(async () => {
    kit = await startStripeKit();
    ({ t, fake, db } = kit);
  });

  afterAll(async () => kit?.close());

  /** Waits until the queue has applied every stored event; a job that keeps failing shows its error. */
  const applied = (timeoutMs?: number) => kit.applied(timeoutMs);

  async function balance(who: SignedIn): Promise<{ tier: string; subscription: number; purchased: number; payment_failed: boolean }> {
    const me = await t.http.get('/api/me').set(bearer(who.accessToken));
    expect(me.status).toBe(200);
    return { tier: me.body.tier, ...me.body.credit_balance, payment_failed: me.body.billing.payment_failed };
  }

  async function checkout(who: SignedIn, body: object): Promise<string> {
    const res = await t.http.post('/api/billing/checkout').set(bearer(who.accessToken)).send(body);
    expect(res.status).toBe(200);
    return res.body.url as string;
  }

  /** The person opens the Checkout page and pays; Stripe's webhooks are applied by the queue. */
  async function pay(url: string): Promise<void> {
    expect(url.startsWith(`${fake.url}/c/pay/cs_test_`)).toBe(true);
    expect((await fetch(url)).status).toBe(200);
    const paid = await fetch(url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${t.config.appUrl}/dashboard/subscription?checkout=success`);
    await applied();
  }

  async function subscribe(who: SignedIn, plan: string): Promise<string> {
    await pay(await checkout(who, { plan }));
    const [row] = await db.query(`SELECT stripe_subscription_id FROM subscriptions WHERE user_id = $1`, [who.userId]);
    return row.stripe_subscription_id;
  }

  async function ledger(userId: string): Promise<{ kind: string; bucket: string; amount: number; external_id: string | null }[]> {
    return db.query(`SELECT kind, bucket, amount, external_id FROM credit_ledger_entries WHERE user_id = $1 ORDER BY id`, [userId]);
  }

  async function expectLedgerBalanced(userId: string): Promise<void> {
    const [row] = await db.query(
      `SELECT a.subscription_balance AS s, a.purchased_balance AS p,
              COALESCE((SELECT sum(amount) FROM credit_ledger_entries WHERE user_id = a.user_id AND bucket = 'subscription'), 0)::int AS ls,
              COALESCE((SELECT sum(amount) FROM credit_ledger_entries WHERE user_id = a.user_id AND bucket = 'purchased'), 0)::int AS lp
         FROM credit_accounts a WHERE a.user_id = $1`,
      [userId],
    );
    expect({ subscription: row.ls, purchased: row.lp }).toEqual({ subscription: row.s, purchased: row.p });
  }

  /** The plans the billing portal configuration lets a subscriber switch between: product -> its prices. */
  function portalPlans(configurationId: string): Record<string, string[]> {
    const update = (fake.portalConfigurations.get(configurationId)!.features as Record<string, Record<string, unknown>>)
      .subscription_update;
    return Object.fromEntries((update.products as { product: string; prices: string[] }[]).map((p) => [p.product, p.prices]));
  }

  it('stripe:sync is idempotent, and a changed price makes a new Price that takes the lookup key over and is offered by the portal', async () => {
    const configurations = fake.portalConfigurations.size;
    const again = await kit.sync();
    expect(again.catalog).toHaveLength(7);
    expect(again.catalog.every((l) => l.product === 'found' && l.price === 'unchanged')).toBe(true);
    expect(again.portal.portal).toBe('unchanged');
    const [first, ...rest] = stripeCatalog();
    expect(first.kind).toBe('plan');
    const changed = await kit.sync([{ ...first, unitAmount: first.unitAmount + 100 }, ...rest]);
    const line = changed.catalog.find((l) => l.lookupKey === first.lookupKey)!;
    expect(line.price).toBe('replaced');
    const old = again.catalog.find((l) => l.lookupKey === first.lookupKey)!.priceId;
    expect(fake.prices.get(old)).toMatchObject({ active: false, lookup_key: null, unit_amount: first.unitAmount });
    expect(fake.prices.get(line.priceId)).toMatchObject({ active: true, lookup_key: first.lookupKey, unit_amount: first.unitAmount + 100 });
    // the same portal configuration, now offering the new price instead of the archived one
    expect(changed.portal).toEqual({ portal: 'updated', configurationId: again.portal.configurationId });
    expect(portalPlans(again.portal.configurationId)[first.productId]).toEqual([line.priceId]);
    // back to the catalogue's price (a new Price again; nothing is ever edited)
    const back = await kit.sync();
    expect(back.catalog.find((l) => l.lookupKey === first.lookupKey)!.price).toBe('replaced');
    expect(back.portal.portal).toBe('updated');
    const steady = await kit.sync();
    expect(steady.catalog.every((l) => l.price === 'unchanged')).toBe(true);
    expect(steady.portal.portal).toBe('unchanged');
    expect(fake.portalConfigurations.size).toBe(configurations);
  });

  it('refuses what the catalogue does not sell, with a clear error, and creates nothing', async () => {
    const who = await signUp(t.http);
    const sessions = fake.sessions.size;
    for (const body of [{}, { plan: 'free' }, { plan: 'platinum' }, { pack: 'pack-999' }, { plan: 'starter', pack: 'pack-20' }]) {
      const res = await t.http.post('/api/billing/checkout').set(bearer(who.accessToken)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect(fake.sessions.size).toBe(sessions);
    expect((await t.http.post('/api/billing/checkout').send({ pack: 'pack-20' })).status).toBe(401);
  });

  it('an address not confirmed yet cannot pay (whoever signed up with it may not own it), and nothing is made at Stripe', async () => {
    const who = await signUp(t.http, { verified: false });
    const [sessions, customers] = [fake.sessions.size, fake.customers.size];
    for (const body of [{ pack: 'pack-70' }, { plan: 'starter' }]) {
      const res = await t.http.post('/api/billing/checkout').set(bearer(who.accessToken)).send(body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EMAIL_NOT_VERIFIED');
    }
    expect([fake.sessions.size, fake.customers.size]).toEqual([sessions, customers]);
  });

  it('a 70-credit pack paid gives 75 purchased credits once; a replayed or forged webhook changes nothing', async () => {
    const who = await signUp(t.http);
    const url = await checkout(who, { pack: 'pack-70' });
    const session = fake.sessions.get(new URL(url).pathname.split('/').pop()!)!;
    expect(session).toMatchObject({ mode: 'payment', client_reference_id: who.userId, amount_total: 1499 });
    expect(fake.customers.get(session.customer as string)).toMatchObject({ email: who.email });
    expect(await balance(who)).toMatchObject({ subscription: 3, purchased: 0 }); // nothing before the payment

    const events = await fake.pay(url, { deliver: false });
    expect(await fake.deliver(...events)).toEqual([200]);
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'free', subscription: 3, purchased: 75 });
    const paymentIntent = fake.sessions.get(session.id as string)!.payment_intent as string;
    const credited = await waitForMail(t.config.mail.outboxDir, { to: who.email, template: 'account-notice' });
    expect(credited.headers.subject).toContain('Credits added');
    expect(credited.text).toContain('75 credits (70 + 5 bonus) are now in your account');
    expect((await ledger(who.userId)).filter((l) => l.kind === 'purchase')).toEqual([
      { kind: 'purchase', bucket: 'purchased', amount: 75, external_id: paymentIntent },
    ]);

    // Stripe retries a delivery: the same event again adds nothing
    expect(await fake.deliver(...events)).toEqual([200]);
    await applied();
    expect(await balance(who)).toMatchObject({ purchased: 75 });

    // a forged signature, a tampered body and no signature at all: 400, nothing stored
    const [{ n: before }] = await db.query(`SELECT count(*)::int AS n FROM stripe_events`);
    const forged = { ...events[0], id: 'evt_forged_1' };
    const wrongSecret = fake.signed(forged, 'whsec_not_the_endpoint_secret');
    const post = (payload: string, signature?: string) => {
      const req = t.http.post('/api/webhooks/stripe').set('Content-Type', 'application/json');
      return (signature ? req.set('Stripe-Signature', signature) : req).send(payload);
    };
    const forgedRes = await post(wrongSecret.payload, wrongSecret.signature);
    expect(forgedRes.status).toBe(400);
    expect(forgedRes.body.message).toBe('The Stripe signature is not valid');
    const genuine = fake.signed(forged);
    expect((await post(genuine.payload.replace('"pack-70"', '"pack-500"'), genuine.signature)).status).toBe(400);
    expect((await post(genuine.payload)).status).toBe(400);
    // a genuine signature captured and replayed later than Stripe's 5-minute tolerance
    const old = fake.signed(forged, undefined, Math.floor(Date.now() / 1000) - 600);
    expect((await post(old.payload, old.signature)).status).toBe(400);
    const [{ n: after }] = await db.query(`SELECT count(*)::int AS n FROM stripe_events`);
    expect(after).toBe(before);
    await applied();
    expect(await balance(who)).toMatchObject({ purchased: 75 });
    await expectLedgerBalanced(who.userId);
    // the applied event keeps its id and type, not the person's details
    const [stored] = await db.query(`SELECT type, payload, handled_at FROM stripe_events WHERE id = $1`, [events[0].id]);
    expect(stored).toMatchObject({ type: 'checkout.session.completed', payload: {}, handled_at: expect.any(Date) });
  });

  it('a Starter subscription: paid renewals reset its credits to 20 (no rollover), a cancellation keeps them to the period end, then the free tier', async () => {
    const who = await signUp(t.http);
    const credits = t.app.get(CreditsService);
    const sub = await subscribe(who, 'starter');
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20, purchased: 0 });
    const started = await waitForMail(t.config.mail.outboxDir, { to: who.email, template: 'account-notice' });
    expect(started.headers.subject).toContain('Your plan changed');
    expect(started.text).toContain('Your plan is now Starter Plan (before: Free Plan)');
    await credits.adjust({ userId: who.userId, mode: 'add', amount: 7, reason: 'goodwill', actorId: who.userId });
    await credits.adjust({ userId: who.userId, mode: 'deduct', amount: 15, reason: 'spent', actorId: who.userId });
    expect(await balance(who)).toMatchObject({ subscription: 5, purchased: 7 });

    await fake.renew(sub);
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20, purchased: 7 });
    await credits.adjust({ userId: who.userId, mode: 'deduct', amount: 3, reason: 'spent', actorId: who.userId });
    await fake.renew(sub);
    await applied();
    expect(await balance(who)).toMatchObject({ subscription: 20, purchased: 7 });
    expect((await ledger(who.userId)).filter((l) => l.kind === 'renewal_grant').map((l) => l.amount)).toEqual([20, 20]);

    // the time-based monthly reset leaves a paying account alone: its renewals reset it
    await credits.adjust({ userId: who.userId, mode: 'deduct', amount: 4, reason: 'spent', actorId: who.userId });
    await credits.resetDueAccounts(new Date(Date.now() + 45 * 86400_000));
    expect(await balance(who)).toMatchObject({ subscription: 16 });

    await fake.cancelAtPeriodEnd(sub);
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 16, purchased: 7 });
    const [row] = await db.query(`SELECT status, cancel_at_period_end FROM subscriptions WHERE stripe_subscription_id = $1`, [sub]);
    expect(row).toEqual({ status: 'active', cancel_at_period_end: true });

    await fake.endPeriod(sub);
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'free', subscription: 3, purchased: 7 });
    const ended = await waitForMail(t.config.mail.outboxDir, { to: who.email, template: 'account-notice', after: [started.file] });
    expect(ended.text).toContain('Your plan is now Free Plan (before: Starter Plan)');
    await expectLedgerBalanced(who.userId);
    const actions: { action: string }[] = await db.query(`SELECT action FROM audit_log WHERE target_user_id = $1`, [who.userId]);
    expect(new Set(actions.map((a) => a.action))).toEqual(new Set(['billing.checkout', 'billing.subscription', 'billing.renewal']));
  });

  it('an upgrade mid-period tops the subscription credits up at once; a downgrade waits for the renewal', async () => {
    const who = await signUp(t.http);
    const credits = t.app.get(CreditsService);
    const sub = await subscribe(who, 'starter');
    // plans change in the billing portal, not through a second subscription
    const second = await t.http.post('/api/billing/checkout').set(bearer(who.accessToken)).send({ plan: 'glow_up' });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('billing portal');
    await credits.adjust({ userId: who.userId, mode: 'deduct', amount: 15, reason: 'spent', actorId: who.userId });
    // the person opens the portal and switches there
    expect((await t.http.post('/api/billing/portal').set(bearer(who.accessToken))).status).toBe(200);
    await fake.changePlan(sub, planLookupKey('glow_up'));
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'glow_up', subscription: 70 });
    await fake.changePlan(sub, planLookupKey('starter'));
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 70 });
    await fake.renew(sub);
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20 });
    await expectLedgerBalanced(who.userId);
  });

  it('deleting the account cancels its subscription at Stripe', async () => {
    const who = await signUp(t.http);
    const sub = await subscribe(who, 'model_mode');
    await t.http.delete('/api/me').set(bearer(who.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    expect(fake.subscriptions.get(sub)).toMatchObject({ status: 'canceled' });
    expect(await db.query(`SELECT 1 FROM subscriptions WHERE user_id = $1`, [who.userId])).toEqual([]);
  });

  it('applies events that arrive out of order from the current state, once', async () => {
    const who = await signUp(t.http);
    const events = await fake.pay(await checkout(who, { plan: 'glow_up' }), { deliver: false });
    await fake.deliver(...[...events].reverse()); // checkout.session.completed first, subscription.created last
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'glow_up', subscription: 70 });
    expect((await ledger(who.userId)).filter((l) => l.kind === 'plan_upgrade')).toHaveLength(1);

    const [{ stripe_subscription_id: sub }] = await db.query(`SELECT stripe_subscription_id FROM subscriptions WHERE user_id = $1`, [
      who.userId,
    ]);
    const cancelled = await fake.cancelAtPeriodEnd(sub, { deliver: false });
    const ended = await fake.endPeriod(sub, { deliver: false });
    await fake.deliver(...ended, ...cancelled); // the stale "updated" after "deleted"
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'free', subscription: 3 });
    await expectLedgerBalanced(who.userId);
  });

  it('a failed renewal tells the person (mail and a banner flag) and keeps the plan while Stripe retries', async () => {
    const who = await signUp(t.http);
    const sub = await subscribe(who, 'starter');
    await waitForMail(t.config.mail.outboxDir, { to: who.email, template: 'account-notice' }); // the plan changed
    const seen = outboxFiles(t.config.mail.outboxDir);
    await fake.failRenewal(sub);
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20, payment_failed: true });
    const mail = await waitForMail(t.config.mail.outboxDir, { to: who.email, template: 'account-notice', after: seen });
    expect(mail.headers.subject).toContain('Your payment did not go through');
    expect(mail.text).toContain('update your payment method');

    await fake.renew(sub); // a retry succeeded
    await applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20, payment_failed: false });
  });

  it('a refund or dispute takes the pack back as far as the balance allows, never below zero, and tells the admins', async () => {
    const who = await signUp(t.http);
    await pay(await checkout(who, { pack: 'pack-20' }));
    await pay(await checkout(who, { pack: 'pack-70' }));
    expect(await balance(who)).toMatchObject({ subscription: 3, purchased: 95 });
    const purchases: { pack_id: string; payment_intent_id: string }[] = await db.query(
      `SELECT pack_id, payment_intent_id FROM purchases WHERE user_id = $1`,
      [who.userId],
    );
    const pi = (pack: string) => purchases.find((p) => p.pack_id === pack)!.payment_intent_id;
    // the person spends most of it first
    await t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'deduct', amount: 91, reason: 'spent', actorId: who.userId });
    expect(await balance(who)).toMatchObject({ subscription: 0, purchased: 7 });

    await fake.refund(pi('pack-70'));
    await applied();
    expect(await balance(who)).toMatchObject({ purchased: 0 });
    await fake.dispute(pi('pack-20'));
    await applied();
    expect(await balance(who)).toMatchObject({ subscription: 0, purchased: 0 });

    const reversals = (await ledger(who.userId)).filter((l) => l.kind === 'purchase_reversal');
    expect(reversals.map((l) => l.amount)).toEqual([-7]);
    const notes: { title: string; message: string }[] = await db.query(
      `SELECT title, message FROM system_notifications WHERE type = 'payment_reversed' AND message LIKE $1 ORDER BY created_at`,
      [`%${who.userId}%`],
    );
    expect(notes.map((n) => n.title)).toEqual(['A credit pack was refunded', 'A credit pack payment is disputed']);
    expect(notes[0].message).toContain('7 of 75 credits taken back; 68 had already been spent');
    expect(notes[1].message).toContain('0 of 20 credits taken back');
    await expectLedgerBalanced(who.userId);
  });

  it('the billing portal opens for a customer', async () => {
    const who = await signUp(t.http);
    expect((await t.http.post('/api/billing/portal').set(bearer(who.accessToken))).status).toBe(400);
    expect((await t.http.get('/api/me').set(bearer(who.accessToken))).body.billing).toEqual({
      payments_enabled: true,
      portal_available: false,
      payment_failed: false,
    });
    await pay(await checkout(who, { pack: 'pack-20' }));
    expect((await t.http.get('/api/me').set(bearer(who.accessToken))).body.billing).toMatchObject({ portal_available: true });
    const res = await t.http.post('/api/billing/portal').set(bearer(who.accessToken));
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${fake.url}/p/session/test_`));
    // with the configuration stripe:sync made (plan switching, cancelling at the period end, ...)
    const session = [...fake.portalSessions.values()].pop()!;
    expect(fake.portalConfigurations.get(session.configuration as string)!.metadata).toEqual({ managed_by: 'fitting_room_stripe_sync' });
    const page = await fetch(res.body.url as string);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const feature of ['subscription update', 'subscription cancel', 'payment method update', 'invoice history'])
      expect(html).toContain(feature);
  });
});

describe("Stripe's webhook route is rate limited per client address", () => {
  let kit: StripeKit;
  // the tests stand behind a loopback proxy that names the client in X-Forwarded-For (TEST-NET-3 addresses)
  beforeAll(async () => {
    kit = await startStripeKit({
      TRUST_PROXY: 'loopback',
      STRIPE_WEBHOOK_RATE_LIMIT_MAX: '3',
      STRIPE_WEBHOOK_RATE_LIMIT_WINDOW_SECONDS: '60',
    });
  });
  afterAll(async () => kit?.close());

  const post = (ip: string, payload: string, signature: string) =>
    kit.t.http
      .post('/api/webhooks/stripe')
      .set('X-Forwarded-For', ip)
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);

  it('a flood of forged calls from one address is cut short with 429 and Retry-After; another address (Stripe) is still heard', async () => {
    const forged = kit.fake.signed(
      { id: 'evt_forged', object: 'event', type: 'invoice.paid', data: { object: {} } },
      'whsec_not_the_secret',
    );
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post('203.0.113.7', forged.payload, forged.signature)).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    const limited = await post('203.0.113.7', forged.payload, forged.signature);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const genuine = kit.fake.signed({ id: 'evt_unhandled_type', object: 'event', type: 'customer.created', data: { object: {} } });
    expect((await post('203.0.113.8', genuine.payload, genuine.signature)).status).toBe(200);
  });
});

describe('without a Stripe key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('checkout and the portal answer 501 "Stripe integration coming soon!" and the profile shows no failed payment', async () => {
    const who = await signUp(t.http);
    for (const [path, body] of [
      ['/api/billing/checkout', { pack: 'pack-70' }],
      ['/api/billing/checkout', { plan: 'starter' }],
      ['/api/billing/portal', {}],
    ] as const) {
      const res = await t.http.post(path).set(bearer(who.accessToken)).send(body);
      expect(res.status).toBe(501);
      expect(res.body.message).toBe('Stripe integration coming soon!');
    }
    const me = await t.http.get('/api/me').set(bearer(who.accessToken));
    expect(me.body).toMatchObject({
      tier: 'free',
      credits: 3,
      billing: { payments_enabled: false, portal_available: false, payment_failed: false },
    });
    expect((await t.http.post('/api/webhooks/stripe').set('Content-Type', 'application/json').send('{}')).status).toBe(501);
  });
});
