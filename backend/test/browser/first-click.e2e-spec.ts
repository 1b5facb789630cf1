import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { launchBrowser } from '../helpers/browser';
import { buildDevelopmentUserApp, type FolderServer, serveUserAppFolder } from '../helpers/dev-user-app';
import { shot, startUserApp, watchErrors } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

interface Trigger {
  label: 'Log in' | 'Sign up' | 'Get started';
  /** the dialog's accessible name, and the `?auth=` it puts in the address */
  dialog: 'Log in' | 'Create account';
  search: '?auth=login' | '?auth=signup';
  find(page: Page): Locator;
}

const TRIGGERS: Trigger[] = [
  {
    label: 'Log in',
    dialog: 'Log in',
    search: '?auth=login',
    find: (p) => p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true }),
  },
  {
    label: 'Sign up',
    dialog: 'Create account',
    search: '?auth=signup',
    find: (p) => p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up', exact: true }),
  },
  {
    label: 'Get started',
    dialog: 'Create account',
    search: '?auth=signup',
    find: (p) => p.getByRole('main').getByRole('link', { name: 'Get started', exact: true }),
  },
];

/**
 * The dialog must open after the click or the key (the landing page is pre-rendered and its app
 * starts on the visitor's first intent, docs/frontend-performance.md: about 1.1 s on this 2-core
 * machine, more on a loaded one, so the wait for it is generous), then stay open at every check over
 * the next 1.5 s (ms after it opened).
 */
const OPEN_WITHIN_MS = 15_000;
const STAYS_OPEN_MS = [0, 300, 600, 900, 1200, 1500];

/**
 * The first click on a freshly loaded landing page opens the auth dialog, and it stays open. On a
 * development build (React StrictMode mounts twice) Zag's dismissable layer used to keep the first,
 * discarded content node: the focus moving into the live dialog counted as "outside" and the dialog
 * closed about 200 ms after a real click (frontend/src/components/useOutsideDismissGuard.ts).
 * Real input only: the mouse moved onto the link and pressed, or Tab to the link and Enter.
 */
describe('the first click on the landing page opens the auth dialog, and it stays open', () => {
  let t: TestApp;
  let browser: Browser;
  let production: string;
  let development: FolderServer | undefined;
  let devDir: string | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base: production } = await startUserApp());
    browser = await launchBrowser();
    devDir = await buildDevelopmentUserApp();
    development = await serveUserAppFolder(devDir, production);
    // Each server has sent its app once before the measured visits, as a running server has: the
    // first request of each file compresses it. Each visit below is a new browser context (no cache).
    for (const base of [production, development.base]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/`);
      await page.mouse.move(10, 10);
      await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
      await context.close();
    }
  }, 300_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await development?.close();
    if (devDir) fs.rmSync(devDir, { recursive: true, force: true });
    await t?.close();
  });

  it('serves a real development build (React development: StrictMode active) for the development runs', () => {
    const code = (dir: string) =>
      fs
        .readdirSync(path.join(dir, 'assets'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => fs.readFileSync(path.join(dir, 'assets', f), 'utf8'))
        .join('\n');
    // React's development JSX runtime (jsxDEV, owner stacks) is in the development build only.
    const marker = 'react-stack-top-frame';
    expect(code(devDir!).includes(marker)).toBe(true);
    expect(code(path.join(REPO_ROOT, 'frontend', 'dist')).includes(marker)).toBe(false);
  });

  /** A fresh visitor on `/`, the page loaded and settled (the hero's heading painted). */
  async function freshLanding(base: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await page.waitForTimeout(300);
    return page;
  }

  /**
   * The dialog opens, and from the moment it opened it is still open at every check over the next
   * 1.5 s. In between, the page is watched every 50 ms: once open, it never closed (the bug closed
   * it about 200 ms after opening).
   */
  async function expectOpenAndStaying(page: Page, base: string, trigger: Trigger, since: number): Promise<void> {
    const dialog = page.getByRole('dialog', { name: trigger.dialog });
    await dialog.waitFor({ state: 'visible', timeout: OPEN_WITHIN_MS });
    const openedAt = Date.now();
    const timeline: string[] = [`open at ${openedAt - since} ms`];
    const checks: string[] = [];
    let last = 'open';
    for (const at of STAYS_OPEN_MS) {
      while (Date.now() < openedAt + at) {
        const state = (await dialog.isVisible()) ? 'open' : 'closed';
        if (state !== last) timeline.push(`${state} at ${Date.now() - since} ms`);
        last = state;
        await page.waitForTimeout(50);
      }
      const state = (await dialog.isVisible()) ? 'open' : 'closed';
      if (state !== last) timeline.push(`${state} at ${Date.now() - since} ms`);
      last = state;
      checks.push(`${at} ms after opening: ${state} ${page.url().slice(base.length)}`);
    }
    const closedAfterOpening = timeline.some((s) => s.startsWith('closed'));
    expect({ checks, timeline: closedAfterOpening ? timeline : 'opened, never closed' }).toEqual({
      checks: STAYS_OPEN_MS.map((at) => `${at} ms after opening: open /${trigger.search}`),
      timeline: 'opened, never closed',
    });
  }

  const builds = [
    { name: 'production build', base: () => production },
    { name: 'development build', base: () => development!.base },
  ];

  describe.each(builds)('$name', (build) => {
    it.each(TRIGGERS)('a real mouse click on "$label" opens "$dialog" for good', async (trigger) => {
      const base = build.base();
      const page = await freshLanding(base);
      const errors = watchErrors(page);
      const link = trigger.find(page);
      const box = (await link.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
      await page.mouse.down();
      await page.mouse.up();
      const clickedAt = Date.now();
      await expectOpenAndStaying(page, base, trigger, clickedAt);
      // the dialog works: its first field has the focus, and typing goes there
      await page.keyboard.type('x');
      const firstField = page
        .getByRole('dialog', { name: trigger.dialog })
        .getByLabel(trigger.dialog === 'Log in' ? /^Email/ : /^Full name/);
      expect(await firstField.inputValue()).toBe('x');
      if (trigger.label === 'Get started') await shot(page, `first-click-${build.name.split(' ')[0]}-get-started`);
      expect(errors).toEqual([]);
    });

    it.each(TRIGGERS)('Tab to "$label" and Enter opens "$dialog" for good', async (trigger) => {
      const base = build.base();
      const page = await freshLanding(base);
      const errors = watchErrors(page);
      const link = trigger.find(page);
      let focused = false;
      for (let presses = 0; presses < 15 && !focused; presses += 1) {
        await page.keyboard.press('Tab');
        focused = await link.evaluate((el) => el === el.ownerDocument.activeElement);
      }
      expect(focused).toBe(true);
      await page.keyboard.press('Enter');
      const pressedAt = Date.now();
      await expectOpenAndStaying(page, base, trigger, pressedAt);
      expect(errors).toEqual([]);
    });
  });
});
