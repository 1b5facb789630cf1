import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { startStripeKit, type StripeKit } from '../billing/stripe-kit';
import { bearer, PASSWORD, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { launchBrowser, mouseClick, screenshot } from '../helpers/browser';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * Issue 30: a Stripe event that failed on every attempt waits on the console's Stripe events page,
 * and an admin replays it there with the mouse once Stripe answers again; the subscriber then has
 * the renewal's credits. The real API, PostgreSQL, Redis and BullMQ, the fake Stripe, Chromium.
 */
describe('Stripe events in the console', () => {
  let kit: StripeKit;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const adminEmail = uniqueEmail('stripe-events-console');
  let subscriber: SignedIn;
  let support: SignedIn;
  let paidEvent: string;
  let updatedEvent: string;

  async function newPage(email: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email, password: PASSWORD } });
    expect(res.status()).toBe(200);
    return context.newPage();
  }

  const subscriptionCredits = async () =>
    (await kit.t.http.get('/api/me').set(bearer(subscriber.accessToken)).expect(200)).body.credit_balance.subscription as number;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'admin-ui', 'dist', 'index.html'))) {
      throw new Error('admin-ui/dist is missing: run `npm run build -w admin-ui` first');
    }
    kit = await startStripeKit({ SERVE_UI: 'true', ADMIN_EMAILS: adminEmail, STRIPE_EVENT_ATTEMPTS: '2', STRIPE_EVENT_RETRY_MS: '50' });
    await kit.t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(kit.t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
    await signUp(kit.t.http, { email: adminEmail, full_name: 'Events Admin' });
    support = await signUp(kit.t.http, { full_name: 'Events Support' });
    await kit.db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);

    // a Starter subscriber whose renewal arrives while Stripe's API answers 500: both events fail for good
    subscriber = await signUp(kit.t.http, { full_name: 'Renewing Subscriber' });
    const sub = await kit.subscribe(subscriber, 'starter');
    await kit.t.app
      .get(CreditsService)
      .adjust({ userId: subscriber.userId, mode: 'deduct', amount: 15, reason: 'spent', actorId: subscriber.userId });
    kit.fake.failures.set('GET /v1/subscriptions', 1_000_000);
    const events = await kit.fake.renew(sub);
    paidEvent = events.find((e) => e.type === 'invoice.paid')!.id as string;
    updatedEvent = events.find((e) => e.type === 'customer.subscription.updated')!.id as string;
    await kit.settled();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await kit?.close();
  });

  it('an admin finds the failed events and replays the renewal with the mouse once Stripe answers again', async () => {
    expect(await subscriptionCredits()).toBe(5);
    const page = await newPage(adminEmail);
    await page.goto(`${base}/admin`);
    await mouseClick(page, page.getByRole('menuitem', { name: 'Stripe events' }));
    await page.waitForURL((url) => url.pathname === '/admin/stripe-events');
    // the failed ones are shown first
    const paidRow = page.getByRole('row').filter({ hasText: paidEvent });
    const updatedRow = page.getByRole('row').filter({ hasText: updatedEvent });
    await paidRow.waitFor();
    await expect(paidRow.textContent()).resolves.toContain('invoice.paid');
    await expect(paidRow.textContent()).resolves.toContain('failed');
    await expect(paidRow.textContent()).resolves.toContain('An unknown error occurred');
    const link = paidRow.getByRole('link', { name: paidEvent });
    expect(await link.getAttribute('href')).toBe(`https://dashboard.stripe.com/test/events/${paidEvent}`);
    await updatedRow.waitFor();
    await screenshot(page, 'console-stripe-events-01-failed');

    // Stripe answers again: the replay applies the renewal, and the event leaves the failed list
    kit.fake.failures.clear();
    await mouseClick(page, paidRow.getByRole('button', { name: /^Replay/ }));
    await page.getByText('Replayed invoice.paid: applied').waitFor();
    await paidRow.waitFor({ state: 'detached' });
    expect(await updatedRow.count()).toBe(1);
    expect(await subscriptionCredits()).toBe(20);
    await screenshot(page, 'console-stripe-events-02-replayed');

    // the applied events, through the status filter
    await mouseClick(page, page.getByLabel('Status'));
    await mouseClick(page, page.getByRole('option', { name: 'applied' }));
    await paidRow.waitFor();
    await expect(paidRow.textContent()).resolves.toContain('applied');
    const [audit] = await kit.db.query(
      `SELECT actor_email, after FROM audit_log WHERE action = 'billing.event.replay' AND target_id = $1`,
      [paidEvent],
    );
    expect(audit).toEqual({ actor_email: adminEmail, after: { status: 'applied', error: null } });
  });

  it('support staff have no Stripe events page', async () => {
    const page = await newPage(support.email);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${base}/admin`);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Stripe events' }).count()).toBe(0);
    await page.goto(`${base}/admin/stripe-events`);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('row').filter({ hasText: updatedEvent }).count()).toBe(0);
    expect(refused).toEqual([]);
  });
});
