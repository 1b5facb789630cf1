import { Client } from 'pg';
import { launchBrowser } from '../helpers/browser';
import { type TestApp, testDatabaseUrl } from '../helpers/test-app';
import {
  type Account,
  confirmPhotos,
  createAccount,
  horizontalOverflow,
  pickFreeTemplate,
  shot,
  startUserApp,
  uploadPhoto,
  VIEWPORTS,
  watchErrors,
} from '../helpers/user-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * The help for writing a custom pose the check understands (docs/safety.md "The help in the
 * generate panel"), with a real mouse and keyboard: the English-only note, building blocks as
 * chips, a word it does not understand marked with "did you mean" buttons that replace it, and
 * Generate with the fixed text. A text in another language is not understood (nothing uploaded,
 * nothing counted against the person).
 */
describe('the custom pose help in the generate panel', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let db: Client;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ AI_POLL_INTERVAL_MS: '200', AI_PREVIEW_DELAY_MS: '500' }));
    browser = await launchBrowser();
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await db?.end();
    await t?.close();
  });

  /** A new page at a desktop's width, signed in through the Log in dialog with the keyboard, on the Bikini screen with a free template, a photo and the 18+ confirmation. */
  async function openPanel(account: Account): Promise<{ page: Page; errors: string[]; posts: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (r.method() === 'POST' && pathname.startsWith('/api/')) posts.push(pathname.replace(/[0-9a-f-]{36}/, ':id'));
    });
    await page.goto(`${base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByLabel(/^Email/).click();
    await page.keyboard.type(account.email);
    await dialog.getByLabel(/^Password/).click();
    await page.keyboard.type(account.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Bikini' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await pickFreeTemplate(page);
    await uploadPhoto(page);
    await confirmPhotos(page);
    await page.getByRole('button', { name: /\+ Custom/ }).click();
    return { page, errors, posts };
  }

  /** Waits until the input holds `value` (React sets it as the person types or clicks). */
  async function waitForValue(page: Page, input: Locator, value: string): Promise<void> {
    const handle = await input.elementHandle();
    await page.waitForFunction(([el, expected]) => (el as unknown as { value: string }).value === expected, [handle, value] as const);
  }

  const refusalRows = async (userId: string) =>
    Number((await db.query(`SELECT count(*) AS n FROM safety_refusals WHERE user_id = $1`, [userId])).rows[0].n);

  it('types a pose with a word it does not know, takes the suggestion, adds a building block, and generates', async () => {
    const account = await createAccount(t, 'custom-help', 'Pose Helper');
    const { page, errors, posts } = await openPanel(account);
    const custom = page.getByLabel('Describe your pose');

    // English only, said plainly; building blocks to click, grouped
    await page.getByText('Custom poses are in English only for now.', { exact: false }).first().waitFor();
    for (const group of ['pose', 'place', 'light', 'mood', 'props'])
      await page.getByRole('group', { name: `Ideas for the ${group}` }).waitFor();

    // typed key by key, with a misspelling
    await custom.click();
    await page.keyboard.type('walking on the beahc at sunset', { delay: 15 });
    const suggestion = page.getByRole('button', { name: 'Replace "beahc" with "beach"' });
    await suggestion.waitFor();
    // the word is marked, in a polite live region (read out when typing pauses)
    const help = page.getByRole('status').filter({ has: page.locator('[data-custom-pose-not-understood]') });
    expect(await help.getAttribute('aria-live')).toBe('polite');
    expect(await help.locator('mark').first().textContent()).toBe('beahc');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `custom-pose-help-${viewport.width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // the mouse takes the suggestion: the word is replaced, and the help says nothing more
    await suggestion.click();
    await waitForValue(page, custom, 'walking on the beach at sunset');
    await page.locator('[data-custom-pose-not-understood]').waitFor({ state: 'detached' });

    // a building block is added at the end
    await page.getByRole('button', { name: 'Add "relaxed"' }).click();
    await waitForValue(page, custom, 'walking on the beach at sunset, relaxed');

    // Generate: the check accepts it, the photo is uploaded, the generation runs to the end
    await page.locator('[data-generate-button]').click();
    await page.getByText('Generation started successfully').waitFor();
    await page.getByText('Complete! Your new look is in', { exact: false }).waitFor({ timeout: 60_000 });
    const generated = await db.query(`SELECT metadata->>'custom_pose' AS pose, status FROM user_generations WHERE user_id = $1`, [
      account.userId,
    ]);
    expect(generated.rows).toEqual([{ pose: 'walking on the beach at sunset, relaxed', status: 'completed' }]);
    expect(posts.filter((p) => !p.startsWith('/api/generations/custom-pose/'))).toEqual([
      '/api/auth/sign-in',
      '/api/generations/check',
      '/api/uploads',
      '/api/generations',
    ]);
    expect(await refusalRows(account.userId)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a pose in another language is not understood: the panel says custom poses are English-only, uploads nothing and counts nothing', async () => {
    const account = await createAccount(t, 'custom-spanish', 'Pose Helper');
    const { page, errors, posts } = await openPanel(account);
    const custom = page.getByLabel('Describe your pose');
    await custom.click();
    await page.keyboard.type('caminando en la playa al atardecer');
    // Generate at once, before the help has had its pause: the API's check answers, in its words
    const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/generations/check');
    await page.locator('[data-generate-button]').click();
    const check = await checked;
    expect(check.status()).toBe(400);
    const body = (await check.json()) as { code: string; message: string };
    expect(body.code).toBe('CUSTOM_POSE_NOT_UNDERSTOOD');
    expect(body.message).toMatch(/^Custom poses are in English only for now\./);
    await page.getByRole('region', { name: 'Generate Your Look' }).getByRole('alert').filter({ hasText: body.message }).waitFor();
    await page.locator('[data-generate-button]', { hasText: 'Generate Image' }).waitFor();

    // a word fixed with a suggestion given by the refusal itself works too
    await custom.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('sitting in a cafe with a capuccino');
    await page.getByRole('button', { name: 'Replace "capuccino" with "cappuccino"' }).click();
    await waitForValue(page, custom, 'sitting in a cafe with a cappuccino');

    expect(posts.filter((p) => p === '/api/uploads' || p === '/api/generations')).toEqual([]);
    expect(await refusalRows(account.userId)).toBe(0);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
