import { DataSource } from 'typeorm';
import { AuthMessages } from '../../src/modules/auth/auth-messages';
import { totpCode } from '../../src/modules/auth/two-factor/totp';
import { FIRST_ADMIN_EMAIL } from '../../src/modules/users/first-admin.service';
import { UsersService } from '../../src/modules/users/users.service';
import { FakeGoogleServer } from '../auth/fake-google.server';
import { bearer, PASSWORD, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { waitForMail } from '../helpers/mail';
import { createAccount, shot, startUserApp } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';

/** The API's message for a suspended account (one source: the user app's dialog shows this very string). */
const SUSPENDED = AuthMessages.accountSuspended;

/** The API's message for staff without two-factor (AuthMessages.twoFactorRequired). */
const TWO_FACTOR_REQUIRED = 'Staff accounts must turn on two-factor authentication. Turn it on in Settings, then come back.';

/**
 * The console and the accounts work: the first admin of `npm start` (admin@localhost, a host
 * without a dot) signs in through the user app's dialog with the keyboard and reaches /admin; the
 * Outbox shows what was mailed (links in new tabs, the HTML part in a sandbox); and with
 * AUTH_REQUIRE_STAFF_2FA on, staff without two-factor get a screen that leads them to Settings.
 */
describe('the console with accounts you can trust', () => {
  let browser: Browser;
  const apps: TestApp[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    for (const app of apps) await app.close();
  });

  /** A fresh browser; `expected` are the failed requests a journey expects besides the usual (status and path). */
  async function newPage(
    expected: { status: number; path: RegExp }[] = [],
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      const url = m.location().url;
      // a visitor's session restore, and the console's one look at a staff route (below)
      if (/status of 401/.test(m.text()) && /\/api\/auth\/refresh$/.test(url)) return;
      if (/status of 403/.test(m.text()) && /\/api\/admin\/users\?/.test(url)) return;
      const status = Number(/status of (\d{3})/.exec(m.text())?.[1]);
      if (url && expected.some((e) => e.status === status && e.path.test(new URL(url).pathname))) return;
      errors.push(`${m.text()} (${url})`);
    });
    // what the API refused or failed, in the run's log: the first thing to read when a page here did not show
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() >= 400 && !/\/api\/auth\/refresh$/.test(new URL(r.url()).pathname))
        console.warn(`${r.request().method()} ${new URL(r.url()).pathname} -> ${r.status()}`);
    });
    return { context, page, errors };
  }

  /** Tab from the top of the landing page to Log in, Enter, then email, Tab, password, Enter: the keyboard only. */
  async function logInWithKeyboard(page: Page, base: string, email: string, password: string): Promise<void> {
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true });
    for (let presses = 0; presses < 10; presses += 1) {
      await page.keyboard.press('Tab');
      if (await link.evaluate((el) => el === el.ownerDocument.activeElement)) break;
    }
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.waitFor();
    const emailField = dialog.getByLabel(/^Email/);
    await page.waitForFunction((el) => el === el?.ownerDocument.activeElement, await emailField.elementHandle());
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);
  }

  const click = mouseClick;

  describe('AUTH_REQUIRE_STAFF_2FA off (development, tests)', () => {
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      ({ t, base } = await startUserApp());
      apps.push(t);
      // the first admin as `npm start` creates it (FirstAdminService): admin@localhost
      await t.app.get(UsersService).upsertAdmin(FIRST_ADMIN_EMAIL, PASSWORD, 'First Admin');
    });

    it('admin@localhost logs in through the dialog with the keyboard and reaches the console', async () => {
      const { page, errors } = await newPage();
      await logInWithKeyboard(page, base, FIRST_ADMIN_EMAIL, PASSWORD);
      await page.goto(`${base}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.locator('[data-stat="Total users"]').waitFor();
      await page.getByRole('menuitem', { name: 'Outbox' }).waitFor();
      await shot(page, 'console-accounts-01-admin-localhost');
      expect(errors).toEqual([]);
    });

    it('lists the outbox and shows a message: its links open in a new tab, its HTML in a sandbox', async () => {
      const person = await signUp(t.http, { full_name: 'Olive Outbox' });
      await t.http.post('/api/auth/password/forgot').send({ email: person.email }).expect(202);
      const mail = await waitForMail(t.config.mail!.outboxDir, { to: person.email, template: 'password-reset' });
      const resetLink = mail.links.find((l) => new URL(l).pathname === '/reset-password')!;

      const { context, page, errors } = await newPage();
      const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email: FIRST_ADMIN_EMAIL, password: PASSWORD } });
      expect(res.status()).toBe(200);
      await page.goto(`${base}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.getByRole('menuitem', { name: 'Outbox' }).dispatchEvent('click');

      // the list: newest first, with date, to, subject and template
      const table = page.getByRole('table');
      for (const column of ['Date', 'To', 'Subject', 'Template']) await table.getByRole('columnheader', { name: column }).waitFor();
      const row = table.getByRole('row').filter({ hasText: person.email }).filter({ hasText: 'password-reset' });
      await row.waitFor();
      await shot(page, 'console-accounts-02-outbox-list');
      await click(page, row.getByText(mail.headers.subject!));

      // the message: its text part, its links, its HTML part
      await page.getByRole('heading', { name: mail.headers.subject! }).waitFor();
      await page.getByTestId('outbox-text').filter({ hasText: resetLink }).waitFor();
      const link = page.getByRole('list', { name: 'Links of the message' }).getByRole('link', { name: resetLink });
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      const frame = page.locator('iframe[title^="HTML part of"]');
      expect(await frame.getAttribute('sandbox')).toBe(''); // every restriction: no scripts, forms or navigation
      expect(await frame.getAttribute('srcdoc')).toContain('<html');
      // rendered: the mail's button, a link that cannot open from the sandbox
      await page.frameLocator('iframe[title^="HTML part of"]').getByRole('link', { name: 'Choose a new password' }).waitFor();
      await shot(page, 'console-accounts-03-outbox-message');

      // a link opens the user app's page in a new tab, leaving the console where it is
      const opened = context.waitForEvent('page');
      await click(page, link);
      const tab = await opened;
      await tab.waitForURL(resetLink);
      await tab.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/admin\/outbox\//);
      expect(errors).toEqual([]);
    });
  });

  describe('AUTH_REQUIRE_STAFF_2FA on (the production default)', () => {
    let t: TestApp;
    let base: string;
    const adminEmail = uniqueEmail('staff-2fa');

    beforeAll(async () => {
      ({ t, base } = await startUserApp({ AUTH_REQUIRE_STAFF_2FA: 'true' }));
      apps.push(t);
      await t.app.get(UsersService).upsertAdmin(adminEmail, PASSWORD, 'Staff Without 2FA');
    });

    it('shows an admin without two-factor why, leads to Settings, and lets them in once it is on', async () => {
      const { page, errors } = await newPage();
      await logInWithKeyboard(page, base, adminEmail, PASSWORD);
      await page.goto(`${base}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Turn on two-factor authentication' }).waitFor();
      await page.getByRole('alert').filter({ hasText: TWO_FACTOR_REQUIRED }).waitFor();
      await page.waitForTimeout(2_500); // no redirect away (unlike "Access denied"): the person reads and acts
      expect(new URL(page.url()).pathname).toBe('/admin');
      await shot(page, 'console-accounts-04-two-factor-required');

      // Open Settings -> the user app's Settings, where two-factor is turned on
      await click(page, page.getByRole('link', { name: 'Open Settings' }));
      await page.waitForURL(`${base}/dashboard/settings`);
      // an account made by admin:create is 18+ confirmed by the operator: no age question on the way
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      expect(await page.getByText('I confirm I am 18 or older').count()).toBe(0);
      await click(page, page.getByRole('button', { name: 'Turn on two-factor authentication' }));
      const setup = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
      const key = setup.locator('[data-setup-key]');
      await key.waitFor();
      const secret = ((await key.textContent()) ?? '').replace(/\s+/g, '');
      await click(page, setup.getByLabel(/^6-digit code from the app/));
      await page.keyboard.type(totpCode(secret));
      await page.keyboard.press('Enter');
      const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
      await click(page, codes.getByText('I have saved my recovery codes'));
      await click(page, codes.getByRole('button', { name: 'Done' }));
      await codes.waitFor({ state: 'hidden' });

      // back to the console: the dashboard now
      await page.goto(`${base}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.locator('[data-stat="Total users"]').waitFor();
      expect(errors).toEqual([]);
    });
  });

  /**
   * Suspension from the console's user page, and what the person then meets: an admin suspends with a
   * reason, the person's session ends with the suspension's message, signing in (with a password or
   * through Google, against a local fake Google) says why, and lifting lets them back. Support staff
   * read the page without the buttons.
   */
  describe('suspending an account from the console', () => {
    let t: TestApp;
    let base: string;
    let db: DataSource;
    const google = new FakeGoogleServer();
    const adminEmail = uniqueEmail('suspend-admin');
    let admin: SignedIn;
    let support: SignedIn;
    /** a custom pose the safety rules refuse */
    const HOSTILE_POSE = 'topless on the beach';
    const REASON = 'Repeated attempts at explicit custom poses';

    beforeAll(async () => {
      await google.start();
      ({ t, base } = await startUserApp({ ...google.env(), ADMIN_EMAILS: adminEmail }));
      apps.push(t);
      db = t.app.get(DataSource);
      admin = await signUp(t.http, { email: adminEmail, full_name: 'Suspending Admin' });
      support = await signUp(t.http, { full_name: 'Desk Support' });
      await db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    });
    afterAll(async () => {
      await google.stop();
    });

    /** A console page of a staff member (signed in through the API from this browser), opened at /admin. */
    async function staffConsole(email: string): Promise<{ page: Page; errors: string[] }> {
      const { context, page, errors } = await newPage();
      const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email, password: PASSWORD } });
      expect(res.status()).toBe(200);
      return { page, errors };
    }

    /** Users, the search box (typed into), the person's row, View: their page. */
    async function openUserPage(page: Page, email: string): Promise<void> {
      await page.goto(`${base}/admin/users`);
      const search = page.getByPlaceholder('Search by email or name');
      await click(page, search);
      await page.keyboard.type(email);
      // as a person does, the list is read once it shows the search: react-admin applies a search 500 ms
      // after the last key and puts it in the address a tick later; on a loaded machine that tick can
      // come after a click on View and take the page back to the list (docs/console.md)
      await page.waitForURL((url) => (url.searchParams.get('filter') ?? '').includes(email));
      const row = page.getByRole('row').filter({ hasText: email });
      await click(page, row.getByRole('link', { name: 'View' }));
      await page.getByRole('heading', { level: 2, name: 'Account status' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Profile' }).waitFor();
    }

    /** The landing page's Log in (the mouse), then email, Tab, password, Enter (the keyboard). */
    async function logInInDialog(page: Page, email: string): Promise<Locator> {
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
      await click(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true }));
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      const emailField = dialog.getByLabel(/^Email/);
      await click(page, emailField);
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      return dialog;
    }

    it('lists a refused custom pose on the user page: admins read its text, support staff the count only and no Suspend button', async () => {
      const person = await signUp(t.http, { full_name: 'Pose Tester' });
      const refused = await t.http
        .post('/api/generations/check')
        .set(bearer(person.accessToken))
        .send({ type: 'image', category: 'bikini', template_id: 'bikini-yellow', custom_pose: HOSTILE_POSE });
      expect(refused.status).toBe(400);
      const details = await t.http.get(`/api/admin/users/${person.userId}`).set(bearer(admin.accessToken)).expect(200);
      const categories: string[] = details.body.refusals.recent[0].reasons;
      expect(categories.length).toBeGreaterThan(0);

      // an admin: the counts, the row with its categories, where and the text
      const { page, errors } = await staffConsole(admin.email);
      await openUserPage(page, person.email);
      await page.getByRole('heading', { level: 2, name: 'Refused custom poses' }).waitFor();
      expect(await page.getByTestId('user-refusals-total').textContent()).toBe('1');
      const row = page.getByRole('table', { name: 'Recent refusals' }).getByRole('row').filter({ hasText: HOSTILE_POSE });
      await row.waitFor();
      for (const category of categories) await row.getByText(category.replace(/_/g, ' '), { exact: true }).waitFor();
      await row.getByText('Check before upload').waitFor();
      const status = page.getByRole('list', { name: 'Account status' });
      for (const chip of ['Email verified', 'Two-factor off', 'Active']) await status.getByText(chip, { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Suspend', exact: true }).waitFor();
      await shot(page, 'console-accounts-05-refusals-admin');
      expect(errors).toEqual([]);

      // support staff: the same page, the count and categories, no text, no Suspend
      const desk = await staffConsole(support.email);
      await openUserPage(desk.page, person.email);
      await desk.page.getByRole('heading', { level: 2, name: 'Refused custom poses' }).waitFor();
      expect(await desk.page.getByTestId('user-refusals-total').textContent()).toBe('1');
      const supportRow = desk.page.getByRole('table', { name: 'Recent refusals' }).getByRole('row').nth(1);
      await supportRow.getByText(categories[0].replace(/_/g, ' '), { exact: true }).waitFor();
      await supportRow.getByText('—', { exact: true }).waitFor();
      expect(await desk.page.getByText(HOSTILE_POSE).count()).toBe(0);
      await desk.page.getByRole('list', { name: 'Account status' }).getByText('Active', { exact: true }).waitFor();
      expect(await desk.page.getByRole('button', { name: 'Suspend', exact: true }).count()).toBe(0);
      expect(await desk.page.getByRole('button', { name: 'Lift suspension' }).count()).toBe(0);
      await shot(desk.page, 'console-accounts-06-refusals-support');
      expect(desk.errors).toEqual([]);
    });

    it('keeps the user page under the red banner when a refresh fails, and drops the banner once one succeeds', async () => {
      const person = await signUp(t.http, { full_name: 'Flaky Network' });
      const { page, errors } = await staffConsole(admin.email);
      await openUserPage(page, person.email);
      // the server stops answering this user's details (a restart, a proxy hiccup)
      const details = new RegExp(`/api/admin/users/${person.userId}$`);
      await page.route(details, (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"statusCode":503,"message":"Service temporarily unavailable. Please try again."}',
        }),
      );
      // the person comes back to the tab: the page refreshes its record, and every try fails
      const comeBack = () =>
        page.evaluate(() => {
          const doc = (globalThis as unknown as { document: EventTarget }).document;
          for (const state of ['hidden', 'visible']) {
            Object.defineProperty(doc, 'visibilityState', { value: state, configurable: true });
            doc.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
          }
        });
      // A return to the tab refreshes only when no read of the record is under way: one the page
      // began before the route ends well and leaves nothing to show (the likely cause of a failure seen
      // once on a loaded machine).
      // So the person comes back again, as one would, until the page has tried and failed (a read is
      // tried 4 times, 1, 2 and 4 s apart: react-query's defaults, which react-admin keeps).
      const banner = page.getByRole('alert').filter({ hasText: 'Failed to load user details' });
      const afterComingBack = async (state: 'visible' | 'detached') => {
        for (let attempt = 1; ; attempt++) {
          await comeBack();
          try {
            return await banner.waitFor({ state, timeout: 12_000 });
          } catch (error) {
            if (attempt === 3) throw error;
          }
        }
      };
      await afterComingBack('visible');
      // what the admin was reading is still there, and still acts
      for (const name of ['Profile', 'Account status', 'Tier']) await page.getByRole('heading', { level: 2, name }).waitFor();
      await page.getByText(person.email, { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Suspend', exact: true }).waitFor();

      // the server is back: the next refresh drops the banner
      await page.unroute(details);
      await afterComingBack('detached');
      await page.getByRole('heading', { level: 2, name: 'Profile' }).waitFor();
      expect(errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
    }, 120_000);

    it('an admin suspends with a reason: the session ends with the message, sign-in (password or Google) says why; lifting lets the person back', async () => {
      const person = await createAccount(t, 'suspended', 'Sam Suspended');

      // the person is using the app in their own browser
      const you = await newPage([
        { status: 403, path: /^\/api\/auth\/sign-in$/ }, // the suspended sign-in, answered with the message
      ]);
      const signedIn = await you.context.request.post(`${base}/api/auth/sign-in`, { data: { email: person.email, password: PASSWORD } });
      expect(signedIn.status()).toBe(200);
      await you.page.goto(`${base}/dashboard/generations`);
      await you.page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();

      // the admin: Suspend, the dialog refuses an empty reason, then the reason typed
      const { page, errors } = await staffConsole(admin.email);
      await openUserPage(page, person.email);
      await click(page, page.getByRole('button', { name: 'Suspend', exact: true }));
      const dialog = page.getByRole('dialog', { name: 'Suspend this account?' });
      await dialog.getByText(`${person.email} will not be able to sign in`, { exact: false }).waitFor();
      await click(page, dialog.getByRole('button', { name: 'Suspend account' }));
      await dialog.getByRole('alert').filter({ hasText: 'Please fill in all fields' }).waitFor();
      expect((await db.query(`SELECT suspended_at FROM users WHERE id = $1`, [person.userId]))[0].suspended_at).toBeNull();
      await click(page, dialog.getByLabel(/^Reason/));
      await page.keyboard.type(REASON);
      await shot(page, 'console-accounts-07-suspend-dialog');
      await click(page, dialog.getByRole('button', { name: 'Suspend account' }));
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('Account suspended', { exact: true }).waitFor();
      const status = page.getByRole('list', { name: 'Account status' });
      await status.getByText('Suspended', { exact: true }).waitFor();
      const suspension = page.getByTestId('suspension-details');
      await suspension.getByText(`by ${admin.email}`, { exact: false }).waitFor();
      await suspension.getByText(`Reason: ${REASON}`).waitFor();
      await page.getByRole('button', { name: 'Lift suspension' }).waitFor();
      expect(await page.getByRole('button', { name: 'Suspend', exact: true }).count()).toBe(0);
      await shot(page, 'console-accounts-08-suspended');

      // the person's session stops working: an API call with their token, and their browser's next restore
      const call = await t.http.get('/api/me').set(bearer(person.accessToken));
      expect({ status: call.status, message: call.body.message }).toEqual({ status: 401, message: SUSPENDED });
      const restore = you.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/refresh');
      await you.page.reload();
      const restored = await restore;
      expect({ status: restored.status(), message: (await restored.json()).message }).toEqual({ status: 401, message: SUSPENDED });
      // the app says why, in the log-in dialog of the landing page
      await you.page.waitForURL(`${base}/?auth=login&ended=ACCOUNT_SUSPENDED`);
      await you.page.getByRole('dialog', { name: 'Log in' }).getByRole('alert').filter({ hasText: SUSPENDED }).waitFor();

      // signing in again says why, with a password ...
      const logIn = await logInInDialog(you.page, person.email);
      await logIn.getByRole('alert').filter({ hasText: SUSPENDED }).waitFor();
      expect(new URL(you.page.url()).pathname).toBe('/');
      await shot(you.page, 'console-accounts-09-sign-in-suspended');
      // ... and through Google (the same address, verified by Google): back at /?auth_error=account_suspended
      google.nextIdentity = { sub: `google-${person.userId}`, email: person.email, email_verified: true, name: 'Sam Suspended' };
      await click(you.page, logIn.getByRole('link', { name: 'Continue with Google' }));
      await you.page.waitForURL(`${base}/?auth_error=account_suspended`);
      await you.page.getByRole('dialog', { name: 'Log in' }).getByRole('alert').filter({ hasText: SUSPENDED }).waitFor();
      expect(google.calls.token).toBeGreaterThan(0);

      // the admin lifts the suspension, after a confirmation
      await click(page, page.getByRole('button', { name: 'Lift suspension' }));
      const confirm = page.getByRole('dialog', { name: 'Lift the suspension?' });
      await confirm.getByText(`${person.email} will be able to sign in again.`).waitFor();
      await click(page, confirm.getByRole('button', { name: 'Lift suspension' }));
      await page.getByText('Suspension lifted', { exact: true }).waitFor();
      await status.getByText('Active', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Suspend', exact: true }).waitFor();
      expect(await page.getByTestId('suspension-details').count()).toBe(0);
      await shot(page, 'console-accounts-10-lifted');
      const trail = await db.query(`SELECT action, actor_email FROM audit_log WHERE target_user_id = $1 ORDER BY created_at`, [
        person.userId,
      ]);
      expect(trail).toEqual([
        { action: 'user.suspend', actor_email: admin.email },
        { action: 'user.unsuspend', actor_email: admin.email },
      ]);

      // and the person signs in again
      await logInInDialog(you.page, person.email);
      await you.page.waitForURL(`${base}/dashboard/generations`);
      await you.page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
      expect(errors).toEqual([]);
      expect(you.errors).toEqual([]);
    });

    it("the log-in dialog at /?auth_error=account_suspended shows the API's suspension message", async () => {
      const { page, errors } = await newPage();
      await page.goto(`${base}/?auth_error=account_suspended`);
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      expect((await alert.textContent())?.trim()).toBe(SUSPENDED);
      // the alert has the focus: a screen reader reads it first
      expect(await alert.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await shot(page, 'console-accounts-11-google-suspended');
      expect(errors).toEqual([]);
    });
  });
});
