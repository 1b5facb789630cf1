import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import type { TestApp } from '../helpers/test-app';
import { type Account, createAccount, signedInContext, startUserApp, VIEWPORTS, watchErrors } from '../helpers/user-app';

/** A violation as a line a person can act on: rule, impact, and where. */
interface Finding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core (through @axe-core/playwright, which drives playwright-core's Page) on the screens the
 * issue names: landing, pricing, a category screen and All Generations, plus the account screens.
 * No violation of impact serious or critical, on a phone and on a desktop.
 */
describe('accessibility of the user app (axe)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let account: Account;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp());
    browser = await launchBrowser();
    account = await createAccount(t, 'axe');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function seriousFindings(page: Page): Promise<Finding[]> {
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }

  /** Waits until the screen has its content (not a spinner), with animations finished. */
  async function settle(page: Page, ready: () => Promise<unknown>): Promise<void> {
    await ready();
    await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown>; effect: { getTiming(): { iterations: number } } | null }[] } }).document;
      const ending = doc.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
      await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    });
  }

  describe.each(VIEWPORTS)('at $width px', (viewport) => {
    it('finds nothing serious on the landing, pricing, legal and not-found pages', async () => {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);

      await page.goto(`${base}/`);
      await settle(page, () => page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor());
      expect({ page: '/', findings: await seriousFindings(page) }).toEqual({ page: '/', findings: [] });

      await page.goto(`${base}/pricing`);
      await settle(page, () => page.getByText('Most popular', { exact: true }).waitFor());
      expect({ page: '/pricing', findings: await seriousFindings(page) }).toEqual({ page: '/pricing', findings: [] });

      for (const path of ['/terms', '/privacy', '/refund', '/no-such-page']) {
        await page.goto(`${base}${path}`);
        await settle(page, () => page.locator('h1').first().waitFor());
        expect({ page: path, findings: await seriousFindings(page) }).toEqual({ page: path, findings: [] });
      }
      expect(errors).toEqual([]);
    });

    it('finds nothing serious on a category screen, All Generations and the account screens', async () => {
      const context = await signedInContext(browser, t, base, account, viewport);
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);

      const screens: [string, () => Promise<unknown>][] = [
        ['/dashboard/bikini', () => page.getByRole('heading', { level: 2, name: 'Your Bikini Generations' }).waitFor().then(() => page.getByText('Your Bikini Generations').waitFor())],
        ['/dashboard/generations', () => page.getByText('No generations yet. Start creating in any category!').waitFor()],
        ['/dashboard/subscription', () => page.getByRole('heading', { name: 'Your Plan Includes' }).waitFor()],
        ['/dashboard/settings', () => page.getByRole('button', { name: 'Save All Settings' }).waitFor()],
        ['/dashboard/profile', () => page.getByRole('button', { name: 'Save Changes' }).waitFor()],
      ];
      for (const [path, ready] of screens) {
        await page.goto(`${base}${path}`);
        await settle(page, ready);
        expect({ page: path, findings: await seriousFindings(page) }).toEqual({ page: path, findings: [] });
      }

      // A picked template shows the generate panel; and the upgrade dialog of a locked one.
      await page.goto(`${base}/dashboard/bikini`);
      const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
      await templates.filter({ hasNotText: 'Locked' }).first().getByRole('button').click();
      await settle(page, () => page.getByRole('heading', { name: 'Generate Your Look' }).waitFor());
      expect({ page: 'generate panel', findings: await seriousFindings(page) }).toEqual({ page: 'generate panel', findings: [] });
      await templates.filter({ hasText: 'Locked' }).first().getByRole('button').first().click();
      await settle(page, () => page.getByRole('dialog').getByText('Cancel anytime • No hidden fees • Instant access').waitFor());
      expect({ page: 'upgrade dialog', findings: await seriousFindings(page) }).toEqual({ page: 'upgrade dialog', findings: [] });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });

      // The confirm dialog of Delete All My Data, and (on a phone) the menu drawer.
      await page.goto(`${base}/dashboard/settings`);
      await page.getByRole('button', { name: 'Delete All My Data' }).click();
      await settle(page, () => page.getByRole('alertdialog').getByText(/Type DELETE to confirm/).waitFor());
      expect({ page: 'delete dialog', findings: await seriousFindings(page) }).toEqual({ page: 'delete dialog', findings: [] });
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
      if (viewport.width < 1024) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await settle(page, () => page.getByRole('dialog', { name: 'Menu' }).waitFor());
        expect({ page: 'menu', findings: await seriousFindings(page) }).toEqual({ page: 'menu', findings: [] });
      }
      expect(errors).toEqual([]);
    });
  });
});
