import { DataSource } from 'typeorm';
import { AuthMessages } from '../../src/modules/auth/auth-messages';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { launchBrowser } from '../helpers/browser';
import { createAccount, horizontalOverflow, shot, signedInContext, startUserApp, watchErrors } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Page } from 'playwright-core';

interface Catalogue {
  categories: { id: string; slug: string; label: string; path: string }[];
  plans: { id: string; name: string; displayName: string; features: string[] }[];
}

interface FocusStyle {
  tag: string;
  text: string;
  outlineStyle: string;
  outlineWidth: string;
  boxShadow: string;
}

/**
 * The signed-in app beyond its routes (issue 6): Delete All My Data, the subscription screen of the
 * top tier, the error screen as an error boundary, and keyboard use of the shell.
 */
describe('the dashboard: account deletion, the top tier, the error screen, toasts and the keyboard', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let catalogue: Catalogue;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp());
    browser = await launchBrowser();
    catalogue = (await t.http.get('/api/catalog').expect(200)).body as Catalogue;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function pageFor(account: Awaited<ReturnType<typeof createAccount>>, width = 1440, height = 900): Promise<Page> {
    const context = await signedInContext(browser, t, base, account, { width, height });
    contexts.push(context);
    return context.newPage();
  }

  it('deletes the account and all its data once DELETE is typed and the password re-checked, ends the session and lands on / with a toast', async () => {
    const account = await createAccount(t, 'delete-me', 'Delete Tester');
    const page = await pageFor(account, 390, 844);
    const errors = watchErrors(page);

    await page.goto(`${base}/dashboard/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Delete All My Data' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete all your data?' });
    await dialog.getByText('This action cannot be undone.', { exact: false }).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete everything' });
    const word = dialog.getByLabel(/Type DELETE to confirm/);

    // Cancel has the focus; the button stays off until the exact word is typed.
    expect(
      await dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
    ).toBe(true);
    expect(await confirm.isDisabled()).toBe(true);
    await word.fill('delete');
    expect(await confirm.isDisabled()).toBe(true);
    await word.fill('DELETE');
    // and the person proves it is them: the password
    const secret = dialog.getByLabel('Your password');
    expect(await confirm.isDisabled()).toBe(true);
    await secret.fill(account.password);
    expect(await confirm.isEnabled()).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'dashboard-delete-account-390');

    // Cancel keeps everything; then delete for real.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await t.http.post('/api/auth/sign-in').send({ email: account.email, password: account.password })).status).toBe(200);

    await page.getByRole('button', { name: 'Delete All My Data' }).click();
    await word.fill('DELETE');
    // a wrong password deletes nothing, and the dialog stays
    await secret.fill('not-my-password-at-all');
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me' && r.request().method() === 'DELETE');
    await confirm.click();
    expect((await refused).status()).toBeGreaterThanOrEqual(400);
    await dialog.getByText(AuthMessages.wrongPassword).waitFor();
    expect((await t.app.get(DataSource).query(`SELECT id FROM users WHERE id = $1`, [account.userId])).length).toBe(1);
    await secret.fill(account.password);
    const deleted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me' && r.request().method() === 'DELETE');
    await confirm.click();
    expect((await deleted).status()).toBe(204);
    await page.waitForURL(`${base}/`);
    await page.getByText('Your account and all its data have been deleted').waitFor();
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await shot(page, 'dashboard-account-deleted-390');

    // The account is gone: no sign-in, and this browser is signed out.
    expect((await t.http.post('/api/auth/sign-in').send({ email: account.email, password: account.password })).status).toBe(401);
    const users = await t.app.get(DataSource).query(`SELECT id FROM users WHERE id = $1`, [account.userId]);
    expect(users).toEqual([]);
    await page.goto(`${base}/dashboard/settings`);
    await page.waitForURL((url) => url.pathname === '/');
    // but the wrong password's refusal, expected
    expect(errors.filter((e) => !/status of 400 .*\/api\/me\)$/.test(e))).toEqual([]);
  });

  it('shows the top tier its plan without Upgrade Plan, and every template unlocked', async () => {
    const account = await createAccount(t, 'model-mode');
    const top = catalogue.plans.at(-1)!;
    await t.app.get(DataSource).query(`UPDATE users SET tier = $2 WHERE id = $1`, [account.userId, top.id]);
    // Credits from a pack (an admin's grant lands in the same bucket): shown apart from the plan's.
    await t.app
      .get(CreditsService)
      .adjust({ userId: account.userId, mode: 'add', amount: 25, reason: 'test grant', actorId: account.userId });
    const page = await pageFor(account);
    const errors = watchErrors(page);

    await page.goto(`${base}/dashboard/subscription`);
    await page.getByRole('heading', { name: top.displayName }).waitFor();
    const includes = page.getByRole('region', { name: 'Your Plan Includes' });
    for (const feature of top.features) await includes.getByText(feature, { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade Plan' }).count()).toBe(0);
    const stat = (label: string) =>
      page
        .locator('dl', { has: page.getByText(label, { exact: true }) })
        .locator('dd')
        .first();
    expect(await stat('Credits remaining').textContent()).toBe('28');
    expect(await stat('Plan credits').textContent()).toBe('3');
    expect(await stat('Pack credits').textContent()).toBe('25');
    await page.getByText('Purchased; never expire', { exact: true }).waitFor();
    await shot(page, 'dashboard-subscription-top-tier-1440');

    const spicy = catalogue.categories.find((c) => c.id === 'spicy')!;
    await page.goto(`${base}${spicy.path}`);
    await page.getByRole('heading', { level: 1, name: spicy.label }).waitFor();
    await page.getByText(`Tier: ${top.name}`, { exact: true }).waitFor();
    const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
    await templates.first().waitFor();
    expect(await templates.filter({ hasText: 'Locked' }).count()).toBe(0);
    expect(await page.getByText(/locked templates? •/).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows "Something went wrong" when a screen fails, and Try Again brings the screen back', async () => {
    const account = await createAccount(t, 'boundary');
    const page = await pageFor(account);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    // A catalogue the screen cannot read (as from a broken deployment): the screen throws.
    await page.route('**/api/catalog', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await page.goto(`${base}/dashboard/bikini`);
    await page.getByRole('heading', { level: 1, name: 'Something went wrong' }).waitFor();
    await page.getByText('We apologize for the inconvenience. An unexpected error occurred.').waitFor();
    await shot(page, 'dashboard-error-screen-1440');

    // Try Again: the error state clears and the screen loads its data afresh.
    await page.unroute('**/api/catalog');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await page.getByRole('heading', { name: 'Choose a Template' }).waitFor();
    expect(page.url()).toBe(`${base}/dashboard/bikini`);
    expect(await page.getByText('Something went wrong').count()).toBe(0);

    // Go Home goes to /.
    await page.route('**/api/catalog', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await page.goto(`${base}/dashboard/dress`);
    await page.getByRole('heading', { level: 1, name: 'Something went wrong' }).waitFor();
    await page.unroute('**/api/catalog'); // the landing page reads the catalogue too
    await page.getByRole('button', { name: 'Go Home' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    expect(pageErrors).toEqual([]); // the boundary caught it: nothing escaped to the window
  });

  it('shows one toast at a time, the newest, and keeps it up longer than a glance', async () => {
    const account = await createAccount(t, 'toasts');
    const page = await pageFor(account);
    const toasts = page.locator('[data-scope="toast"][data-part="root"]');

    await page.goto(`${base}/dashboard/settings`);
    await page.getByRole('button', { name: 'Save All Settings' }).click();
    await page.getByText('Settings saved successfully').waitFor();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully').waitFor();
    await page.getByText('Settings saved successfully').waitFor({ state: 'detached' });
    expect(await toasts.count()).toBe(1);

    // Still there after 7 s (a default toast would be gone after 5 s).
    await page.waitForTimeout(7_000);
    expect(await page.getByText('Profile updated successfully').isVisible()).toBe(true);
  });

  it('can be used with the keyboard: a skip link first, then the sidebar, each with a visible focus ring', async () => {
    const account = await createAccount(t, 'keyboard');
    const page = await pageFor(account);
    await page.goto(`${base}/dashboard/generations`);
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();

    const focused = () =>
      page.evaluate((): FocusStyle => {
        const g = globalThis as unknown as {
          document: { activeElement: { tagName: string; textContent: string | null } | null };
          getComputedStyle(el: unknown): { outlineStyle: string; outlineWidth: string; boxShadow: string };
        };
        const el = g.document.activeElement!;
        const style = g.getComputedStyle(el);
        return {
          tag: el.tagName,
          text: (el.textContent ?? '').trim(),
          outlineStyle: style.outlineStyle,
          outlineWidth: style.outlineWidth,
          boxShadow: style.boxShadow,
        };
      });
    const visibleRing = (s: FocusStyle) => (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';

    await page.keyboard.press('Tab');
    const skip = await focused();
    expect(skip.text).toBe('Skip to content');
    expect(visibleRing(skip)).toBe(true);

    const reached: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press('Tab');
      const now = await focused();
      expect({ element: now.text, ring: visibleRing(now) }).toEqual({ element: now.text, ring: true });
      reached.push(now.text);
      if (now.text === 'Sign Out') break;
    }
    for (const label of ['All Generations', 'Bikini', 'Spicy', 'Profile', 'Subscription', 'Settings', 'Contact support', 'Sign Out']) {
      expect(reached).toContain(label);
    }

    // Enter follows a focused link.
    const settingsLink = page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Settings' });
    await settingsLink.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  });
});
