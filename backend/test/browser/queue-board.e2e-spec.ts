import { deleteRedisKeys } from '../generations/generation-test-kit';
import { PASSWORD, signUp, uniqueEmail } from '../helpers/auth';
import { launchBrowser, screenshot } from '../helpers/browser';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';

/** Bull Board in a real browser (BullMQ on the real Redis): it renders under our CSP once the cookie is set. */
describe('Bull Board in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const adminEmail = uniqueEmail('board-browser');
  const consoleEmail = uniqueEmail('board-console');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: `${adminEmail},${consoleEmail}`, REDIS_URL: testRedisUrl(), SERVE_UI: 'true' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (t) await deleteRedisKeys(testRedisUrl(), t.config.queue.prefix);
  });

  it('is refused without the cookie, and shows the queues with it', async () => {
    const admin = await signUp(t.http, { email: adminEmail });
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !/status of 401/.test(m.text()) && errors.push(m.text()));
    const missing: string[] = [];
    page.on('response', (r) => r.status() >= 400 && missing.push(`${r.status()} ${r.url()}`));

    const refused = await page.goto(`${base}/api/admin/queue-board`);
    expect(refused?.status()).toBe(401);

    // what the console does: the session call with the bearer token (same origin), then a new tab
    await page.evaluate(
      async ({ token }) => {
        const res = await fetch('/api/admin/queue-board/session', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
        if (!res.ok) throw new Error(`session: ${res.status}`);
      },
      { token: admin.accessToken },
    );
    missing.length = 0;
    const ok = await page.goto(`${base}/api/admin/queue-board`);
    expect(ok?.status()).toBe(200);
    await page.getByText('generations', { exact: false }).first().waitFor({ timeout: 15_000 });
    await page.getByText('maintenance', { exact: false }).first().waitFor({ timeout: 15_000 });
    // a queue's page: its job states, fetched from the board's API through the same cookie
    await page.getByRole('link', { name: 'generations' }).first().click();
    await page
      .getByText(/failed/i)
      .first()
      .waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'queue-board');
    // every resource of the board loads (Chromium's own /favicon.ico probe, a console-only 404, aside);
    // the only console errors allowed are the web fonts our CSP keeps out
    expect(missing).toEqual([]);
    expect(errors.filter((e) => !/fonts\.googleapis|Content Security Policy.*style|status of 404/i.test(e))).toEqual([]);
    await context.close();
  });

  it("opens from the console: the Queues page's button sets the cookie and shows the board in a new tab", async () => {
    const email = consoleEmail;
    await signUp(t.http, { email });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const signedIn = await context.request.post(`${base}/api/auth/sign-in`, { data: { email, password: PASSWORD } });
    expect(signedIn.status()).toBe(200);
    const page = await context.newPage();
    await page.goto(`${base}/admin/queues`);
    await page.getByRole('heading', { name: 'Queues', level: 1 }).waitFor();
    await page.getByText('Driver: bullmq').waitFor();
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Open Bull Board' }).click()]);
    await tab.waitForURL(`${base}/api/admin/queue-board**`);
    await tab.getByRole('link', { name: 'generations' }).first().waitFor({ timeout: 15_000 });
    await tab.getByText('maintenance', { exact: false }).first().waitFor({ timeout: 15_000 });
    await screenshot(tab, 'console-queue-board');
    await context.close();
  });
});
