import { DataSource } from 'typeorm';
import { appLink, APP_PAGES } from '../../src/common/app-links';
import { syncStripeAccount } from '../../src/modules/billing/stripe-catalog';
import { createStripeClient } from '../../src/modules/billing/stripe.client';
import { FakeStripe } from '../fakes/fake-stripe.server';
import { deleteRedisKeys } from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { outboxFiles, waitForMail } from '../helpers/mail';
import { testRedisUrl, type TestApp } from '../helpers/test-app';
import { type Account, createAccount, shot, signedInContext, startUserApp, watchErrors } from '../helpers/user-app';
import type { Browser, BrowserContext, Page } from 'playwright-core';

const SECRET_KEY = 'sk_test_fitting_room_browser_0123456789';
const WEBHOOK_SECRET = 'whsec_fitting_room_browser_0123456789abcdef';

// the wording of the user app (frontend/src/features/subscription)
const PAID = 'Payment received – your credits will appear in a moment';
const CANCELLED = 'Checkout cancelled – you were not charged';
const PAYMENT_FAILED = 'Your last payment did not go through';

/**
 * Buying in the user app with Stripe on (issue 16): the API and its built user app in a real
 * Chromium, the official Stripe SDK pointed at the local fake Stripe, whose hosted Checkout page the
 * browser pays on and whose signed webhooks reach the app over HTTP.
 */
