import { stripeCatalog } from '../../src/modules/billing/stripe-catalog';
import { bearer, signIn, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { ownDatabase } from '../helpers/own-database';
import { startStripeKit, type StripeKit } from './stripe-kit';

/** A price of the catalogue in cents, as Stripe charges it (the one source: never a figure copied here). */
function price(kind: 'plan' | 'pack', id: string): number {
  const item = stripeCatalog().find((i) => i.kind === kind && i.id === id);
  if (!item) throw new Error(`no ${kind} ${id} in the catalogue`);
  return item.unitAmount;
}

/**
 * The console's money pages (issue 16, item 4): real webhooks from the fake Stripe recorded as
 * payments, read back through GET /api/admin/payments and GET /api/admin/revenue. Its own database,
 * so that the totals are exactly this spec's payments.
 */
describe('payments and revenue in the console', () => {
  const database = ownDatabase('admin_payments');
  let kit: StripeKit;
  let admin: SignedIn;
  let support: SignedIn;
  let packBuyer: SignedIn;
  let starter: SignedIn;
  let glowUp: SignedIn;
  let pi70: string;
  let pi20: string;
  let starterSub: string;
  const adminEmail = uniqueEmail('payments-admin');

  const asAdmin = (url: string) => kit.t.http.get(url).set(bearer(admin.accessToken));

  beforeAll(async () => {
    await database.create();
    kit = await startStripeKit({ ADMIN_EMAILS: adminEmail });
    const http = kit.t.http;
    admin = await signUp(http, { email: adminEmail, full_name: 'Money Admin' });
    support = await signUp(http, { full_name: 'Money Support' });
    await kit.db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    admin = await signIn(http, admin.email);
    support = await signIn(http, support.email);

    // a pack bought long ago: listed, but outside the last 30 days
    const old = await signUp(http, { full_name: 'Old Buyer' });
    await kit.pay(await kit.checkout(old, { pack: 'pack-20' }));
    await kit.db.query(`UPDATE payments SET created_at = now() - interval '31 days' WHERE user_id = $1`, [old.userId]);

    packBuyer = await signUp(http, { full_name: 'Pack Buyer' });
    const events = await kit.fake.pay(await kit.checkout(packBuyer, { pack: 'pack-70' }));
    await kit.applied();
    await kit.fake.deliver(...events); // Stripe retries a delivery: recorded once
    await kit.applied();
    await kit.pay(await kit.checkout(packBuyer, { pack: 'pack-20' }));
    pi70 = await kit.paymentIntentOf(packBuyer, 'pack-70');
    pi20 = await kit.paymentIntentOf(packBuyer, 'pack-20');
    await kit.fake.refund(pi20);
    await kit.applied();

    starter = await signUp(http, { full_name: 'Starter Subscriber' });
    starterSub = await kit.subscribe(starter, 'starter');
    await kit.fake.renew(starterSub);
    await kit.applied();

    glowUp = await signUp(http, { full_name: 'Glow Subscriber' });
    const glowSub = await kit.subscribe(glowUp, 'glow_up');
    await kit.fake.failRenewal(glowSub); // past_due: still billing while Stripe retries
    await kit.applied();
  });

  afterAll(async () => {
    await kit?.close();
    await database.drop();
  });

  it('revenue: MRR from the live subscriptions, packs and revenue of the last 30 days, refunds', async () => {
    const res = await asAdmin('/api/admin/revenue');
    expect(res.status).toBe(200);
    const starterPrice = price('plan', 'starter');
    const glowPrice = price('plan', 'glow_up');
    expect(res.body).toEqual({
      currency: 'usd',
      mrr: starterPrice + glowPrice,
      active_subscriptions: 2,
      packs_sold_30d: 2,
      pack_revenue_30d: price('pack', 'pack-70') + price('pack', 'pack-20'),
      subscription_revenue_30d: 2 * starterPrice + glowPrice,
      revenue_30d: price('pack', 'pack-70') + price('pack', 'pack-20') + 2 * starterPrice + glowPrice,
      refunds_30d: 1,
      refunded_amount_30d: price('pack', 'pack-20'),
    });
  });

  it('lists every payment with the payer, amount, status and a link to the test-mode Stripe dashboard', async () => {
    const res = await asAdmin('/api/admin/payments');
    expect(res.status).toBe(200);
    // 3 packs, 2 starter invoices, the glow_up invoice paid and its renewal failed, 1 refund
    expect(res.headers['content-range']).toBe('payments 0-7/8');
    const rows = res.body as Record<string, unknown>[];
    const pack70 = rows.find((r) => r.payment_intent_id === pi70 && r.kind === 'pack');
    expect(pack70).toMatchObject({
      kind: 'pack',
      user_id: packBuyer.userId,
      user_email: packBuyer.email,
      amount: price('pack', 'pack-70'),
      currency: 'usd',
      status: 'paid',
      product: 'pack-70',
      stripe_url: `https://dashboard.stripe.com/test/payments/${pi70}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(pack70!.id).toMatch(/^cs_test_/);
    expect(rows.find((r) => r.payment_intent_id === pi20 && r.kind === 'pack')).toMatchObject({ status: 'refunded' });
    expect(rows.find((r) => r.kind === 'refund')).toMatchObject({
      user_email: packBuyer.email,
      amount: price('pack', 'pack-20'),
      product: 'pack-20',
      status: 'refunded',
      stripe_url: `https://dashboard.stripe.com/test/payments/${pi20}`,
    });
    const invoices = rows.filter((r) => r.kind === 'subscription' && r.user_id === starter.userId);
    expect(invoices).toHaveLength(2);
    for (const invoice of invoices) {
      expect(invoice).toMatchObject({
        amount: price('plan', 'starter'),
        status: 'paid',
        product: 'starter',
        subscription_id: starterSub,
        stripe_url: `https://dashboard.stripe.com/test/invoices/${String(invoice.id)}`,
        stripe_subscription_url: `https://dashboard.stripe.com/test/subscriptions/${starterSub}`,
      });
    }
    // newest first by default
    const times = rows.map((r) => Date.parse(r.created_at as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters by kind, status and the payer’s email, sorts and pages like the other lists', async () => {
    const q = (filter: object, extra = '') => asAdmin(`/api/admin/payments?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`);
    const packs = await q({ kind: 'pack' });
    expect(packs.body.map((r: { product: string }) => r.product).sort()).toEqual(['pack-20', 'pack-20', 'pack-70']);
    const failed = await q({ status: 'failed' });
    expect(failed.body).toEqual([
      expect.objectContaining({ kind: 'subscription', user_id: glowUp.userId, product: 'glow_up', amount: price('plan', 'glow_up') }),
    ]);
    const byEmail = await q({ q: packBuyer.email.slice(0, -4).toUpperCase() });
    expect(byEmail.body.map((r: { kind: string }) => r.kind).sort()).toEqual(['pack', 'pack', 'refund']);
    const page = await q({ kind: 'subscription' }, `&sort=${encodeURIComponent('["amount","ASC"]')}&range=${encodeURIComponent('[0,1]')}`);
    expect(page.headers['content-range']).toBe('payments 0-1/4');
    expect(page.body.map((r: { amount: number }) => r.amount)).toEqual([price('plan', 'starter'), price('plan', 'starter')]);
    expect((await q({ kind: 'gift' })).status).toBe(400);
  });

  it('support staff and users get 403: money is for admins', async () => {
    for (const who of [support, packBuyer]) {
      for (const url of ['/api/admin/payments', '/api/admin/revenue']) {
        expect((await kit.t.http.get(url).set(bearer(who.accessToken))).status).toBe(403);
      }
    }
  });
});
