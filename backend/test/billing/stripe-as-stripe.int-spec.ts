import { BILLING_MESSAGES } from '../../src/modules/billing/billing.service';
import { stripeCatalog } from '../../src/modules/billing/stripe-catalog';
import { STRIPE_API_VERSION } from '../../src/modules/billing/stripe.client';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { idShape, LONGEST_STRIPE_ID } from '../fakes/fake-stripe.server';
import { bearer, signIn, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { outboxFiles, waitForMail } from '../helpers/mail';
import { startStripeKit, type StripeKit } from './stripe-kit';

type Obj = Record<string, unknown>;

/**
 * Issue 30: the app against a fake Stripe that behaves as the real one (its objects built from
 * Stripe's published fixtures: 66-character Checkout Session ids, long URLs, 255-character ids on
 * demand), through the real API, PostgreSQL, Redis and BullMQ. The queue gives an event 3 runs, 50 ms
 * apart at first, so that one can fail for good within a test.
 */
describe('Stripe as the real Stripe behaves', () => {
  let kit: StripeKit;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('stripe-events-admin');

  beforeAll(async () => {
    kit = await startStripeKit({ ADMIN_EMAILS: adminEmail, STRIPE_EVENT_ATTEMPTS: '3', STRIPE_EVENT_RETRY_MS: '50' });
    await signUp(kit.t.http, { email: adminEmail, full_name: 'Events Admin' });
    admin = await signIn(kit.t.http, adminEmail);
  });

  afterAll(async () => kit?.close());

  const http = () => kit.t.http;
  const sessionOf = (url: string): Obj => kit.fake.sessions.get(new URL(url).pathname.split('/').pop()!)!;

  async function balance(who: SignedIn): Promise<{ tier: string; subscription: number; purchased: number; payment_failed: boolean }> {
    const me = await http().get('/api/me').set(bearer(who.accessToken));
    expect(me.status).toBe(200);
    return { tier: me.body.tier, ...me.body.credit_balance, payment_failed: me.body.billing.payment_failed };
  }

  const spend = (who: SignedIn, amount: number) =>
    kit.t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'deduct', amount, reason: 'spent', actorId: who.userId });

  /** Every Stripe id the app stored for a person, by the table and column that holds it. */
  async function storedIds(userId: string): Promise<Record<string, string[]>> {
    const q = async (sql: string) =>
      ((await kit.db.query(sql, [userId])) as { v: string | null }[]).map((r) => r.v).filter((v) => v !== null);
    return {
      'stripe_customers.customer_id': await q(`SELECT customer_id AS v FROM stripe_customers WHERE user_id = $1`),
      'subscriptions.stripe_subscription_id': await q(`SELECT stripe_subscription_id AS v FROM subscriptions WHERE user_id = $1`),
      'purchases.checkout_session_id': await q(`SELECT checkout_session_id AS v FROM purchases WHERE user_id = $1`),
      'purchases.payment_intent_id': await q(`SELECT payment_intent_id AS v FROM purchases WHERE user_id = $1`),
      'purchases.charge_id': await q(`SELECT charge_id AS v FROM purchases WHERE user_id = $1`),
      'payments.stripe_id': await q(`SELECT stripe_id AS v FROM payments WHERE user_id = $1 ORDER BY created_at`),
      'payments.subscription_id': await q(`SELECT subscription_id AS v FROM payments WHERE user_id = $1`),
      'credit_ledger_entries.external_id': await q(`SELECT external_id AS v FROM credit_ledger_entries WHERE user_id = $1`),
      'audit_log.target_id': await q(`SELECT target_id AS v FROM audit_log WHERE target_user_id = $1 AND action LIKE 'billing.%'`),
    };
  }

  /** A pack and a Starter subscription bought, renewed, refunded and disputed, and the portal opened: every path that stores an id. */
  async function everyPath(who: SignedIn): Promise<{ session: Obj; sub: string; pi: string }> {
    const url = await kit.checkout(who, { pack: 'pack-70' });
    const session = sessionOf(url);
    await kit.pay(url);
    const pi = await kit.paymentIntentOf(who, 'pack-70');
    await kit.fake.refund(pi, 100);
    await kit.fake.dispute(pi);
    await kit.applied();
    const sub = await kit.subscribe(who, 'starter');
    await kit.fake.renew(sub);
    await kit.applied();
    const portal = await http().post('/api/billing/portal').set(bearer(who.accessToken));
    expect(portal.status).toBe(200);
    return { session, sub, pi };
  }

  it("keeps Stripe's own ids as Stripe makes them (a 66-character Checkout Session id) through checkout, webhooks, payments, the ledger, the audit and the portal", async () => {
    const who = await signUp(http());
    const url = await kit.checkout(who, { pack: 'pack-20' });
    // the Checkout page: hundreds of characters, with its fragment
    expect(url.length).toBeGreaterThan(300);
    expect(new URL(url).hash).toMatch(/^#fid/);
    const session = sessionOf(url);
    expect(session.id).toMatch(/^cs_test_/);
    expect(String(session.id)).toHaveLength(idShape('checkout.session').length);
    expect(idShape('checkout.session').length).toBe(66);
    // same fields as Stripe's example object
    expect(Object.keys(session).sort()).toEqual(
      expect.arrayContaining([
        'after_expiration',
        'automatic_tax',
        'consent_collection',
        'customer_details',
        'expires_at',
        'payment_method_types',
      ]),
    );
    await kit.pay(url);
    const { sub, pi } = await everyPath(who);

    const ids = await storedIds(who.userId);
    expect(ids['audit_log.target_id']).toContain(session.id);
    expect(ids['purchases.checkout_session_id']).toContain(session.id);
    const lengths = (column: string) => new Set(ids[column].map((v) => v.length));
    expect(lengths('stripe_customers.customer_id')).toEqual(new Set([idShape('customer').length]));
    expect(lengths('subscriptions.stripe_subscription_id')).toEqual(new Set([idShape('subscription').length]));
    expect(lengths('purchases.payment_intent_id')).toEqual(new Set([idShape('payment_intent').length]));
    expect(lengths('purchases.charge_id')).toEqual(new Set([idShape('charge').length]));
    // Checkout Sessions (packs), invoices (subscription), charges (refund), disputes
    expect(lengths('payments.stripe_id')).toEqual(
      new Set(['checkout.session', 'invoice', 'charge', 'dispute'].map((r) => idShape(r).length)),
    );
    expect(ids['subscriptions.stripe_subscription_id']).toEqual([sub]);
    expect(ids['credit_ledger_entries.external_id']).toContain(pi);
    const [{ n }] = await kit.db.query(`SELECT count(*)::int AS n FROM stripe_events WHERE length(id) = $1`, [idShape('event').length]);
    expect(n).toBeGreaterThan(5);

    // the app speaks the API version it is pinned to, and the events come in it
    expect([...kit.fake.versions]).toEqual([STRIPE_API_VERSION]);
    expect(new Set([...kit.fake.events.values()].map((e) => e.api_version))).toEqual(new Set([STRIPE_API_VERSION]));
  });

  it('takes 255-character ids (the longest Stripe documents) through every path', async () => {
    const who = await signUp(http());
    kit.fake.useLongIds();
    try {
      const { session, sub, pi } = await everyPath(who);
      expect(String(session.id)).toHaveLength(LONGEST_STRIPE_ID);
      expect(sub).toHaveLength(LONGEST_STRIPE_ID);
      expect(pi).toHaveLength(LONGEST_STRIPE_ID);
      const ids = await storedIds(who.userId);
      for (const [column, values] of Object.entries(ids)) {
        expect({ column, stored: values.length > 0 }).toEqual({ column, stored: true });
        // our own ids (uuids in the audit of the portal and subscription) aside, every Stripe id is whole
        for (const v of values.filter((x) => !/^[0-9a-f-]{36}$/.test(x)))
          expect({ column, length: v.length }).toEqual({ column, length: 255 });
      }
      expect(ids['audit_log.target_id']).toEqual(expect.arrayContaining([session.id, sub]));
      const [{ n }] = await kit.db.query(`SELECT count(*)::int AS n FROM stripe_events WHERE length(id) = 255 AND handled_at IS NOT NULL`);
      expect(n).toBeGreaterThan(5);
      // the dispute's notification is deduplicated by the dispute's 255-character id
      const notes: { dedupe_key: string }[] = await kit.db.query(
        `SELECT dedupe_key FROM system_notifications WHERE type = 'payment_reversed' AND message LIKE $1`,
        [`%${who.userId}%`],
      );
      expect(notes.map((r) => r.dedupe_key.length).sort()).toEqual([`payment_reversed:`.length + 255, `payment_reversed:`.length + 255]);
      expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20 });
    } finally {
      kit.fake.useFixtureIds();
    }
  });

  it('a price change keeps renewing existing subscribers: the archived price (no lookup key any more) still stands for its plan, twice', async () => {
    const who = await signUp(http());
    const sub = await kit.subscribe(who, 'starter');
    const oldPrice = (((kit.fake.subscriptions.get(sub)!.items as Obj).data as Obj[])[0].price as Obj).id as string;
    const starter = stripeCatalog().find((i) => i.kind === 'plan' && i.id === 'starter')!;
    const changed = await kit.sync(stripeCatalog().map((i) => (i.id === 'starter' ? { ...i, unitAmount: i.unitAmount + 200 } : i)));
    expect(changed.catalog.find((l) => l.lookupKey === starter.lookupKey)!.price).toBe('replaced');
    expect(kit.fake.prices.get(oldPrice)).toMatchObject({ active: false, lookup_key: null, product: starter.productId });
    try {
      for (const renewal of [1, 2]) {
        await spend(who, 15);
        expect(await balance(who)).toMatchObject({ subscription: 5 });
        await kit.fake.renew(sub);
        await kit.applied();
        expect({ renewal, ...(await balance(who)) }).toMatchObject({ renewal, tier: 'starter', subscription: 20 });
      }
      const grants: { amount: number }[] = await kit.db.query(
        `SELECT amount FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'renewal_grant' ORDER BY id`,
        [who.userId],
      );
      expect(grants.map((g) => g.amount)).toEqual([20, 20]);
      const [row] = await kit.db.query(`SELECT tier, status, price_lookup_key FROM subscriptions WHERE stripe_subscription_id = $1`, [sub]);
      expect(row).toEqual({ tier: 'starter', status: 'active', price_lookup_key: null });
      // a new subscriber pays the new price
      const newcomer = await signUp(http());
      expect(sessionOf(await kit.checkout(newcomer, { plan: 'starter' })).amount_total).toBe(starter.unitAmount + 200);
    } finally {
      await kit.sync(); // the catalogue's price again, for the other tests
    }
  });

  it('a customer deleted in Stripe, or unknown to new keys, is replaced at checkout; the portal says so instead of failing', async () => {
    const who = await signUp(http());
    await kit.pay(await kit.checkout(who, { pack: 'pack-20' }));
    const [{ customer_id: first }] = await kit.db.query(`SELECT customer_id FROM stripe_customers WHERE user_id = $1`, [who.userId]);
    await kit.fake.deleteCustomer(first);
    await kit.applied();

    const url = await kit.checkout(who, { pack: 'pack-70' });
    const [{ customer_id: second }] = await kit.db.query(`SELECT customer_id FROM stripe_customers WHERE user_id = $1`, [who.userId]);
    expect(second).not.toBe(first);
    expect(sessionOf(url).customer).toBe(second);
    expect(kit.fake.customers.get(second)).toMatchObject({ email: who.email, metadata: { user_id: who.userId } });
    await kit.pay(url);
    expect(await balance(who)).toMatchObject({ purchased: 20 + 75 });
    const [replaced] = await kit.db.query(
      `SELECT before, after FROM audit_log WHERE action = 'billing.customer.replaced' AND target_user_id = $1`,
      [who.userId],
    );
    expect(replaced).toEqual({ before: { customer: first }, after: { customer: second } });

    // the keys now name another account (test keys switched to live): none of these customers exist there
    kit.fake.forgetCustomers();
    const portal = await http().post('/api/billing/portal').set(bearer(who.accessToken));
    expect(portal.status).toBe(400);
    expect(portal.body).toMatchObject({ code: 'VALIDATION_ERROR', message: BILLING_MESSAGES.customerGone });
    // a new customer took the stale one's place: the portal opens, and the next checkout goes on with it
    const [{ customer_id: third }] = await kit.db.query(`SELECT customer_id FROM stripe_customers WHERE user_id = $1`, [who.userId]);
    expect([first, second]).not.toContain(third);
    expect(kit.fake.customers.get(third)).toMatchObject({ email: who.email });
    expect((await http().post('/api/billing/portal').set(bearer(who.accessToken))).status).toBe(200);
    const again = await kit.checkout(who, { pack: 'pack-20' });
    expect(sessionOf(again).customer).toBe(third);
    await kit.pay(again);
    expect(await balance(who)).toMatchObject({ purchased: 20 + 75 + 20 });
  });

  it('an event that fails on every attempt raises one critical notification; the console lists it and its replay, read again from Stripe, applies it once', async () => {
    const who = await signUp(http());
    const sub = await kit.subscribe(who, 'starter');
    await spend(who, 15);
    // Stripe's API answers 500 for a while: every attempt to read the subscription fails
    kit.fake.failures.set('GET /v1/subscriptions', 1_000_000);
    const events = await kit.fake.renew(sub, { deliver: false });
    expect(await kit.fake.deliver(...events)).toEqual([200, 200]);
    await kit.settled();
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    const ids = events.map((e) => e.id as string);
    const failed: { id: string; error: string; failed_at: Date | null; handled_at: Date | null }[] = await kit.db.query(
      `SELECT id, error, failed_at, handled_at FROM stripe_events WHERE id = ANY($1) ORDER BY id`,
      [ids],
    );
    expect(failed).toHaveLength(2);
    for (const e of failed)
      expect(e).toMatchObject({ failed_at: expect.any(Date), handled_at: null, error: expect.stringContaining('unknown error') });
    expect(await balance(who)).toMatchObject({ subscription: 5 }); // no renewal credits yet

    // Stripe delivers the invoice's event again: it fails again, and the admins are not told twice
    expect(await kit.fake.deliver(paid)).toEqual([200]);
    await kit.settled();
    const notes: { severity: string; title: string; message: string; dedupe_key: string }[] = await kit.db.query(
      `SELECT severity, title, message, dedupe_key FROM system_notifications WHERE type = 'stripe_event_failed' AND dedupe_key = ANY($1)`,
      [ids.map((id) => `stripe_event_failed:${id}`)],
    );
    expect(notes).toHaveLength(2);
    for (const note of notes) {
      expect(note).toMatchObject({ severity: 'critical', title: 'A Stripe event could not be applied' });
      expect(note.message).toContain('failed on all 3 attempts');
      expect(note.message).toContain('replay');
    }

    // the console's list, admins only
    const list = await http()
      .get('/api/admin/stripe-events')
      .query({ filter: JSON.stringify({ status: 'failed' }), range: '[0,49]' })
      .set(bearer(admin.accessToken));
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toMatch(/^stripe-events 0-\d+\/\d+$/);
    const listed = (list.body as Obj[]).filter((e) => ids.includes(e.id as string));
    expect(listed.map((e) => e.type).sort()).toEqual(['customer.subscription.updated', 'invoice.paid']);
    for (const e of listed) {
      expect(e).toMatchObject({ status: 'failed', stripe_url: `https://dashboard.stripe.com/test/events/${String(e.id)}` });
      expect(e).not.toHaveProperty('payload');
    }
    const support = await signUp(http());
    await kit.db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    const supportIn = await signIn(http(), support.email);
    for (const someone of [who, supportIn]) {
      expect((await http().get('/api/admin/stripe-events').set(bearer(someone.accessToken))).status).toBe(403);
      expect(
        (
          await http()
            .post(`/api/admin/stripe-events/${String(paid.id)}/replay`)
            .set(bearer(someone.accessToken))
        ).status,
      ).toBe(403);
    }

    // a replay while Stripe still fails: 409 with the reason, nothing applied
    const early = await http()
      .post(`/api/admin/stripe-events/${String(paid.id)}/replay`)
      .set(bearer(admin.accessToken));
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('could not be applied');
    expect(await balance(who)).toMatchObject({ subscription: 5 });

    // Stripe is back: the replay reads the event from Stripe's Events API and applies it
    kit.fake.failures.clear();
    const calls = kit.fake.calls.length;
    const replayed = await http()
      .post(`/api/admin/stripe-events/${String(paid.id)}/replay`)
      .set(bearer(admin.accessToken));
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({ id: paid.id, type: 'invoice.paid', status: 'applied', error: null, failed_at: null });
    expect(kit.fake.calls.slice(calls)).toContain(`GET /v1/events/${String(paid.id)}`);
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20 });

    // once applied its body is cleared: a second replay reads it from Stripe again and changes nothing
    const [{ payload }] = await kit.db.query(`SELECT payload FROM stripe_events WHERE id = $1`, [paid.id]);
    expect(payload).toEqual({});
    await spend(who, 2);
    expect(
      (
        await http()
          .post(`/api/admin/stripe-events/${String(paid.id)}/replay`)
          .set(bearer(admin.accessToken))
      ).status,
    ).toBe(200);
    expect(await balance(who)).toMatchObject({ subscription: 18 });
    const grants = await kit.db.query(`SELECT 1 FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'renewal_grant'`, [who.userId]);
    expect(grants).toHaveLength(1);
    const audit: { actor_id: string; target_id: string; before: Obj; after: Obj }[] = await kit.db.query(
      `SELECT actor_id, target_id, before, after FROM audit_log WHERE action = 'billing.event.replay' AND target_id = $1 ORDER BY created_at`,
      [paid.id],
    );
    expect(audit.map((a) => [a.actor_id, a.before.status, a.after.status])).toEqual([
      [admin.userId, 'failed', 'failed'],
      [admin.userId, 'failed', 'applied'],
      [admin.userId, 'applied', 'applied'],
    ]);

    // the other event still waits for its replay; past Stripe's 30 days only a stored body could replay it
    const other = ids.find((id) => id !== paid.id)!;
    expect((await http().get(`/api/admin/stripe-events/${other}`).set(bearer(admin.accessToken))).body).toMatchObject({ status: 'failed' });
    kit.fake.ageEvent(String(paid.id), 31);
    const tooOld = await http()
      .post(`/api/admin/stripe-events/${String(paid.id)}/replay`)
      .set(bearer(admin.accessToken));
    expect(tooOld.status).toBe(409);
    expect(tooOld.body.message).toContain('30 days');
    expect((await http().post(`/api/admin/stripe-events/evt_never_received/replay`).set(bearer(admin.accessToken))).status).toBe(404);
    expect((await http().post(`/api/admin/stripe-events/${other}/replay`).set(bearer(admin.accessToken))).status).toBe(200);
    await kit.applied();
  });

  it('a renewal that needs 3-D Secure tells the person (mail with the invoice page, the banner); confirming there pays the renewal', async () => {
    const who = await signUp(http());
    const sub = await kit.subscribe(who, 'starter');
    await waitForMail(kit.t.config.mail.outboxDir, { to: who.email, template: 'account-notice' }); // the plan changed
    const seen = outboxFiles(kit.t.config.mail.outboxDir);
    await spend(who, 15);
    const events = await kit.fake.requireAction(sub);
    await kit.applied();
    const invoice = events.find((e) => e.type === 'invoice.payment_action_required')!.data as { object: Obj };
    const hosted = invoice.object.hosted_invoice_url as string;
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 5, payment_failed: true });
    const mail = await waitForMail(kit.t.config.mail.outboxDir, { to: who.email, template: 'account-notice', after: seen });
    expect(mail.headers.subject).toContain('Please confirm your payment');
    expect(mail.links).toContain(hosted);
    const [row] = await kit.db.query(`SELECT kind, status FROM payments WHERE stripe_id = $1`, [invoice.object.id]);
    expect(row).toEqual({ kind: 'subscription', status: 'action_required' });

    // the person opens the invoice's page and confirms
    const page = await fetch(hosted);
    expect(await page.text()).toContain('Authenticate and pay');
    expect((await fetch(hosted, { method: 'POST' })).status).toBe(200);
    await kit.applied();
    expect(await balance(who)).toMatchObject({ tier: 'starter', subscription: 20, payment_failed: false });
    expect((await kit.db.query(`SELECT status FROM payments WHERE stripe_id = $1`, [invoice.object.id]))[0].status).toBe('paid');

    // the same event arriving late (after the payment) tells nobody and raises no banner
    const mails = outboxFiles(kit.t.config.mail.outboxDir).length;
    const late = { ...events[1], id: kit.fake.newId('event') };
    expect(await kit.fake.deliver(late)).toEqual([200]);
    await kit.applied();
    expect(await balance(who)).toMatchObject({ payment_failed: false });
    expect(outboxFiles(kit.t.config.mail.outboxDir)).toHaveLength(mails);
  });

  it('a pack paid by a delayed method: credits only when the money arrives; a failed one adds nothing and tells the person', async () => {
    const who = await signUp(http());
    const failing = await kit.checkout(who, { pack: 'pack-70' });
    await kit.fake.payLater(failing);
    await kit.applied();
    expect(await balance(who)).toMatchObject({ purchased: 0 });
    const seen = outboxFiles(kit.t.config.mail.outboxDir);
    await kit.fake.failLater(sessionOf(failing).id as string);
    await kit.applied();
    expect(await balance(who)).toMatchObject({ purchased: 0 });
    const mail = await waitForMail(kit.t.config.mail.outboxDir, { to: who.email, template: 'account-notice', after: seen });
    expect(mail.headers.subject).toContain('Your payment did not go through');
    expect(mail.text).toContain('no credits were added');
    const [audit] = await kit.db.query(
      `SELECT action, target_id FROM audit_log WHERE target_user_id = $1 AND action = 'billing.pack.failed'`,
      [who.userId],
    );
    expect(audit).toEqual({ action: 'billing.pack.failed', target_id: sessionOf(failing).id });
    expect(await kit.db.query(`SELECT 1 FROM purchases WHERE user_id = $1`, [who.userId])).toEqual([]);

    const settling = await kit.checkout(who, { pack: 'pack-70' });
    await kit.fake.payLater(settling);
    await kit.applied();
    expect(await balance(who)).toMatchObject({ purchased: 0 });
    await kit.fake.settleLater(sessionOf(settling).id as string);
    await kit.applied();
    expect(await balance(who)).toMatchObject({ purchased: 75 });
  });
});