describe('payments in the user app', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let fake: FakeStripe;
  let db: DataSource;
  const contexts: BrowserContext[] = [];
  /** every webhook the fake Stripe delivered: its raw body and signature */
  const delivered: { payload: string; signature: string }[] = [];

  const postWebhook = (payload: string, signature: string) =>
    fetch(`${base}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      body: payload,
    });

  beforeAll(async () => {
    fake = new FakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    await fake.start();
    ({ t, base } = await startUserApp({
      REDIS_URL: testRedisUrl(),
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    }));
    db = t.app.get(DataSource);
    fake.send = async (payload, signature) => {
      delivered.push({ payload, signature });
      return (await postWebhook(payload, signature)).status;
    };
    await syncStripeAccount(createStripeClient(t.config.stripe)!, appLink(t.config.appUrl, APP_PAGES.subscription));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    if (t) {
      await t.close();
      await deleteRedisKeys(testRedisUrl(), t.config.queue.prefix);
    }
    await fake?.stop();
  });

  async function pageFor(account: Account): Promise<Page> {
    const context = await signedInContext(browser, t, base, account, { width: 1440, height: 900 });
    contexts.push(context);
    return context.newPage();
  }

  const click = mouseClick;
  /**
   * The pricing page is pre-rendered as for a visitor: once the session is restored it shows the
   * studio's link and reads the signed-in user's catalogue (its plans re-render): click after that.
   */
  const signedInShown = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Open studio' }).waitFor();

  /** Waits until the queue has applied every stored Stripe event. */
  // those received since this file started: the database is the run's, where another file may have left an
  // event of a type nobody handles
  const startedAt = new Date();
  async function applied(timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM stripe_events WHERE handled_at IS NULL AND received_at >= $1`, [
        startedAt,
      ]);
      if (n === 0) return;
      if (Date.now() > deadline) throw new Error('Stripe events not applied');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function balance(account: Account): Promise<{ tier: string; subscription: number; purchased: number }> {
    const me = await t.http.get('/api/me').set(bearer(account.accessToken)).expect(200);
    return { tier: me.body.tier, subscription: me.body.credit_balance.subscription, purchased: me.body.credit_balance.purchased };
  }

  /** The "Pack credits" figure of the Subscription page showing `n`. */
  const packCredits = (page: Page, n: number) => page.locator('dl').filter({ hasText: new RegExp(`^Pack credits\\s*${n}(?!\\d)`) });

  it('a signed-in user buys the 70-credit pack on the fake Checkout page and sees 75 more purchased credits; a replay adds nothing, a forgery is refused', async () => {
    const account = await createAccount(t, 'pay-pack', 'Pack Buyer');
    const page = await pageFor(account);
    const errors = watchErrors(page);
    await page.goto(`${base}/dashboard/subscription`);
    await packCredits(page, 0).waitFor();
    expect(await balance(account)).toEqual({ tier: 'free', subscription: 3, purchased: 0 });

    await page.goto(`${base}/pricing`);
    await signedInShown(page);
    await click(page, page.getByRole('button', { name: 'Buy 75 credits' }));
    await page.waitForURL((url) => url.href.startsWith(`${fake.url}/c/pay/cs_test_`));
    await page.getByRole('heading', { name: 'Pay $14.99' }).waitFor();
    await click(page, page.getByRole('button', { name: 'Pay' }));

    await page.waitForURL(`${base}/dashboard/subscription?checkout=success`);
    await page.getByText(PAID, { exact: true }).waitFor();
    await packCredits(page, 75).waitFor({ timeout: 20_000 });
    // the page saw the credits arrive (compared with the balance before paying)
    await page.getByText('Your plan and credits below are up to date.', { exact: false }).waitFor();
    await shot(page, 'payments-pack-paid');
    await applied();
    expect(await balance(account)).toEqual({ tier: 'free', subscription: 3, purchased: 75 });
    const mail = await waitForMail(t.config.mail.outboxDir, { to: account.email, template: 'account-notice' });
    expect(mail.headers.subject).toContain('Credits added');
    expect(mail.text).toContain('75 credits (70 + 5 bonus)');

    // Stripe delivers the same event again: answered 200, and nothing more is added
    const completed = delivered.filter((d) => d.payload.includes(`"client_reference_id": "${account.userId}"`));
    expect(completed).toHaveLength(1);
    expect((await postWebhook(completed[0].payload, completed[0].signature)).status).toBe(200);
    await applied();
    expect(await balance(account)).toEqual({ tier: 'free', subscription: 3, purchased: 75 });
    const [{ n: purchases }] = await db.query(`SELECT count(*)::int AS n FROM purchases WHERE user_id = $1`, [account.userId]);
    expect(purchases).toBe(1);

    // a forged signature (another secret) on a new event: 400, nothing stored or added
    const event = { ...(JSON.parse(completed[0].payload) as Record<string, unknown>), id: `evt_forged_${Date.now()}` };
    const forged = fake.signed(event, 'whsec_not_the_endpoint_secret');
    expect((await postWebhook(forged.payload, forged.signature)).status).toBe(400);
    expect(await db.query(`SELECT 1 FROM stripe_events WHERE id = $1`, [event.id])).toEqual([]);

    // a freshly loaded page shows the same
    await page.goto(`${base}/dashboard/subscription`);
    await packCredits(page, 75).waitFor();
    expect(await balance(account)).toEqual({ tier: 'free', subscription: 3, purchased: 75 });
    expect(errors).toEqual([]);
  });

  it('cancelling on the Checkout page comes back to the cancel state and changes nothing', async () => {
    const account = await createAccount(t, 'pay-cancel', 'Cancel Person');
    const page = await pageFor(account);
    const errors = watchErrors(page);
    const webhooks = delivered.length;
    await page.goto(`${base}/pricing`);
    await signedInShown(page);
    await click(page, page.getByRole('button', { name: 'Choose Starter' }));
    await page.waitForURL((url) => url.href.startsWith(`${fake.url}/c/pay/cs_test_`));
    await click(page, page.getByRole('link', { name: 'Cancel' }));

    await page.waitForURL(`${base}/dashboard/subscription?checkout=cancelled`);
    await page.getByText(CANCELLED, { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Free Plan' }).waitFor();
    await shot(page, 'payments-checkout-cancelled');
    expect(delivered.length).toBe(webhooks);
    expect(await balance(account)).toEqual({ tier: 'free', subscription: 3, purchased: 0 });
    expect(await db.query(`SELECT 1 FROM subscriptions WHERE user_id = $1`, [account.userId])).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a failed renewal shows the banner, whose button opens the billing portal; Cancel plan opens it too', async () => {
    const account = await createAccount(t, 'pay-failed', 'Failed Payer');
    const res = await t.http.post('/api/billing/checkout').set(bearer(account.accessToken)).send({ plan: 'starter' }).expect(200);
    await fake.pay(res.body.url as string);
    await applied();
    const planMail = await waitForMail(t.config.mail.outboxDir, { to: account.email, template: 'account-notice' });
    expect(planMail.headers.subject).toContain('Your plan changed');
    expect(planMail.text).toContain('Your plan is now Starter Plan');
    const seen = outboxFiles(t.config.mail.outboxDir);
    const [{ stripe_subscription_id: sub }] = await db.query(`SELECT stripe_subscription_id FROM subscriptions WHERE user_id = $1`, [
      account.userId,
    ]);

    const page = await pageFor(account);
    const errors = watchErrors(page);
    await page.goto(`${base}/dashboard/generations`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByText(PAYMENT_FAILED).count()).toBe(0);

    await fake.failRenewal(sub as string);
    await applied();
    await waitForMail(t.config.mail.outboxDir, { to: account.email, template: 'account-notice', after: seen });
    await page.goto(`${base}/dashboard/generations`);
    const banner = page.getByRole('region', { name: PAYMENT_FAILED });
    await banner.waitFor();
    await shot(page, 'payments-payment-failed-banner');
    await click(page, banner.getByRole('button', { name: 'Update Payment Method' }));
    await page.waitForURL((url) => url.href.startsWith(`${fake.url}/p/session/test_`));
    await click(page, page.getByRole('link', { name: 'Return' }));
    await page.waitForURL(`${base}/dashboard/subscription`);

    const billing = page.getByRole('region', { name: 'Billing' });
    await click(page, billing.getByRole('button', { name: 'Cancel plan' }));
    await page.waitForURL((url) => url.href.startsWith(`${fake.url}/p/session/test_`));
    expect(fake.portalSessions.size).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });
});
