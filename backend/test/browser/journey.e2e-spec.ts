import AxeBuilder from '@axe-core/playwright';
import { launchBrowser } from '../helpers/browser';
import {
  confirmEmailFromOutbox,
  horizontalOverflow,
  pickFreeTemplate,
  shot,
  signUpInDialog,
  startUserApp,
  uploadPhotoAndGenerate,
  VERIFY_BANNER,
  waitForImage,
  watchErrors,
} from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext } from 'playwright-core';

interface Catalogue {
  plans: { id: string; name: string; price: number }[];
  templates: { category: string; name: string }[];
}

/**
 * A newcomer's first visit, as one person clicks it (issue 6, "done when"): the landing page, Get
 * started, sign-up, the mailed link that confirms the address, a category, a locked template's upgrade dialog, pricing and its coming-soon
 * checkout, back to a free template, a generation with the `preview` provider, the result in All
 * Generations, and Sign Out.
 */
describe("a newcomer's journey through the user app", () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ AI_POLL_INTERVAL_MS: '200' }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('goes from the landing page to a first look in All Generations, and signs out', async () => {
    const catalogue = (await t.http.get('/api/catalog').expect(200)).body as Catalogue;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);

    // The landing page; Get started opens the sign-up dialog.
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await page
      .getByRole('main')
      .getByRole('button', { name: 'Get started', exact: true })
      .or(page.getByRole('main').getByRole('link', { name: 'Get started', exact: true }))
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Create account' }).waitFor();
    await shot(page, 'journey-1-sign-up');
    const email = await signUpInDialog(page, base, 'Nora Newcomer', 'journey');

    // Signed in, the address not confirmed yet: the banner says where the link went. She opens it.
    const banner = page.getByRole('region', { name: VERIFY_BANNER });
    await banner.getByText(email).waitFor();
    await confirmEmailFromOutbox(page, t, email);
    await page.getByRole('link', { name: 'Continue to your dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    expect(await banner.count()).toBe(0);

    // A category.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Bikini' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
    await templates.first().waitFor();
    await shot(page, 'journey-2-category');

    // A locked template opens the upgrade dialog; "Upgrade to <tier>" goes to /pricing.
    const starter = catalogue.plans.find((p) => p.id === 'starter')!;
    const locked = templates.filter({ hasText: `Requires: ${starter.name}` }).first();
    await locked.getByRole('button').first().click();
    const upgrade = page.getByRole('dialog');
    await upgrade.getByText(`This template requires ${starter.name} or higher to access`).waitFor();
    await shot(page, 'journey-3-upgrade-dialog');
    await upgrade.getByRole('link', { name: `Upgrade to ${starter.name}` }).click();
    await page.waitForURL(`${base}/pricing`);
    await page.getByText('Most popular', { exact: true }).waitFor();

    // The plan's button: checkout is not built, and the alert says so.
    await page.getByRole('button', { name: `Choose ${starter.name}` }).click();
    await page.getByText('Stripe integration coming soon!').waitFor();
    await shot(page, 'journey-4-pricing-coming-soon');

    // Back to the category, and a free template.
    await page.goBack();
    await page.waitForURL(`${base}/dashboard/bikini`);
    await pickFreeTemplate(page);

    // A photo, the 18+ confirmation, a pose, Generate Image.
    await uploadPhotoAndGenerate(page);
    const results = page.getByRole('list', { name: 'Your Bikini Generations' });
    await results.getByRole('article').first().waitFor({ timeout: 30_000 });
    await page.getByText('Credits: 2').waitFor();
    await shot(page, 'journey-5-result');

    // The result in All Generations, with its type and category; the screen is still accessible.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Generations' }).click();
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(1);
    await cards.first().getByText('Image', { exact: true }).waitFor();
    // titled with the outfit's name: one of Bikini's outfits
    const resultTitle = (await cards.first().locator('[data-result-title]').textContent())?.trim();
    expect(catalogue.templates.filter((o) => o.category === 'bikini').map((o) => o.name)).toContain(resultTitle);
    await waitForImage(page, cards.first().getByRole('img'));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'journey-6-all-generations');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // Sign Out lands on /, and the dashboard is closed to this browser.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await page.goto(`${base}/dashboard/generations`);
    await page.waitForURL(`${base}/`);

    expect(errors).toEqual([]);
  });
});
