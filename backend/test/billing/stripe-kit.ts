import { DataSource } from 'typeorm';
import { appLink, APP_PAGES } from '../../src/common/app-links';
import { syncStripeAccount } from '../../src/modules/billing/stripe-catalog';
import { createStripeClient } from '../../src/modules/billing/stripe.client';
import { FakeStripe } from '../fakes/fake-stripe.server';
import { deleteRedisKeys } from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

export const STRIPE_TEST_SECRET_KEY = 'sk_test_fitting_room_fake_0123456789';
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_fitting_room_fake_0123456789abcdef';

/**
 * The real API (PostgreSQL, Redis, BullMQ) with the official Stripe SDK pointed at a local fake
 * Stripe whose signed webhooks reach the app, and the account set up as `npm run stripe:sync` sets
 * it up (the catalogue and the billing portal configuration): the steps a payment test takes.
 */
export interface StripeKit {
  t: TestApp;
  fake: FakeStripe;
  db: DataSource;
  /** waits until the queue applied every stored event; a job that keeps failing shows its error */
  applied(timeoutMs?: number): Promise<void>;
  /** waits until no stored event is queued or retrying any more (each applied, or failed for good) */
  settled(timeoutMs?: number): Promise<void>;
  /** `npm run stripe:sync` against the fake (optionally with a changed catalogue) */
  sync(items?: Parameters<typeof syncStripeAccount>[2]): ReturnType<typeof syncStripeAccount>;
  /** POST /api/billing/checkout as the person: the Checkout Session's URL */
  checkout(who: SignedIn, body: { plan?: string; pack?: string }): Promise<string>;
  /** the person opens the Checkout page and pays; the webhooks are applied */
  pay(url: string): Promise<void>;
  /** a paid subscription to `plan`: its Stripe id */
  subscribe(who: SignedIn, plan: string): Promise<string>;
  /** the payment intent of the person's pack bought last */
  paymentIntentOf(who: SignedIn, packId: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the fake Stripe and the app (`env` adds settings, e.g. SERVE_UI, ADMIN_EMAILS). */
export async function startStripeKit(env: Record<string, string> = {}): Promise<StripeKit> {
  const fake = new FakeStripe({ secretKey: STRIPE_TEST_SECRET_KEY, webhookSecret: STRIPE_TEST_WEBHOOK_SECRET });
  await fake.start();
  const t = await createTestApp({
    REDIS_URL: testRedisUrl(),
    STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
    ...env,
  });
  const db = t.app.get(DataSource);
  // the waits below look at the events received since this kit started (the database is the run's, where
  // another file may have left an event of a type nobody handles)
  const [{ since }] = await db.query(`SELECT now() AS since`);
  fake.send = async (payload, signature) =>
    (await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', signature).set('Content-Type', 'application/json').send(payload))
      .status;
  const sync = (items?: Parameters<typeof syncStripeAccount>[2]) =>
    syncStripeAccount(createStripeClient(t.config.stripe)!, appLink(t.config.appUrl, APP_PAGES.subscription), items);
  await sync();

  // generous: on a loaded CI machine the webhook jobs queue behind other work (20 s fell short at a load of 14 on 2 cores)
  async function applied(timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending: { id: string; type: string; error: string | null; failed_at: Date | null }[] = await db.query(
        `SELECT id, type, error, failed_at FROM stripe_events WHERE handled_at IS NULL AND received_at >= $1`,
        [since],
      );
      if (pending.length === 0) return;
      if (Date.now() > deadline || pending.some((e) => e.failed_at)) throw new Error(`events not applied: ${JSON.stringify(pending)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function settled(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM stripe_events WHERE handled_at IS NULL AND failed_at IS NULL AND received_at >= $1`,
        [since],
      );
      if (n === 0) return;
      if (Date.now() > deadline) throw new Error(`${n} Stripe events neither applied nor failed for good`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function checkout(who: SignedIn, body: { plan?: string; pack?: string }): Promise<string> {
    const res = await t.http.post('/api/billing/checkout').set(bearer(who.accessToken)).send(body);
    if (res.status !== 200) throw new Error(`checkout answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.url as string;
  }

  async function pay(url: string): Promise<void> {
    await fake.pay(url);
    await applied();
  }

  return {
    t,
    fake,
    db,
    applied,
    settled,
    sync,
    checkout,
    pay,
    async subscribe(who, plan) {
      await pay(await checkout(who, { plan }));
      const [row] = await db.query(`SELECT stripe_subscription_id FROM subscriptions WHERE user_id = $1 ORDER BY updated_at DESC`, [
        who.userId,
      ]);
      return row.stripe_subscription_id as string;
    },
    async paymentIntentOf(who, packId) {
      const [row] = await db.query(
        `SELECT payment_intent_id FROM purchases WHERE user_id = $1 AND pack_id = $2 ORDER BY created_at DESC LIMIT 1`,
        [who.userId, packId],
      );
      return row.payment_intent_id as string;
    },
    async close() {
      await t.close();
      await deleteRedisKeys(testRedisUrl(), t.config.queue.prefix);
      await fake.stop();
    },
  };
}
