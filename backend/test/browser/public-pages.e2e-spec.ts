import * as fs from 'node:fs';
import * as path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { launchBrowser, mouseClick, screenshot } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';

/**
 * The public pages of the user app (issue 6, items 1-4): landing, pricing, the three legal pages
 * and the not-found page, at a 390 px phone and a 1440 px desktop, in a real browser.
 */
describe('public pages: landing, pricing, legal, not found', () => {
  // A product name and contact addresses other than the defaults: the pages must read them from configuration.
  const APP_NAME = 'Atelier Nova';
  const SUPPORT_EMAIL = 'help@atelier-nova.example';
  const BUSINESS_EMAIL = 'partners@atelier-nova.example';
  const PASSWORD = 'Velvet-Hanger-2931';
  const widths = [
    [390, 844],
    [1440, 900],
  ] as const;

  let t: TestApp;
  let browser: Browser;
  let base: string;
  let catalog: { categories: { label: string }[]; plans: { name: string; price: number }[]; packs: { credits: number; bonus: number }[] };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'frontend', 'dist', 'index.html'))) {
      throw new Error('frontend/dist is missing: run `npm run build -w frontend` (or `npm test` at the repository root)');
    }
    t = await createTestApp({ SERVE_UI: 'true', APP_NAME, SUPPORT_EMAIL, BUSINESS_EMAIL });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
    catalog = (await t.http.get('/api/catalog').expect(200)).body;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function newPage(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    contexts.push(context);
    return context.newPage();
  }

  /** Uncaught errors and console errors, except a signed-out visitor's expected 401 from the session refresh. */
  function watchErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      if (/status of 401/.test(m.text()) && /\/api\/auth\/refresh$/.test(m.location().url)) return;
      errors.push(`${m.text()} (${m.location().url})`);
    });
    return errors;
  }

  async function horizontalOverflow(page: Page): Promise<number> {
    return page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
      return doc.documentElement.scrollWidth - (globalThis as unknown as { innerWidth: number }).innerWidth;
    });
  }

  /** Scrolls every image into view (they load lazily) and answers those that failed or have no size attributes. */
  async function brokenOrUnsizedImages(page: Page): Promise<string[]> {
    // not locator.scrollIntoViewIfNeeded(): it waits for the animated video clips to stand still
    // as a person looks at each: scrolled to, and left once it has loaded (a lazy image scrolled past
    // at once may never start loading; 10 s at most each, the wait below then says which)
    await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { images: ArrayLike<{ complete: boolean; scrollIntoView(o: unknown): void }> } })
        .document;
      for (const img of Array.from(doc.images)) {
        img.scrollIntoView({ block: 'center' });
        for (let waited = 0; waited < 10_000 && !img.complete; waited += 30) await new Promise((resolve) => setTimeout(resolve, 30));
      }
    });
    await page.waitForFunction(() =>
      Array.from((globalThis as unknown as { document: { images: ArrayLike<{ complete: boolean }> } }).document.images).every(
        (img) => img.complete,
      ),
    );
    return page.evaluate(() =>
      Array.from(
        (
          globalThis as unknown as {
            document: { images: ArrayLike<{ src: string; naturalWidth: number; getAttribute(n: string): string | null }> };
          }
        ).document.images,
      )
        .filter((img) => img.naturalWidth === 0 || !img.getAttribute('width') || !img.getAttribute('height'))
        .map((img) => img.src),
    );
  }

  /** Screenshots of a settled page, from the top. */
  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await screenshot(page, name);
  }

  async function seriousAxeViolations(page: Page): Promise<string[]> {
    const results = await new AxeBuilder({ page: page as never }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  }

  const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
  describe.each(widths)('at %i px', (width, height) => {
    it('the landing page: hero, How It Works, before/after, video, features, testimonials, call to action and footer', async () => {
      const page = await newPage(width, height);
      const errors = watchErrors(page);
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
      expect(await h1(page).count()).toBe(1);
      expect(await page.title()).toBe(APP_NAME);

      // How It Works, three steps
      const steps = page.getByRole('region', { name: 'How It Works' });
      await steps.waitFor();
      for (const step of ['Upload up to 5 photos', 'Choose outfit templates', 'Get instant results']) {
        await expect(steps.getByRole('heading', { level: 3, name: step }).isVisible()).resolves.toBe(true);
      }
      // before/after: one card per catalogue category, two pictures each
      const beforeAfter = page.getByRole('region', { name: 'One photo, every category' });
      for (const { label } of catalog.categories) {
        await beforeAfter.getByRole('heading', { level: 3, name: label, exact: true }).waitFor();
        await beforeAfter.getByRole('img', { name: `${label}, before: in everyday clothes` }).waitFor();
        await beforeAfter.getByRole('img', { name: new RegExp(`^${label}, after: wearing the `) }).waitFor();
      }
      expect(await page.getByRole('region', { name: 'See the outfit move' }).getByRole('listitem').count()).toBe(4);
      expect(
        await page.getByRole('region', { name: 'Everything you need to shop with confidence' }).getByRole('heading', { level: 3 }).count(),
      ).toBe(8);
      expect(await page.getByRole('region', { name: 'Loved by people who shop online' }).getByRole('listitem').count()).toBe(3);
      const cta = page.getByRole('region', { name: 'Ready to see yourself in something new?' });
      expect(await cta.getByRole('link', { name: 'Get started free' }).getAttribute('href')).toBe('/?auth=signup');
      expect(await cta.getByRole('link', { name: 'View pricing' }).getAttribute('href')).toBe('/pricing');
      // signed out, the demo is behind the sign-up (issue 18, item 8): Create account says why
      expect(await page.getByRole('link', { name: 'Watch demo' }).getAttribute('href')).toBe('/?auth=signup&reason=demo');

      // footer
      const footer = page.getByRole('contentinfo');
      const hrefs = await footer
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href')));
      expect(hrefs).toEqual(
        expect.arrayContaining([
          '/pricing',
          '/?auth=signup&reason=demo',
          '/privacy',
          '/terms',
          '/refund',
          '/contact',
          `mailto:${SUPPORT_EMAIL}`,
          `mailto:${BUSINESS_EMAIL}`,
        ]),
      );
      expect(await footer.getByRole('link', { name: 'Contact / Report an image' }).getAttribute('href')).toBe('/contact');
      expect(await footer.getByRole('link', { name: 'Demo' }).getAttribute('href')).toBe('/?auth=signup&reason=demo');

      expect(await brokenOrUnsizedImages(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await page.getByText('Fitting Room').count()).toBe(0);
      await shot(page, `public-landing-${width}`);
      expect(errors).toEqual([]);
    });

    it('the pricing page: four plans from the catalogue, Starter most popular, four packs with bonus, the FAQ', async () => {
      const page = await newPage(width, height);
      const errors = watchErrors(page);
      await page.goto(`${base}/pricing`);
      await h1(page).waitFor();
      expect(await h1(page).count()).toBe(1);
      expect(await page.title()).toBe(`Pricing · ${APP_NAME}`);

      const plans = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: /Plan$/ }) });
      await plans.first().waitFor();
      expect(await plans.count()).toBe(4);
      const prices = await plans.evaluateAll((cards) =>
        cards.map((c) => (c as unknown as { textContent: string }).textContent.match(/\$\d+(\.\d\d)?/)?.[0]),
      );
      expect(prices).toEqual(['$0', '$4.99', '$12.99', '$29.99']);
      const popular = plans.filter({ hasText: 'Most popular' });
      expect(await popular.count()).toBe(1);
      await popular.getByRole('heading', { name: 'Starter Plan' }).waitFor();

      for (const name of ['20 credits', '70 + 5 bonus credits', '200 + 30 bonus credits', '500 + 100 bonus credits']) {
        await page.getByRole('heading', { level: 3, name, exact: true }).waitFor();
      }
      expect(catalog.packs.map((p) => (p.bonus ? `${p.credits} + ${p.bonus}` : `${p.credits}`))).toEqual([
        '20',
        '70 + 5',
        '200 + 30',
        '500 + 100',
      ]);

      // the FAQ's disclosure widgets open from the keyboard
      const faq = page.getByRole('region', { name: 'Frequently asked questions' });
      const question = faq.getByText('Do unused credits roll over?');
      await question.focus();
      await page.keyboard.press('Enter');
      await faq.getByText('unused subscription credits do not roll over').waitFor();

      // signed out: the top bar offers Log in, not the studio
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `public-pricing-${width}`);
      expect(errors).toEqual([]);
    });

    it.each([
      ['terms', 'Terms of Service'],
      ['privacy', 'Privacy Policy'],
      ['refund', 'Refund Policy'],
    ])('the /%s page: its title, the contact addresses, the product name and a way back', async (route, title) => {
      const page = await newPage(width, height);
      const errors = watchErrors(page);
      await page.goto(`${base}/${route}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await h1(page).count()).toBe(1);
      expect(await page.title()).toBe(`${title} · ${APP_NAME}`);
      const main = page.getByRole('main');
      expect(await main.getByRole('link', { name: SUPPORT_EMAIL }).first().getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
      expect(await main.getByRole('link', { name: BUSINESS_EMAIL }).getAttribute('href')).toBe(`mailto:${BUSINESS_EMAIL}`);
      expect(await main.getByText(APP_NAME).count()).toBeGreaterThan(0);
      expect(await page.getByText('Fitting Room').count()).toBe(0);
      // the brand link goes home
      expect(await page.getByRole('banner').getByRole('link', { name: APP_NAME }).getAttribute('href')).toBe('/');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `public-${route}-${width}`);
      // opened directly (no history in this tab): Back goes home
      await page.getByRole('button', { name: 'Back' }).click();
      await page.waitForURL(`${base}/`);
      expect(errors).toEqual([]);
    });

    it('an unknown route shows the not-found page with a way home', async () => {
      const page = await newPage(width, height);
      const errors = watchErrors(page);
      await page.goto(`${base}/no-such-page`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await page.title()).toBe(`Page not found · ${APP_NAME}`);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `public-not-found-${width}`);
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
      expect(errors).toEqual([]);
    });
  });

  // These pages are pre-rendered (docs/frontend-performance.md): painted from the HTML, with the app
  // started on the visitor's first intent. A click made before the app is live must still do its job.
  it('the landing page is painted without running the app, and a click made at once is not lost', async () => {
    const page = await newPage(390, 844);
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    const getStarted = page.getByRole('link', { name: 'Get started', exact: true });
    await getStarted.waitFor();
    await page.waitForTimeout(300);
    expect(await page.locator('html[data-app="ready"]').count()).toBe(0);
    // a person: the pointer to the button, press, release (the app starts on the way there)
    await mouseClick(page, getStarted);
    await page.getByRole('dialog', { name: 'Create account' }).waitFor();
    // on the landing page still: the dialog opened over it (in place, or by its server-rendered link /?auth=signup)
    expect(new URL(page.url()).pathname).toBe('/');
    expect(errors).toEqual([]);
  });

  it('a keyboard user tabbing to a link and pressing Enter on the untouched page gets there', async () => {
    const page = await newPage(1440, 900);
    await page.goto(`${base}/pricing`);
    await h1(page).waitFor();
    const terms = page.getByRole('contentinfo').getByRole('link', { name: 'Terms' });
    await terms.focus(); // as Tab would: the app starts on focus
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    // the app's own navigation: Back returns within the tab
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(`${base}/pricing`);
  });

  it('an untouched landing page starts the app on its own, 10 s after its load, so a later click finds it live', async () => {
    const page = await newPage(390, 844);
    const errors = watchErrors(page);
    const appRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/main-[\w-]+\.js$/.test(request.url())) appRequests.push(request.url());
    });
    // the page's timers on a clock this test moves, stopped meanwhile (a slow machine's load takes real
    // seconds); no input reaches the page
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.goto(`${base}/`);
    await h1(page).waitFor();
    await page.clock.runFor(9_000);
    await page.waitForTimeout(500); // real time, for a start the timers would have begun
    expect(appRequests).toEqual([]);
    expect(await page.locator('html[data-app="ready"]').count()).toBe(0);
    await page.clock.resume();
    await page.clock.runFor(4_000); // the 10 s, then at most 2 s for the browser's idle time
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
    expect(errors).toEqual([]);
  });

  it('the legal pages state every claim of the landing page and the safety rules', async () => {
    const page = await newPage(1440, 900);
    const text = async (route: string) => {
      await page.goto(`${base}/${route}`);
      await h1(page).waitFor();
      return (await page.getByRole('main').innerText()).replace(/\s+/g, ' ');
    };
    const all = (await text('terms')) + (await text('privacy')) + (await text('refund'));
    const claims: [string, RegExp][] = [
      ['minimum age 18', /at least 18 years old/],
      ['purchases final', /final and non-refundable/],
      ['billing errors within 7 days', /within 7 days/],
      ['outage compensation after 48 hours', /unavailable for more than 48 hours[^.]*credits/],
      ['inactive uploads deleted after 30 days', /not been used in a generation for 30 days are deleted/],
      ['account deletion', /Delete All My Data[^.]*immediately/],
      ['deletion on request within 30 days', /personal data within 30 days of your request/],
      ['EU withdrawal waived once used', /lose the 14-day right of withdrawal once the service has been used/],
      ['Australian law', /governed by the laws of Australia/],
      ['free plan: watermarked, not blurred', /Free plan[^.]*visible watermark[^.]*not blurred/],
      ['30-day price change notice', /at least 30 days (before|in advance)/],
      ['liability limited to 12 months', /paid us in the 12 months/],
      ['support answers within 24-48 hours', /within 24-48 hours/],
      ['monthly reset without rollover', /reset monthly[^.]*do not roll over/],
      ['packs never expire', /credit packs? never expire/i],
      ['cancel keeps access until period end', /keeps your access[^.]*until the end of the current billing period/],
      ['no nudity', /do not create nude or sexually explicit images/],
      ['own photos only', /Upload only photos of yourself/],
      ['report an image', /Contact \/ Report an image/],
      ['photos private', /never published/],
    ];
    expect(claims.filter(([, pattern]) => !pattern.test(all)).map(([claim]) => claim)).toEqual([]);
  });

  it('Back on a legal page returns to the page before it', async () => {
    const page = await newPage(1440, 900);
    await page.goto(`${base}/pricing`);
    await h1(page).waitFor();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms' }).click();
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(`${base}/pricing`);
  });

  it('a signed-out visitor choosing a plan or a pack goes through /try to the landing page', async () => {
    const page = await newPage(390, 844);
    await page.goto(`${base}/pricing`);
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await page.goto(`${base}/pricing`);
    await page.getByRole('button', { name: 'Buy 75 credits' }).click();
    await page.waitForURL(`${base}/`);
  });

  it('a signed-in user sees the studio link and "Stripe integration coming soon!" for a plan and a pack', async () => {
    const email = `pricing-${Date.now().toString(36)}@example.com`;
    await t.http
      .post('/api/auth/sign-up')
      .send({ full_name: 'Pricing Person', email, password: PASSWORD, age_confirmed: true })
      .expect(201);
    const page = await newPage(1440, 900);
    const errors = watchErrors(page);
    await page.goto(`${base}/?auth=login`);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByLabel(/^Email( \*)?$/).fill(email);
    await dialog.getByLabel(/^Password( \*)?$/).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/generations`);

    await page.goto(`${base}/pricing`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Open studio' }).getAttribute('href')).toBe('/try');
    expect(await nav.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    // a free user's own plan is marked, the others offer checkout
    await page.getByRole('button', { name: 'Your current plan' }).waitFor();
    await page.getByRole('button', { name: 'Choose Glow Up' }).click();
    const toast = page.getByText('Stripe integration coming soon!', { exact: true });
    await toast.waitFor();
    expect(page.url()).toBe(`${base}/pricing`);
    await screenshot(page, 'public-pricing-signed-in-coming-soon');
    await page.getByRole('button', { name: 'Buy 230 credits' }).click();
    await toast.waitFor();
    expect(await toast.count()).toBe(1);
    expect(page.url()).toBe(`${base}/pricing`);
    expect(errors).toEqual([]);
  });

  it.each([
    ['landing', '/'],
    ['pricing', '/pricing'],
  ])('axe finds no serious or critical violation on the %s page (390 and 1440 px)', async (_name, route) => {
    for (const [width, height] of widths) {
      const page = await newPage(width, height);
      await page.goto(`${base}${route}`);
      await h1(page).waitFor();
      await page.getByRole('contentinfo').waitFor();
      await page.waitForLoadState('networkidle');
      expect({ width, violations: await seriousAxeViolations(page) }).toEqual({ width, violations: [] });
    }
  });

  it('keyboard users reach the landing page actions with a visible focus ring', async () => {
    const page = await newPage(1440, 900);
    await page.goto(`${base}/`);
    await h1(page).waitFor();
    const focused: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement;
        if (!el) return null;
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string; boxShadow: string } }
        ).getComputedStyle(el);
        const visible = (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
        return { text: el.textContent.trim(), visible };
      });
      if (info) focused.push(`${info.text}:${info.visible}`);
    }
    for (const label of ['Pricing', 'Log in', 'Sign up', 'Get started', 'Watch demo']) expect(focused).toContain(`${label}:true`);
  });

  it('serves a "before" picture beside every template picture', async () => {
    const templates: { id: string }[] = (await t.http.get('/api/catalog').expect(200)).body.templates;
    for (const { id } of templates) {
      const before = await t.http.get(`/api/catalog/artwork/before-${id}.svg`).expect(200);
      expect(before.headers['content-type']).toContain('image/svg+xml');
    }
    await t.http.get('/api/catalog/artwork/before-does-not-exist.svg').expect(404);
  });
});
