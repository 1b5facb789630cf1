import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { NotificationsService } from '../../src/modules/notifications/notifications.service';
import { bearer, PASSWORD, signIn, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { launchBrowser, screenshot } from '../helpers/browser';
import { createTestApp, TestApp, uniqueId } from '../helpers/test-app';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * The react-admin console (issue 7), clicked through in a real browser with the same session as
 * the user app: an admin's day (search, credits, tier, notification, ticket), a support account's
 * narrower view, and the denial for everyone else.
 */
describe('the console at /admin', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const adminEmail = uniqueEmail('console-admin');
  let admin: SignedIn;
  let support: SignedIn;
  let plain: SignedIn;
  let target: SignedIn;
  const targetName = `Rosalind ${uniqueId('target').replace(/[^a-z0-9]/gi, '')}`;

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    // A failed API call is the first thing to read when a step times out.
    page.on('response', async (res) => {
      if (res.url().includes('/api/admin') && res.status() >= 400)
        console.warn(`${res.request().method()} ${res.url()} -> ${res.status()} ${await res.text().catch(() => '')}`);
    });
    return { context, page };
  }

  /** Signs in through the API from inside the browser context, so the context holds the refresh cookie. */
  async function signInContext(context: BrowserContext, email: string): Promise<void> {
    const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email, password: PASSWORD } });
    expect(res.status()).toBe(200);
  }

  /** Screenshots of a settled page: waits for running CSS animations (dialogs, banners) to end. */
  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
      await Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => undefined)));
    });
    await screenshot(page, name);
  }

  /** The background colour of an element as [r, g, b]. */
  async function background(locator: Locator): Promise<number[]> {
    const color = await locator.evaluate(
      (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor,
    );
    return (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  }

  const pathname = (page: Page) => new URL(page.url()).pathname;

  async function menu(page: Page, label: string): Promise<void> {
    // a wide table can overlap the menu while the layout settles; the menu link's own click event navigates
    await page.getByRole('menuitem', { name: label }).dispatchEvent('click');
  }

  async function pick(page: Page, combobox: string, option: string): Promise<void> {
    await page.getByRole('combobox', { name: combobox }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  const adminGet = (url: string) => t.http.get(url).set(bearer(admin.accessToken));

  beforeAll(async () => {
    for (const app of ['frontend', 'admin-ui']) {
      if (!fs.existsSync(path.join(REPO_ROOT, app, 'dist', 'index.html'))) {
        throw new Error(`${app}/dist is missing: run \`npm run build -w ${app}\` first`);
      }
    }
    t = await createTestApp({ SERVE_UI: 'true', ADMIN_EMAILS: adminEmail });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();

    admin = await signUp(t.http, { email: adminEmail, full_name: 'Console Admin' });
    support = await signUp(t.http, { full_name: 'Console Support' });
    plain = await signUp(t.http, { full_name: 'Plain Person' });
    target = await signUp(t.http, { full_name: targetName });
    await t.app.get(DataSource).query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    // fresh tokens carrying the roles
    admin = await signIn(t.http, admin.email);
    support = await signIn(t.http, support.email);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('an admin signed in on the user app opens /admin without a second login, searches a user, adjusts credits and the tier', async () => {
    const { page } = await newPage();
    // Sign in on the user app, as a person does.
    await page.goto(`${base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByLabel(/^Email( \*)?$/).fill(admin.email);
    await dialog.getByLabel(/^Password( \*)?$/).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/generations`);

    // The console: no second login; the analytics with every statistic.
    await page.goto(`${base}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    for (const stat of [
      'Total users',
      'New users today',
      'Generations',
      'Successful',
      'Failed',
      'Cancelled',
      'Success rate',
      'Credits used',
      'Credits in the system',
      'Open tickets',
      'Unread notifications',
    ]) {
      await page.locator(`[data-stat="${stat}"]`).waitFor();
    }
    await page.getByRole('img', { name: 'Successful, failed and cancelled generations per day' }).waitFor();
    await page.getByRole('img', { name: 'Users per tier' }).waitFor();
    await page.getByRole('img', { name: 'Credits spent per day' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign Out' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    await shot(page, 'console-01-analytics');

    // Users: search (case-insensitive, by name) finds the target and only matching rows.
    await menu(page, 'Users');
    await page.getByPlaceholder('Search by email or name').fill(targetName.toUpperCase());
    const row = page.getByRole('row').filter({ hasText: target.email });
    await row.waitFor();
    await page.getByRole('row').filter({ hasText: admin.email }).waitFor({ state: 'detached' });
    await shot(page, 'console-02-users-search');

    await row.getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { name: 'Adjust credits' }).waitFor();
    const credits = page.getByTestId('user-credits');
    const before = Number(await credits.textContent());

    // Submit stays disabled until amount and reason are filled; a fractional amount is refused.
    const add = page.getByRole('button', { name: 'Add credits' });
    expect(await add.isDisabled()).toBe(true);
    await page.getByLabel('Amount').fill('2.5');
    expect(await add.isDisabled()).toBe(true);
    await page.getByLabel('Reason').fill('Goodwill for a failed render');
    await add.click();
    await page.getByText('Please enter a valid amount').waitFor();

    // Add 5: green banner, balance +5.
    await page.getByLabel('Amount').fill('5');
    await page.getByLabel('Reason').fill('Goodwill for a failed render');
    await add.click();
    const added = page.getByText('Successfully added 5 credits');
    await added.waitFor();
    const [r, g, b] = await background(page.getByRole('status').filter({ hasText: 'Successfully added 5 credits' }));
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    await page.waitForFunction(([el, n]) => Number((el as { textContent: string }).textContent) === n, [
      await credits.elementHandle(),
      before + 5,
    ] as const);
    await shot(page, 'console-03-credits-added');

    // Deduct 2.
    await pick(page, 'Mode', 'Deduct');
    await page.getByLabel('Amount').fill('2');
    await page.getByLabel('Reason').fill('Correction');
    await page.getByRole('button', { name: 'Deduct credits' }).click();
    await page.getByText('Successfully deducted 2 credits').waitFor();
    await page.waitForFunction(([el, n]) => Number((el as { textContent: string }).textContent) === n, [
      await credits.elementHandle(),
      before + 3,
    ] as const);
    await shot(page, 'console-04-credits-deducted');
    const details = await adminGet(`/api/admin/users/${target.userId}`);
    expect(details.body.credits).toBe(before + 3);

    // Change the tier (names from the catalogue).
    const catalog = (await t.http.get('/api/catalog')).body as { plans: { id: string; name: string }[] };
    const starter = catalog.plans.find((p) => p.id === 'starter')!;
    await pick(page, 'Change tier', starter.name);
    await page.getByRole('button', { name: 'Save tier' }).click();
    // the change is confirmed, and the dialog says what it grants (the server's words)
    const confirmTier = page.getByRole('dialog');
    expect(await confirmTier.getByTestId('tier-change-summary').textContent()).toMatch(/credit/i);
    expect((await adminGet(`/api/admin/users/${target.userId}`)).body.tier).not.toBe('starter');
    await confirmTier.getByRole('button', { name: 'Change tier' }).click();
    await confirmTier.waitFor({ state: 'hidden' });
    await page.getByTestId('user-tier').filter({ hasText: starter.name }).waitFor();
    expect((await adminGet(`/api/admin/users/${target.userId}`)).body.tier).toBe('starter');
    await shot(page, 'console-05-tier-changed');

    // The audit trail shows the admin's actions.
    await menu(page, 'Audit log');
    for (const action of ['user.credits.add', 'user.credits.deduct', 'user.tier.change']) {
      await page.getByRole('row').filter({ hasText: action }).filter({ hasText: target.email }).first().waitFor();
    }
    await shot(page, 'console-06-audit-log');

    // Generations of every user, and the queue overview.
    await menu(page, 'Generations');
    // every user's generations (other suites may have made some) or the empty state, under its filters
    await page.locator('table, :text-matches("^No .* found")').first().waitFor();
    await page.getByRole('combobox', { name: 'Status' }).waitFor();
    await shot(page, 'console-06b-generations');
    await menu(page, 'Queues');
    await page.getByText(/^Driver: /).waitFor();
    await page.locator('[data-stat="queue failed"]').waitFor();
    await shot(page, 'console-06c-queues');
    await menu(page, 'Analytics');
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
  });

  it('an admin marks a notification read and moves a ticket to resolved with a reply', async () => {
    const subject = `Console ticket ${uniqueId('s')}`;
    const inquiry = await t.http
      .post('/api/support/inquiries')
      .send({ name: 'Requester Person', email: uniqueEmail('requester'), subject, message: 'My credits did not arrive.', kind: 'billing' });
    expect(inquiry.status).toBe(201);
    const { context, page } = await newPage();
    await signInContext(context, admin.email);
    await page.goto(`${base}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();

    // A critical notification is shown as destructive (a red row and chip).
    const criticalTitle = `Critical ${uniqueId('n')}`;
    await t.app
      .get(NotificationsService)
      .notify({ type: 'queue_backlog', title: criticalTitle, message: 'The generation queue is backed up.', severity: 'critical' });

    // Notifications: mark the new ticket's notification read.
    const unread = await adminGet(`/api/admin/notifications?filter=${encodeURIComponent(JSON.stringify({ read: false }))}&range=[0,49]`);
    expect(unread.status).toBe(200);
    const notification =
      (unread.body as { id: string; title: string; message: string }[]).find(
        (n) => n.message.includes(subject) || n.title.includes(subject),
      ) ?? unread.body[0];
    expect(notification).toBeDefined();
    await menu(page, 'Notifications');
    const notificationRow = page
      .getByRole('row')
      .filter({ hasText: notification.message.slice(0, 40) })
      .first();
    const criticalRow = page.getByRole('row').filter({ hasText: criticalTitle });
    const [cr, cg, cb] = await background(criticalRow.getByText('critical', { exact: true }).locator('..'));
    expect(cr).toBeGreaterThan(cg);
    expect(cr).toBeGreaterThan(cb);
    await notificationRow.getByRole('button', { name: 'Mark Read' }).click();
    await notificationRow.getByRole('button', { name: 'Mark Read' }).waitFor({ state: 'detached' });
    await notificationRow.getByText('Read', { exact: true }).waitFor();
    const read = await adminGet(`/api/admin/notifications?filter=${encodeURIComponent(JSON.stringify({ read: true }))}&range=[0,499]`);
    const marked = (read.body as { id: string; read_by: string; read_at: string }[]).find((n) => n.id === notification.id);
    expect(marked?.read_by).toBeTruthy();
    expect(marked?.read_at).toBeTruthy();
    await shot(page, 'console-07-notification-read');

    // Support: the ticket (open shown as destructive), Start, reply, Resolve.
    await menu(page, 'Support');
    const ticketRow = page.getByRole('row').filter({ hasText: subject });
    const [or, og, ob] = await background(ticketRow.getByText('Open', { exact: true }).locator('..'));
    expect(or).toBeGreaterThan(og);
    expect(or).toBeGreaterThan(ob);
    await shot(page, 'console-08-tickets');
    await ticketRow.getByText(subject).click();
    await page.getByRole('heading', { level: 2, name: subject }).waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByTestId('inquiry-status').filter({ hasText: 'In progress' }).waitFor();
    await page.getByLabel('Reply to the requester').fill('We have added the missing credits. Sorry for the wait.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('list', { name: 'Thread' }).getByText('We have added the missing credits.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByTestId('inquiry-status').filter({ hasText: 'Resolved' }).waitFor();
    const ticket = await adminGet(`/api/admin/support-inquiries/${inquiry.body.id}`);
    expect(ticket.body.status).toBe('resolved');
    expect(ticket.body.messages.map((m: { kind: string }) => m.kind)).toEqual(['reply']);
    await shot(page, 'console-09-ticket-resolved');
  });

  it('a support account sees the tickets and a read-only user lookup, without credit adjustment', async () => {
    const { context, page } = await newPage();
    await signInContext(context, support.email);
    await page.goto(`${base}/admin`);
    await page.waitForURL(`${base}/admin/support-inquiries`);
    await page.getByRole('menuitem', { name: 'Support' }).waitFor();
    for (const hidden of ['Analytics', 'Notifications', 'Generations', 'Audit log', 'Queues', 'Outbox']) {
      expect(await page.getByRole('menuitem', { name: hidden }).count()).toBe(0);
    }
    await shot(page, 'console-10-support-tickets');

    await menu(page, 'Users');
    await page.getByPlaceholder('Search by email or name').fill(target.email);
    // the search in the address first: a click before it could be undone by it (docs/console.md)
    await page.waitForURL((url) => (url.searchParams.get('filter') ?? '').includes(target.email));
    await page.getByRole('row').filter({ hasText: target.email }).getByRole('link', { name: 'View' }).click();
    await page.getByTestId('user-credits').waitFor();
    expect(await page.getByRole('heading', { name: 'Adjust credits' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add credits' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Change tier' }).count()).toBe(0);
    await shot(page, 'console-11-support-user-readonly');

    // Sign Out ends the session (for the user app too) and lands on the landing page.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${base}/`);
    // signed out, /admin opens Log in on the landing page, to come back after
    await page.goto(`${base}/admin`);
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('auth') === 'login');
    await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  });

  it('a support account opening an admin page by its address sees the denial, and the console asks the API nothing it refuses', async () => {
    const { context, page } = await newPage();
    await signInContext(context, support.email);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    for (const address of [
      'payments',
      'notifications',
      'generations',
      'audit-log',
      'outbox',
      'templates',
      'templates/create',
      'scenes',
      'queues',
    ]) {
      await page.goto(`${base}/admin/${address}`);
      await page.getByRole('menuitem', { name: 'Support' }).waitFor();
      await page
        .getByText(/Access denied|right permissions/)
        .first()
        .waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(refused).toEqual([]);
  });

  it('a console tab and a user-app tab restoring the session at the same moment keep it (one refresh at a time)', async () => {
    const { context, page: console1 } = await newPage();
    const app = await context.newPage();
    await signInContext(context, admin.email);
    for (let round = 0; round < 3; round += 1) {
      await Promise.all([console1.goto(`${base}/admin`), app.goto(`${base}/dashboard/generations`)]);
      await Promise.all([
        console1.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor(),
        app.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor(),
      ]);
    }
    // Still one live session: a reload of either restores it again.
    await console1.reload();
    await console1.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    expect(pathname(app)).toBe('/dashboard/generations');
  });

  it('a plain user sees "Access denied. Admin privileges required." and is sent to / after about 2 s', async () => {
    const { context, page } = await newPage();
    await signInContext(context, plain.email);
    await page.goto(`${base}/admin`);
    const denial = page.getByText('Access denied. Admin privileges required.');
    await denial.waitFor();
    const shownAt = Date.now();
    await shot(page, 'console-12-access-denied');
    await page.waitForURL(`${base}/`, { timeout: 10_000 });
    // Seen from here, after the message was noticed: a loaded machine notices late (shortening the
    // wait seen) and loads the landing page slowly (lengthening it). Not at once, and not never.
    const waited = Date.now() - shownAt;
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(6000);
  });

  it('says "Failed to verify admin access" when the check itself fails, then goes to /', async () => {
    const { context, page } = await newPage();
    await signInContext(context, admin.email);
    await page.route('**/api/me', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, code: 'INTERNAL_ERROR', message: 'boom' }),
      }),
    );
    await page.goto(`${base}/admin`);
    await page.getByText('Failed to verify admin access').waitFor();
    await page.waitForURL(`${base}/`, { timeout: 5000 });
  });

  it('sends someone who is not signed in to Log in on the landing page, the console page kept for after', async () => {
    const { page } = await newPage();
    await page.goto(`${base}/admin/users`);
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('auth') === 'login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin/users');
    await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  });
});
