import { bearer } from '../helpers/auth';
import { launchBrowser } from '../helpers/browser';
import {
  type Account,
  createAccount,
  horizontalOverflow,
  shot,
  signedInContext,
  startUserApp,
  VIEWPORTS,
  watchErrors,
} from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Page } from 'playwright-core';

interface Catalogue {
  categories: { id: string; slug: string; label: string; path: string; templateIds: string[] }[];
  templates: { id: string; locked: boolean }[];
  plans: { id: string; name: string; displayName: string; description: string; features: string[] }[];
}

/**
 * Every route of the product's route table (docs/product.md), visited in a real browser at
 * a phone's and a desktop's width: the product's texts on each screen, one h1, nothing wider than the
 * screen, a screenshot of each (test-output/screenshots/routes-*.png), and the redirects with their
 * history entries replaced.
 */
describe('every route of the user app, at 390 px and 1440 px', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let account: Account;
  let catalogue: Catalogue;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp());
    browser = await launchBrowser();
    account = await createAccount(t, 'routes');
    // What a free account is offered: the expected texts come from the catalogue, never copied here.
    catalogue = (await t.http.get('/api/catalog').set(bearer(account.accessToken)).expect(200)).body as Catalogue;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const plan = (id: string) => catalogue.plans.find((p) => p.id === id)!;

  /** What every screen must be: one h1, no sideways scrolling; and its screenshot. */
  async function checkScreen(page: Page, name: string, width: number): Promise<void> {
    await page.locator('h1').first().waitFor();
    expect(await page.locator('h1').count()).toBe(1);
    await page.waitForTimeout(100); // lazy images and fonts settle
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, `routes-${name}-${width}`);
  }

  const historyLength = (page: Page) => page.evaluate(() => (globalThis as unknown as { history: { length: number } }).history.length);

  async function visit(page: Page, path: string): Promise<void> {
    await page.goto(`${base}${path}`);
  }

  describe.each(VIEWPORTS)('at $width px', (viewport) => {
    const { width } = viewport;

    it('shows the public pages, the not-found page, and sends a signed-out visitor away from a protected screen', async () => {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);

      // Landing: the hero and the footer's links.
      await visit(page, '/');
      await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
      const footer = page.locator('footer');
      // signed out, Demo opens Create account (the demo screen itself needs an account)
      for (const href of ['/pricing', '/?auth=signup&reason=demo', '/privacy', '/terms', '/refund']) {
        expect(await footer.locator(`a[href="${href}"]`).count()).toBeGreaterThanOrEqual(1);
      }
      const { supportEmail, businessEmail } = t.config.contact;
      for (const address of [supportEmail, businessEmail]) {
        expect(await footer.locator(`a[href="mailto:${address}"]`).count()).toBeGreaterThanOrEqual(1);
      }
      await checkScreen(page, 'landing', width);

      // Pricing: the catalogue's four plans, Starter marked Most popular.
      await visit(page, '/pricing');
      await page.getByText('Most popular', { exact: true }).waitFor();
      for (const p of catalogue.plans) await page.getByText(p.displayName, { exact: true }).first().waitFor();
      await checkScreen(page, 'pricing', width);

      // The legal pages: a brand link to / and a Back button.
      for (const path of ['/terms', '/privacy', '/refund']) {
        await visit(page, path);
        await page.locator('h1').first().waitFor();
        expect(await page.locator('a[href="/"]').count()).toBeGreaterThanOrEqual(1);
        await page
          .getByRole('button', { name: /Back/ })
          .or(page.getByRole('link', { name: /Back/ }))
          .first()
          .waitFor();
        await checkScreen(page, path.slice(1), width);
      }

      // The pages mailed links open. A link that is not (or no longer) valid gets the server's message.
      await visit(page, '/verify-email?token=not-a-real-token');
      await page.getByRole('heading', { level: 1, name: 'Confirm your email address' }).waitFor();
      await page.getByRole('alert').filter({ hasText: 'This link is invalid or has expired. Please ask for a new one.' }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Log in' }).waitFor();
      await checkScreen(page, 'verify-email-dead-link', width);
      await visit(page, '/reset-password?token=not-a-real-token');
      await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
      await page.getByLabel(/^New password/).waitFor();
      await page.getByLabel(/^Confirm new password/).waitFor();
      await checkScreen(page, 'reset-password', width);
      await visit(page, '/unsubscribe?token=not-a-real-token');
      await page.getByRole('heading', { level: 1, name: 'Unsubscribe' }).waitFor();
      await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
      await checkScreen(page, 'unsubscribe', width);

      // An unknown route: a not-found page with a way home.
      await visit(page, '/no-such-page');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('main a[href="/"]').count()).toBeGreaterThanOrEqual(1);
      await checkScreen(page, 'not-found', width);

      // A protected screen while signed out: back to /, the protected URL replaced in the history.
      await visit(page, '/');
      const before = await historyLength(page);
      await visit(page, '/dashboard/settings');
      await page.waitForURL(`${base}/`);
      await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
      expect(await historyLength(page)).toBe(before + 1);
      await checkScreen(page, 'signed-out-guard', width);

      // the dead verification link's 400 is the page's subject, not a failure
      expect(errors.filter((e) => !/status of 400 .*\/api\/auth\/verify-email\)$/.test(e))).toEqual([]);
    });

    it('shows every signed-in screen with the spec texts, and redirects /try, /app and /dashboard in place', async () => {
      const context = await signedInContext(browser, t, base, account, viewport);
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const phone = width < 1024;

      /** The sidebar (in the menu drawer on a phone): every link, and the current one marked. */
      async function checkNavigation(current: string, name: string): Promise<void> {
        if (phone) {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await page.getByRole('dialog', { name: 'Menu' }).waitFor();
        }
        const main = page.getByRole('navigation', { name: 'Dashboard' });
        const accountNav = page.getByRole('navigation', { name: 'Account' });
        const links: [ReturnType<Page['getByRole']>, string, string][] = [
          [main, 'All Generations', '/dashboard/generations'],
          // each category by its one name, the catalogue's (the header's too)
          ...['Active Wear', 'Dresses', 'Pajamas', 'Bikini', 'Lingerie', 'Spicy'].map(
            (label): [ReturnType<Page['getByRole']>, string, string] => [
              main,
              label,
              catalogue.categories.find((c) => c.label === label)!.path,
            ],
          ),
          [accountNav, 'Profile', '/dashboard/profile'],
          [accountNav, 'Subscription', '/dashboard/subscription'],
          [accountNav, 'Settings', '/dashboard/settings'],
        ];
        for (const [nav, label, href] of links) {
          const link = nav.getByRole('link', { name: label, exact: true });
          expect(await link.getAttribute('href')).toBe(href);
          expect(await link.getAttribute('aria-current')).toBe(href === current ? 'page' : null);
        }
        expect(await page.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/contact');
        await page.getByRole('button', { name: 'Sign Out' }).waitFor();
        if (phone) {
          await shot(page, `routes-${name}-menu-${width}`);
          await page.keyboard.press('Escape');
          await page.getByRole('dialog', { name: 'Menu' }).waitFor({ state: 'hidden' });
        }
      }

      // /try, /app and /dashboard land on All Generations without leaving themselves in the history.
      await visit(page, '/dashboard/profile');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      for (const path of ['/try', '/app', '/dashboard']) {
        await visit(page, path);
        await page.waitForURL(`${base}/dashboard/generations`);
        await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
        // Back returns to the screen before, not to the redirecting URL (which would redirect again).
        await page.goBack();
        await page.waitForURL(`${base}/dashboard/profile`);
        await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      }

      // All Generations: the empty state.
      await visit(page, '/dashboard/generations');
      await page.getByText('No generations yet. Start creating in any category!').waitFor();
      await checkScreen(page, 'generations', width);
      await checkNavigation('/dashboard/generations', 'generations');

      // The six category screens.
      const free = plan('free');
      for (const category of catalogue.categories) {
        await visit(page, category.path);
        await page.getByRole('heading', { level: 1, name: category.label }).waitFor();
        await page.getByText('Credits: 3', { exact: true }).waitFor();
        await page.getByText(`Tier: ${free.name}`, { exact: true }).waitFor();
        await page.getByRole('heading', { level: 2, name: 'Choose a Template' }).waitFor();
        const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
        await templates.first().waitFor();
        expect(await templates.count()).toBe(category.templateIds.length);
        const locked = category.templateIds.filter((id) => catalogue.templates.find((tpl) => tpl.id === id)?.locked).length;
        expect(await templates.filter({ hasText: 'Locked' }).count()).toBe(locked);
        if (locked > 0) await page.getByText(`${locked} locked templates • Upgrade to unlock more options`).waitFor();
        await page.getByRole('heading', { level: 2, name: `Your ${category.label} Generations` }).waitFor();
        await checkScreen(page, `category-${category.slug}`, width);
        if (!phone) await checkNavigation(category.path, `category-${category.slug}`);
      }

      // Profile.
      await visit(page, '/dashboard/profile');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      await page.getByText('Email cannot be changed from this page').waitFor();
      await page.getByRole('button', { name: 'Save Changes' }).waitFor();
      await checkScreen(page, 'profile', width);

      // Subscription: the plan, its credits and features from the catalogue, Upgrade Plan, Billing.
      await visit(page, '/dashboard/subscription');
      await page.getByRole('heading', { level: 1, name: 'Subscription' }).waitFor();
      await page.getByRole('heading', { name: free.displayName }).waitFor();
      await page.getByText(free.description).waitFor();
      for (const label of ['Credits remaining', 'Plan credits', 'Pack credits']) await page.getByText(label, { exact: true }).waitFor();
      const includes = page.getByRole('region', { name: 'Your Plan Includes' });
      for (const feature of free.features) await includes.getByText(feature, { exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/pricing');
      await page.getByRole('heading', { name: 'Billing' }).waitFor();
      expect(await page.getByRole('button', { name: 'Update Payment Method' }).isDisabled()).toBe(true);
      await page.getByText(/Checkout is coming soon/).waitFor();
      await checkScreen(page, 'subscription', width);
      await checkNavigation('/dashboard/subscription', 'subscription');

      // Settings: the toggles; Delete All My Data, Change Password and two-factor all work.
      await visit(page, '/dashboard/settings');
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      for (const toggle of ['Email Notifications', 'Generation Notifications', 'Marketing Emails']) {
        await page.getByRole('switch', { name: toggle }).waitFor({ state: 'attached' });
      }
      await page.getByRole('button', { name: 'Save All Settings' }).waitFor();
      for (const action of ['Delete All My Data', 'Change Password', 'Turn on two-factor authentication']) {
        expect(await page.getByRole('button', { name: action }).isEnabled()).toBe(true);
      }
      expect(await page.getByRole('button', { name: 'Turn off two-factor authentication' }).isVisible()).toBe(false);
      await checkScreen(page, 'settings', width);

      // An unknown route while signed in is still the not-found page.
      await visit(page, '/dashboard/no-such-screen');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('main a[href="/"]').count()).toBeGreaterThanOrEqual(1);

      expect(errors).toEqual([]);
    });
  });
});
