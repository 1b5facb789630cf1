import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';
import { FIRST_ADMIN_EMAIL } from '../../src/modules/users/first-admin.service';
import { UsersService } from '../../src/modules/users/users.service';
import { totpCode } from '../../src/modules/auth/two-factor/totp';
import { PASSWORD, signUp, uniqueEmail } from '../helpers/auth';
import { launchBrowser } from '../helpers/browser';
import { waitForMail } from '../helpers/mail';
import type { TestApp } from '../helpers/test-app';
import { shot, startUserApp } from '../helpers/user-app';

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

  async function newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
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
      errors.push(`${m.text()} (${url})`);
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

  async function click(page: Page, target: Locator): Promise<void> {
    await target.waitFor();
    await target.scrollIntoViewIfNeeded();
    const box = (await target.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    await page.mouse.down();
    await page.mouse.up();
  }

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
      // an account made by admin:create has not confirmed its age yet: the user app asks once
      await click(page, page.getByText('I confirm I am 18 or older'));
      await click(page, page.getByRole('button', { name: 'Continue' }));
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
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
});
