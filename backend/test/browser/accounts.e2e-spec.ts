import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { launchBrowser, screenshot } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';

/** The accounts issue's user-facing side, clicked through in a real browser (issue 3, item 8). */
describe('accounts in the user app: the auth dialog, the guard, profile and settings', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  /**
   * The error console messages and uncaught errors of a page, except the failed requests a flow
   * expects (by default: 401s from refresh, when there is no session, and from a wrong sign-in).
   */
  function watchErrors(page: Page, expected = { status: /status of 401/, url: /\/api\/auth\/(refresh|sign-in)$/ }): string[] {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      if (expected.status.test(m.text()) && expected.url.test(m.location().url)) return;
      errors.push(`${m.text()} (${m.location().url})`);
    });
    return errors;
  }

  async function newPage(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    contexts.push(context);
    return context.newPage();
  }

  const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const PASSWORD = 'Velvet-Hanger-2931';

  /** Creates an account through the API (not the UI), for tests about something else. */
  async function createAccount(label: string): Promise<{ email: string; password: string }> {
    const email = uniqueEmail(label);
    const res = await t.http.post('/api/auth/sign-up').send({ full_name: 'Test Person', email, password: PASSWORD, age_confirmed: true });
    expect(res.status).toBe(201);
    return { email, password: PASSWORD };
  }

  /** A form control by its label ("Email", or "Email *" where the field is marked required). */
  const field = (scope: Page | Locator, label: string): Locator => scope.getByLabel(new RegExp(`^${label}( \\*)?$`));

  async function horizontalOverflow(page: Page): Promise<number> {
    return page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
      return doc.documentElement.scrollWidth - (globalThis as unknown as { innerWidth: number }).innerWidth;
    });
  }

  /** The colour of an element as [r, g, b]. */
  async function rgb(locator: Locator): Promise<number[]> {
    const color = await locator.evaluate(
      (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color,
    );
    return (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  }

  /** Screenshots of a settled page: waits for running CSS animations (dialogs, drawers, toasts) to end. */
  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
      await Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => undefined)));
    });
    await screenshot(page, name);
  }

  async function openDialog(page: Page, link: 'Log in' | 'Sign up'): Promise<Locator> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: link === 'Log in' ? 'Log in' : 'Create account' });
    await dialog.waitFor();
    return dialog;
  }

  async function logIn(page: Page, email: string, password: string): Promise<void> {
    const dialog = await openDialog(page, 'Log in');
    await field(dialog, 'Email').fill(email);
    await field(dialog, 'Password').fill(password);
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/generations`);
  }

  /** Follows a sidebar link (opening the menu drawer first on a phone) and waits for the page's h1. */
  async function goTo(page: Page, label: 'Profile' | 'Settings' | 'All Generations'): Promise<void> {
    const menu = page.getByRole('button', { name: 'Open menu' });
    const phone = await menu.isVisible();
    if (phone) await menu.click();
    await page
      .getByRole('navigation', { name: label === 'All Generations' ? 'Dashboard' : 'Account' })
      .getByRole('link', { name: label })
      .click();
    await page.getByRole('heading', { level: 1, name: label }).waitFor();
    if (phone) await page.getByRole('dialog', { name: 'Menu' }).waitFor({ state: 'hidden' });
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'frontend', 'dist', 'index.html'))) {
      throw new Error('frontend/dist is missing: run `npm run build -w frontend` (or `npm test` at the repository root)');
    }
    t = await createTestApp({ SERVE_UI: 'true' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('signs up, signs out, signs in again, and keeps a profile and a settings change across a reload', async () => {
    const page = await newPage(1440, 900);
    const errors = watchErrors(page);
    const email = uniqueEmail('journey');
    await page.goto(`${base}/`);

    // Sign up through the dialog. The API answers slowly here so the submitting state can be seen.
    const dialog = await openDialog(page, 'Sign up');
    // over the landing page (opened in place, or by its server-rendered link /?auth=signup)
    expect(await page.evaluate(() => (globalThis as unknown as { location: { pathname: string } }).location.pathname)).toBe('/');
    await expect(
      field(dialog, 'Full name').evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement),
    ).resolves.toBe(true);
    expect(await field(dialog, 'Email').getAttribute('type')).toBe('email');
    await field(dialog, 'Full name').fill('Journey Tester');
    await field(dialog, 'Email').fill(email);
    await field(dialog, 'Password').fill(PASSWORD);
    await shot(page, 'accounts-dialog-signup-1440');

    // Without the 18+ box ticked the form is not sent.
    await dialog.getByRole('button', { name: 'Create account', exact: true }).click();
    await dialog.getByText('You must confirm that you are 18 or older').waitFor();
    await dialog.getByText('I confirm I am 18 or older').click();
    expect(await dialog.getByRole('checkbox', { name: 'I confirm I am 18 or older' }).isChecked()).toBe(true);

    let releaseSignUp: () => void = () => undefined;
    const signUpHeld = new Promise<void>((resolve) => (releaseSignUp = resolve));
    await page.route('**/api/auth/sign-up', async (route) => {
      await signUpHeld;
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Create account', exact: true }).click();
    const submitting = dialog.getByRole('button', { name: 'Loading...' });
    await submitting.waitFor();
    expect(await submitting.isDisabled()).toBe(true);
    releaseSignUp();
    await page.waitForURL(`${base}/dashboard/generations`);
    await page.unroute('**/api/auth/sign-up');
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();

    // The active sidebar link is bold.
    const active = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Generations' });
    expect(await active.getAttribute('aria-current')).toBe('page');
    expect(
      Number(
        await active.evaluate(
          (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { fontWeight: string } }).getComputedStyle(el).fontWeight,
        ),
      ),
    ).toBeGreaterThanOrEqual(700);

    // Sign Out ends the session on the server and lands on /.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await page.reload();
    await page.goto(`${base}/dashboard/profile`);
    await page.waitForURL(`${base}/`); // the refresh cookie no longer signs anyone in

    // Sign in again and edit the full name on Profile.
    await logIn(page, email, PASSWORD);
    await goTo(page, 'Profile');
    await page.getByText('Current tier').waitFor();
    await page.getByText('Available credits').waitFor();
    const fullName = field(page, 'Full Name');
    await expect(fullName.inputValue()).resolves.toBe('Journey Tester');
    const emailField = field(page, 'Email');
    await expect(emailField.inputValue()).resolves.toBe(email);
    expect(await emailField.getAttribute('readonly')).not.toBeNull();
    await page.getByText('Email cannot be changed from this page').waitFor();
    await fullName.fill('Journey Tester Renamed');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully').waitFor();
    await shot(page, 'accounts-profile-1440');

    // Change a setting on Settings.
    await goTo(page, 'Settings');
    const marketing = page.getByRole('switch', { name: 'Marketing Emails' });
    await marketing.waitFor({ state: 'attached' });
    expect(await marketing.isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Email Notifications' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Generation Notifications' }).isChecked()).toBe(true);
    await page.getByText('Marketing Emails', { exact: true }).click();
    expect(await marketing.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save All Settings' }).click();
    await page.getByText('Settings saved successfully').waitFor();
    // The security actions are real now (accounts-trust.e2e-spec.ts follows them).
    for (const action of ['Change Password', 'Turn on two-factor authentication']) {
      expect(await page.getByRole('button', { name: action }).isEnabled()).toBe(true);
    }
    expect(await page.getByRole('button', { name: 'Delete All My Data' }).isEnabled()).toBe(true); // dashboard.e2e-spec.ts follows it
    await shot(page, 'accounts-settings-1440');

    // After a reload (the session comes back from the refresh cookie) both changes are there.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('switch', { name: 'Marketing Emails' }).waitFor({ state: 'attached' });
    expect(await page.getByRole('switch', { name: 'Marketing Emails' }).isChecked()).toBe(true);
    await goTo(page, 'Profile');
    await expect(field(page, 'Full Name').inputValue()).resolves.toBe('Journey Tester Renamed');

    expect(errors).toEqual([]);
  });

  it('fits a 390 px phone: the dialog, the menu drawer, profile and settings', async () => {
    const page = await newPage(390, 844);
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    const dialog = await openDialog(page, 'Sign up');
    await shot(page, 'accounts-dialog-signup-390');
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click(); // the toggle
    await page.getByRole('dialog', { name: 'Log in' }).waitFor();
    await shot(page, 'accounts-dialog-login-390');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    const { email, password } = await createAccount('phone');
    await logIn(page, email, password);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    await shot(page, 'accounts-menu-390');
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor({ state: 'hidden' });
    await field(page, 'Full Name').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'accounts-profile-390');
    await goTo(page, 'Settings');
    await page.getByRole('switch', { name: 'Marketing Emails' }).waitFor({ state: 'attached' });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'accounts-settings-390');
    expect(errors).toEqual([]);
  });

  it('sends a signed-out visitor from a protected screen to / with the history entry replaced', async () => {
    const page = await newPage(1440, 900);
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();

    // While the session is being asked for, the guard shows a centred spinner.
    let releaseRefresh: () => void = () => undefined;
    const refreshHeld = new Promise<void>((resolve) => (releaseRefresh = resolve));
    await page.route('**/api/auth/refresh', async (route) => {
      await refreshHeld;
      await route.continue();
    });
    await page.goto(`${base}/dashboard/profile`);
    await page.getByRole('status', { name: 'Loading your session' }).waitFor();
    releaseRefresh();

    await page.waitForURL(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await page.goBack();
    expect(page.url()).toBe(`${base}/`); // the landing page visited first, not /dashboard/profile
    for (const url of ['/try', '/app', '/dashboard', '/dashboard/settings']) {
      await page.goto(`${base}${url}`);
      await page.waitForURL(`${base}/`);
    }
    expect(errors).toEqual([]);
  });

  it('shows a failed sign-in in red inside the dialog, and closes the dialog on Escape', async () => {
    const { email } = await createAccount('wrong-password');
    const page = await newPage(1440, 900);
    const errors = watchErrors(page);
    await page.goto(`${base}/?auth=login`);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.waitFor();
    expect(await field(dialog, 'Email').evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)).toBe(true);
    await field(dialog, 'Email').fill(email);
    await field(dialog, 'Password').fill('not-the-password-123');
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();

    const alert = dialog.getByRole('alert').filter({ hasText: 'Invalid email or password' });
    await alert.waitFor();
    const [r, g, b] = await rgb(alert.getByText('Invalid email or password'));
    expect(r).toBeGreaterThan(g! + 60);
    expect(r).toBeGreaterThan(b! + 60);
    expect(page.url()).toBe(`${base}/?auth=login`);
    await shot(page, 'accounts-dialog-error-1440');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(`${base}/`);
    expect(errors).toEqual([]);
  });

  describe('session refresh (docs/product.md), on a fake clock', () => {
    interface AuthCall {
      path: string;
      at: number; // the page's (fake) clock
    }

    /**
     * Records, on the page's clock, when each session call is sent, and counts the calls still
     * waiting for their answer (body included), so that the test never moves the clock past a call
     * the network has not answered yet.
     */
    async function recordAuthCalls(page: Page): Promise<void> {
      await page.addInitScript(() => {
        const w = globalThis as unknown as {
          fetch: (input: unknown, init?: unknown) => Promise<{ clone(): { text(): Promise<string> } }>;
          __authCalls: AuthCall[];
          __authPending: number;
        };
        const realFetch = w.fetch.bind(globalThis);
        w.__authCalls = [];
        w.__authPending = 0;
        w.fetch = (input, init) => {
          const url =
            typeof input === 'object' && input !== null && 'url' in input ? String((input as { url: string }).url) : String(input);
          const path = new URL(url, 'http://x').pathname;
          if (!path.startsWith('/api/auth/')) return realFetch(input, init);
          w.__authCalls.push({ path, at: Date.now() });
          w.__authPending += 1;
          const answered = realFetch(input, init).then(async (response) => {
            await response
              .clone()
              .text()
              .catch(() => '');
            return response;
          });
          void answered
            .catch(() => undefined)
            .finally(() => {
              w.__authPending -= 1;
            });
          return answered;
        };
      });
    }

    const authCalls = (page: Page, path: string): Promise<AuthCall[]> =>
      page.evaluate((p) => (globalThis as unknown as { __authCalls: AuthCall[] }).__authCalls.filter((c) => c.path === p), path);

    const pendingAuthCalls = (page: Page): Promise<number> =>
      page.evaluate(() => (globalThis as unknown as { __authPending: number }).__authPending);

    /**
     * Moves the page's clock on in `stepMs` steps, `maxMs` in all, until `count` calls of `path`
     * were sent. The clock stands still while a session call waits for its answer: on a loaded
     * machine the network takes real time, and moving the clock meanwhile would use up the budget
     * (or stretch the measured gaps) before the app could schedule its next call. Real time passes
     * between steps too, so that what the page awaits (the refresh lock, the network) can happen.
     */
    async function advanceUntilCalls(page: Page, path: string, count: number, stepMs: number, maxMs: number): Promise<AuthCall[]> {
      const realDeadline = Date.now() + 60_000;
      let elapsed = 0;
      while (Date.now() < realDeadline) {
        await page.waitForTimeout(20);
        const calls = await authCalls(page, path);
        if (calls.length >= count) return calls;
        if ((await pendingAuthCalls(page)) > 0) continue;
        if (elapsed >= maxMs) break;
        await page.clock.runFor(stepMs);
        elapsed += stepMs;
      }
      throw new Error(`fewer than ${count} calls of ${path} within ${elapsed} ms of the page's clock`);
    }

    const failWith = (status: number, code: string, message: string) => ({
      status,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: status, code, message }),
    });

    it('refreshes within 90 s of expiry, backs off from 200 ms doubling on failures, and signs out when the session is gone', async () => {
      const { email, password } = await createAccount('refresh');
      const page = await newPage(1440, 900);
      const errors = watchErrors(page, { status: /status of (401|503)/, url: /\/api\/auth\/(refresh|sign-in)$/ });
      await page.clock.install();
      await recordAuthCalls(page);
      await page.goto(`${base}/`);
      await logIn(page, email, password);
      const [signIn] = await authCalls(page, '/api/auth/sign-in');

      // The access token lives 15 minutes. Checks run every 30 s; none refreshes with more than 90 s left.
      await page.clock.runFor(12 * 60_000);
      await page.waitForTimeout(100);
      expect(await authCalls(page, '/api/auth/refresh')).toEqual([]);
      const [first] = await advanceUntilCalls(page, '/api/auth/refresh', 1, 5_000, 5 * 60_000);
      const lifetimeLeft = 15 * 60_000 - (first!.at - signIn!.at);
      expect(lifetimeLeft).toBeLessThanOrEqual(90_000 + 2_000); // the Date header has 1 s precision
      expect(lifetimeLeft).toBeGreaterThan(90_000 - 30_000 - 5_000 - 2_000); // one check interval, one step
      await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();

      // A refresh that fails for a passing reason is retried after 200 ms, 400 ms, 800 ms, ...
      await page.route('**/api/auth/refresh', (route) => route.fulfill(failWith(503, 'SERVICE_UNAVAILABLE', 'Service unavailable')));
      await advanceUntilCalls(page, '/api/auth/refresh', 2, 5_000, 16 * 60_000);
      const failing = await advanceUntilCalls(page, '/api/auth/refresh', 6, 50, 10_000);
      const gaps = failing.slice(2, 6).map((call, i) => call.at - failing[i + 1]!.at);
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(200 * 2 ** i);
        // the page's clock also runs in real time between steps: room for a stalled machine, and a
        // steeper backoff (x3) or a fixed long wait still fails
        expect(gap).toBeLessThan(200 * 2 ** i + 3_000);
      });
      expect(page.url()).toBe(`${base}/dashboard/generations`); // still signed in

      // When the server says the session is gone, the app is signed out and leaves the dashboard.
      await page.route('**/api/auth/refresh', (route) =>
        route.fulfill(failWith(401, 'AUTH_ERROR', 'Authentication error. Please sign in again.')),
      );
      await advanceUntilCalls(page, '/api/auth/refresh', failing.length + 1, 1_000, 60_000);
      await page.waitForURL((url) => url.pathname === '/');
      expect(errors).toEqual([]);
    });

    it('retries a protected call once after a refresh when it answers 401', async () => {
      const { email, password } = await createAccount('retry');
      const page = await newPage(1440, 900);
      const errors = watchErrors(page, { status: /status of 401/, url: /\/api\/(auth\/refresh|me)$/ });
      await recordAuthCalls(page);
      await page.goto(`${base}/`);

      // The first GET /api/me (the dashboard asks as soon as it opens) is refused as if its token had expired.
      let refused = 0;
      await page.route('**/api/me', async (route) => {
        if (refused === 0 && route.request().method() === 'GET') {
          refused += 1;
          await route.fulfill(failWith(401, 'AUTH_ERROR', 'Authentication error. Please sign in again.'));
        } else {
          await route.continue();
        }
      });
      await logIn(page, email, password);
      await goTo(page, 'Profile');
      await page.getByText('Current tier').waitFor();
      expect(refused).toBe(1);
      expect(await authCalls(page, '/api/auth/refresh')).toHaveLength(1);
      await expect(field(page, 'Email').inputValue()).resolves.toBe(email);
      expect(errors).toEqual([]);
    });
  });
});
