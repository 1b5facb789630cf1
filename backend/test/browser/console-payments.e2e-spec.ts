import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { stripeCatalog } from '../../src/modules/billing/stripe-catalog';
import { startStripeKit, type StripeKit } from '../billing/stripe-kit';
import { PASSWORD, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { launchBrowser, screenshot, mouseClick } from '../helpers/browser';
import { ownDatabase } from '../helpers/own-database';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** A catalogue price in cents (the one source), and how the console writes an amount. */
const price = (kind: 'plan' | 'pack', id: string) => stripeCatalog().find((i) => i.kind === kind && i.id === id)!.unitAmount;
const dollars = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/**
 * The console's money (issue 16, item 4) in a real browser: a pack and a subscription paid through
 * the fake Stripe's webhooks, then an admin reads the revenue cards and finds the purchase on the
 * Payments page with the mouse and keyboard. Its own database, so the figures are exactly these.
 */
describe('payments in the console', () => {
  const database = ownDatabase('console_payments');
  let kit: StripeKit;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const adminEmail = uniqueEmail('pay-console-admin');
  let buyer: SignedIn;
  let support: SignedIn;

  async function newPage(email: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email, password: PASSWORD } });
    expect(res.status()).toBe(200);
    const page = await context.newPage();
    page.on('response', async (r) => {
      if (r.url().includes('/api/admin') && r.status() >= 400)
        console.warn(`${r.url()} -> ${r.status()} ${await r.text().catch(() => '')}`);
    });
    return page;
  }

  const click = mouseClick;

  const stat = (page: Page, label: string) => page.locator(`[data-stat="${label}"]`);

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'admin-ui', 'dist', 'index.html'))) {
      throw new Error('admin-ui/dist is missing: run `npm run build -w admin-ui` first');
    }
    await database.create();
    kit = await startStripeKit({ SERVE_UI: 'true', ADMIN_EMAILS: adminEmail });
    await kit.t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(kit.t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
    await signUp(kit.t.http, { email: adminEmail, full_name: 'Payments Admin' });
    support = await signUp(kit.t.http, { full_name: 'Payments Support' });
    await kit.db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);

    buyer = await signUp(kit.t.http, { full_name: 'Pack Buyer' });
    await kit.pay(await kit.checkout(buyer, { pack: 'pack-70' }));
    const subscriber = await signUp(kit.t.http, { full_name: 'Starter Subscriber' });
    await kit.subscribe(subscriber, 'starter');
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await kit?.close();
    await database.drop();
  });

  it('an admin sees the revenue cards on the dashboard and finds the purchase, with its amount and Stripe link, on the Payments page', async () => {
    const page = await newPage(adminEmail);
    await page.goto(`${base}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    const revenue = page.getByRole('region', { name: 'Revenue' });
    await revenue.waitFor();
    expect(await stat(page, 'Monthly recurring revenue').textContent()).toBe(dollars(price('plan', 'starter')));
    expect(await stat(page, 'Packs sold (last 30 days)').textContent()).toBe('1');
    expect(await stat(page, 'Revenue (last 30 days)').textContent()).toBe(dollars(price('pack', 'pack-70') + price('plan', 'starter')));
    await expect(revenue.textContent()).resolves.toContain('1 active subscription');
    await screenshot(page, 'console-payments-01-revenue');

    await click(page, page.getByRole('menuitem', { name: 'Payments' }));
    await page.waitForURL(`${base}/admin/payments`);
    const purchase = page.getByRole('row').filter({ hasText: buyer.email });
    await purchase.waitFor();
    // the subscription's invoice is listed too, until the list is narrowed to the buyer
    await page.getByRole('row').filter({ hasText: 'Subscription' }).first().waitFor();
    await click(page, page.getByLabel('User email'));
    await page.keyboard.type(buyer.email);
    await page.getByRole('row').filter({ hasText: 'Subscription' }).first().waitFor({ state: 'detached' });
    expect(await purchase.count()).toBe(1);
    await expect(purchase.textContent()).resolves.toContain('Credit pack');
    await expect(purchase.textContent()).resolves.toContain('pack-70');
    await expect(purchase.textContent()).resolves.toContain(dollars(price('pack', 'pack-70')));
    await expect(purchase.textContent()).resolves.toContain('paid');
    const [{ payment_intent_id: pi }] = await kit.db.query(`SELECT payment_intent_id FROM purchases WHERE user_id = $1`, [buyer.userId]);
    const link = purchase.getByRole('link', { name: 'Payment in Stripe' });
    expect(await link.getAttribute('href')).toBe(`https://dashboard.stripe.com/test/payments/${pi}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    await screenshot(page, 'console-payments-02-list');
  });

  it('support staff have no Payments page nor revenue', async () => {
    const page = await newPage(support.email);
    // the console asks the API only for what the role may see: no request is refused
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${base}/admin`);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Payments' }).count()).toBe(0);
    await page.goto(`${base}/admin/payments`);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('row').filter({ hasText: buyer.email }).count()).toBe(0);
    expect(refused).toEqual([]);
  });
});
