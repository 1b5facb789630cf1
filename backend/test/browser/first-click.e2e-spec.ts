import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { buildDevelopmentUserApp, type FolderServer, serveUserAppFolder } from '../helpers/dev-user-app';
import { createAccount, shot, startUserApp, watchErrors } from '../helpers/user-app';
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
      // on the landing page all along: the early dialog opens in place, and the app writes the dialog's
      // own address (/?auth=...) once it has taken over
      checks.push(`${at} ms after opening: ${state} ${new URL(page.url()).pathname}`);
    }
    const closedAfterOpening = timeline.some((s) => s.startsWith('closed'));
    expect({ checks, timeline: closedAfterOpening ? timeline : 'opened, never closed' }).toEqual({
      checks: STAYS_OPEN_MS.map((at) => `${at} ms after opening: open /`),
      timeline: 'opened, never closed',
    });
    await page.waitForURL(`${base}/${trigger.search}`);
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

/**
 * The user app and a browser, the server having sent its app once, as a running server has (each
 * file is compressed at its first request); each visit of a test is a new context (no cache).
 */
async function startWarmedUserApp(): Promise<{ t: TestApp; base: string; browser: Browser }> {
  const { t, base } = await startUserApp();
  const browser = await launchBrowser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.mouse.move(10, 10); // the first sign of a person fetches the app's modules
  await page.waitForLoadState('networkidle');
  await context.close();
  return { t, base, browser };
}

/**
 * Item 2 of issue 32: a click before any script has run works. Log in, Sign up and Get started are
 * real links to a page the server renders with the dialog open (`/?auth=login`, `/?auth=signup`);
 * the visitor types in it before the scripts come, and the app then takes it over with what was typed.
 */
describe('a click before the scripts run', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base, browser } = await startWarmedUserApp());
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it.each(TRIGGERS)(
    'before any script has run, "$label" is a real link: the server sends the page with "$dialog" open',
    async (trigger) => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);
      // the scripts are slow to come (a slow network): held until the end
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await context.route(/\/assets\/.*\.js$/, async (route) => {
        await released;
        await route.continue().catch(() => undefined);
      });
      await page.goto(`${base}/`, { waitUntil: 'commit' });
      const link = trigger.find(page);
      await link.waitFor();
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { dataset: { app?: string } } } }).document.documentElement.dataset
              .app,
        ),
      ).toBeUndefined();
      await mouseClick(page, link);
      await page.waitForURL(`${base}/${trigger.search}`, { waitUntil: 'commit' });
      const dialog = page.getByRole('dialog', { name: trigger.dialog });
      await dialog.waitFor();
      // still no script: the dialog is the server's markup, and typing goes into its first field
      const firstField = dialog.getByLabel(trigger.dialog === 'Log in' ? /^Email/ : /^Full name/);
      await mouseClick(page, firstField);
      await page.keyboard.type('abc');
      expect(await firstField.inputValue()).toBe('abc');
      if (trigger.label === 'Get started') await shot(page, 'first-click-before-scripts-get-started');
      // the scripts come: the app takes the dialog over with what was typed
      release();
      await page.locator('html[data-app="ready"]').waitFor({ state: 'attached', timeout: 30_000 });
      await page.waitForFunction(
        () => !(globalThis as unknown as { document: { getElementById(id: string): unknown } }).document.getElementById('early-auth'),
        undefined,
        { timeout: 20_000 },
      );
      expect(await dialog.getByLabel(trigger.dialog === 'Log in' ? /^Email/ : /^Full name/).inputValue()).toBe('abc');
      expect(errors).toEqual([]);
    },
  );
});

/**
 * Item 2 of issue 32 on a slow phone: the CPU slowed 6 times (Chromium's own throttling), the
 * landing page left alone until its app starts on its own, then "Log in" clicked with the mouse at
 * once, while the app's code is evaluated and the page hydrated. The click is not lost: the dialog
 * opens, what the person types goes in, Enter signs them in. How fast it is answered is measured
 * by `npm run bench:web` (its first-click section), not here.
 */
describe('a click while the app starts, on a CPU slowed 6 times', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base, browser } = await startWarmedUserApp());
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('"Log in" clicked as the app starts opens the dialog, keeps what is typed, and Enter signs in', async () => {
    const person = await createAccount(t, 'slow-cpu', 'Sloane Slow');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await page.goto(`${base}/`);
    const link = TRIGGERS[0].find(page);
    await link.waitFor();
    // left alone, the page starts its app on its own (10 s after the load, in the browser's idle time)
    await page.locator('html[data-app]').waitFor({ state: 'attached', timeout: 40_000 });
    await mouseClick(page, link);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.waitFor({ timeout: 30_000 });
    await page.keyboard.type(person.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(person.password);
    expect(await dialog.getByLabel(/^Email/).inputValue()).toBe(person.email);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`, { timeout: 60_000 });
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 180_000);
});
