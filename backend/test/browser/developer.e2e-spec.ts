/**
 * Settings → Developer as a person uses it with a mouse and a keyboard, on the built user app: an
 * API token created (name, scopes, expiry), shown once and copied with the button, then used from a
 * script, listed with its prefix, scopes, dates and last use, and revoked (it then answers 401);
 * a webhook endpoint added (its signing secret shown once), "Send test event" delivering a signed
 * event to a real endpoint on this machine, and the delivery log showing its response code, a
 * failure too.
 */
import { createHmac } from 'node:crypto';
import { WebhookReceiver } from '../developer/webhook-receiver';
import { PASSWORD, signUp, uniqueEmail } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { type Account, createAccount, horizontalOverflow, shot, signedInContext, startUserApp } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

describe('Settings: developer tokens and webhooks', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: Account;
  const receiver = new WebhookReceiver();
  const adminEmail = uniqueEmail('developer-admin');
  const errors: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    ({ t, base } = await startUserApp({ API_TOKEN_RATE_LIMIT_MAX: '1000', ADMIN_EMAILS: adminEmail }));
    browser = await launchBrowser();
    account = await createAccount(t, 'developer', 'Dev Person');
    context = await signedInContext(browser, t, base, account, { width: 1440, height: 900 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await receiver.stop();
  });

  const click = (target: Locator) => mouseClick(page, target);
  async function type(field: Locator, text: string): Promise<void> {
    await click(field);
    await page.keyboard.type(text);
  }
  const card = () => page.locator('.chakra-card__root', { has: page.getByRole('heading', { level: 2, name: 'Developer' }) });
  const tokensTable = () => page.getByRole('table', { name: 'Your API tokens' });
  const asScript = (token: string) => t.http.get('/api/me').set('Authorization', `Bearer ${token}`);

  async function openSettings(): Promise<void> {
    await page.goto(`${base}/dashboard/settings`);
    await card().getByRole('heading', { level: 3, name: 'API tokens' }).waitFor();
  }

  it('creates a token shown once with a copy button, lists it, records its use, and revokes it', async () => {
    await openSettings();
    const form = page.getByRole('form', { name: 'Create an API token' });
    // nothing chosen: the form says what is missing and sends nothing
    await click(form.getByRole('button', { name: 'Create token' }));
    await form.getByText('Name the token (for example, the script that uses it)').waitFor();

    await type(form.getByLabel(/^Token name/), 'Nightly export');
    await click(form.getByText('account:read', { exact: true }));
    await click(form.getByText('generations:read', { exact: true }));
    // the expiry: a click opens the list, Escape closes it, the arrow key picks the next choice
    await click(form.getByLabel(/^Expires/));
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowDown'); // In a year
    expect(await form.getByLabel(/^Expires/).inputValue()).toBe('365');
    await click(form.getByRole('button', { name: 'Create token' }));

    const shown = card().getByTestId('shown-once');
    await shown.waitFor();
    const token = (await shown.textContent())!.trim();
    expect(token).toMatch(/^frk_[0-9A-Za-z]{36}$/);
    await card().getByText('Copy it now: it will not be shown again.').waitFor();
    await click(card().getByRole('button', { name: 'Copy', exact: true }));
    await page.getByText('Copied', { exact: true }).waitFor();
    const copied = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(copied).toBe(token);

    // listed: the name, the first characters only, the scopes, created today, never used, expiring in a year
    const row = tokensTable().getByRole('row', { name: /Nightly export/ });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    const date = (d: Date) => d.toLocaleDateString('en-US', { dateStyle: 'medium' });
    expect(cells.slice(0, 6)).toEqual([
      'Nightly export',
      `${token.slice(0, 8)}...`,
      'account:read, generations:read',
      date(new Date()),
      'Never',
      date(new Date(Date.now() + 365 * 86_400_000)),
    ]);

    // the script uses it; once the card is closed and the page loaded again, the token is nowhere on it
    expect((await asScript(token)).status).toBe(200);
    await click(card().getByRole('button', { name: 'Done' }));
    await shown.waitFor({ state: 'detached' });
    await openSettings();
    await tokensTable()
      .getByRole('row', { name: /Nightly export/ })
      .waitFor();
    expect(await page.content()).not.toContain(token.slice(8));
    expect(
      await tokensTable()
        .getByRole('row', { name: /Nightly export/ })
        .getByRole('cell')
        .nth(4)
        .textContent(),
    ).toBe(date(new Date()));

    await click(tokensTable().getByRole('button', { name: 'Revoke Nightly export' }));
    await page.getByText('Token "Nightly export" revoked').waitFor();
    await card().getByText('No API tokens yet.').waitFor();
    expect((await asScript(token)).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('adds a webhook endpoint, sends a signed test event to it and shows each delivery with its response code', async () => {
    await openSettings();
    const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
    await type(form.getByLabel(/^Endpoint URL/), receiver.url);
    await click(form.getByText('credits.changed', { exact: true }));
    await click(form.getByRole('button', { name: 'Add endpoint' }));
    const shown = card().getByTestId('shown-once');
    await shown.waitFor();
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await click(card().getByRole('button', { name: 'Done' }));

    const endpoint = card().getByRole('group', { name: `Webhook endpoint ${receiver.url}` });
    await endpoint.getByText('generation.completed, generation.failed, credits.changed').waitFor();
    await endpoint.getByText('No deliveries yet.').waitFor();
    receiver.status = 200;
    await click(endpoint.getByRole('button', { name: 'Send test event' }));
    const log = endpoint.getByRole('table', { name: 'Delivery log' });
    const ok = log.getByRole('row', { name: /webhook\.test succeeded 200 1/ });
    await ok.waitFor({ timeout: 15_000 });
    const got = receiver.of('webhook.test');
    expect(got).toHaveLength(1);
    const [, ts, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got[0].headers['fitting-room-signature']))!;
    expect(createHmac('sha256', secret).update(`${ts}.${got[0].rawBody}`).digest('hex')).toBe(v1);

    // the receiver fails: the log says so with its code
    receiver.status = 503;
    await click(endpoint.getByRole('button', { name: 'Send test event' }));
    await log
      .getByRole('row', { name: /webhook\.test failed 503 1/ })
      .waitFor({ timeout: 15_000 })
      .catch(async (e: unknown) => {
        throw new Error(`${String(e)}\nrows: ${JSON.stringify(await log.getByRole('row').allTextContents())}`);
      });
    expect(receiver.of('webhook.test')).toHaveLength(2);

    // on a phone the card, its tables and the delivery log fit the screen (the tables scroll in place)
    await page.setViewportSize({ width: 390, height: 844 });
    await openSettings();
    await endpoint.getByRole('table', { name: 'Delivery log' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'developer-settings-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    await click(endpoint.getByRole('button', { name: 'Delete endpoint' }));
    await endpoint.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it("lists the person's tokens on their console page, revoked ones with why, and an admin revokes a live one (401 from then on)", async () => {
    const admin = await signUp(t.http, { email: adminEmail, full_name: 'Token Admin' });
    const made = await t.http
      .post('/api/me/tokens')
      .set('Authorization', `Bearer ${account.accessToken}`)
      .send({ name: 'CI deploy', scopes: ['generations:write'] })
      .expect(201);
    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const res = await adminContext.request.post(`${base}/api/auth/sign-in`, { data: { email: admin.email, password: PASSWORD } });
      expect(res.status()).toBe(200);
      const consolePage = await adminContext.newPage();
      await consolePage.goto(`${base}/admin/users/${account.userId}/show`);
      const table = consolePage.getByRole('table', { name: 'API tokens' });
      const live = table.getByRole('row', { name: /CI deploy/ });
      await live.waitFor();
      expect(await live.getByRole('cell').allTextContents()).toEqual(
        expect.arrayContaining([`${made.body.token.slice(0, 8)}...`, 'generations:write', 'Never', 'active']),
      );
      // the token revoked by its owner in the first test is listed with why
      await table.getByRole('row', { name: /Nightly export.*revoked by its owner/ }).waitFor();
      expect(await consolePage.content()).not.toContain(made.body.token.slice(8));
      await mouseClick(consolePage, live.getByRole('button', { name: 'Revoke CI deploy' }));
      await consolePage.getByText('Token "CI deploy" revoked').waitFor();
      await table.getByRole('row', { name: /CI deploy.*revoked by an admin/ }).waitFor();
      expect((await asScript(made.body.token)).status).toBe(401);
    } finally {
      await adminContext.close();
    }
  });
});
