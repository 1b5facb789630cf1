import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import { downloadPrefix } from '../../src/modules/generations/generation-presenter';
import { launchBrowser } from '../helpers/browser';
import { type TestApp, testDatabaseUrl } from '../helpers/test-app';
import {
  type Account,
  confirmPhotos,
  createAccount,
  horizontalOverflow,
  markVerifiedAndReload,
  pickFreeTemplate,
  pickPose,
  portraitJpeg,
  shot,
  signUpInDialog,
  startUserApp,
  uploadPhoto,
  VIEWPORTS,
  waitForImage,
  watchErrors,
} from '../helpers/user-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

interface BrowserGlobals {
  document: { querySelector(selector: string): { textContent: string | null } | null };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: unknown): void };
  __stages: string[];
}

/**
 * The generate flow of the user app (issue 5, item 8), clicked through in a real browser with
 * the `preview` AI provider: a category screen, the upgrade dialog, the upload with its 18+
 * confirmation, a pose, Generate with its live stages, the result in both lists, Download and
 * Delete.
 */
describe('generating a look in the user app', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  /** The same page at a phone's and a desktop's width: a screenshot of each, and no sideways scrolling. */
  async function shotsAtBothWidths(page: Page, name: string): Promise<void> {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(150); // layout settles (responsive styles, lazy images in view)
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `generate-${name}-${viewport.width}`);
    }
  }

  beforeAll(async () => {
    // A first check after 200 ms and a result after 9 s: the stages can be watched, and the checks made while
    // it runs (a second click, screenshots at two widths) end before it, even on a loaded machine.
    // (The checks grow to a second apart: AI_POLL_MAX_INTERVAL_MS is 5 x the first wait.)
    ({ t, base } = await startUserApp({ AI_POLL_INTERVAL_MS: '200', AI_PREVIEW_DELAY_MS: '9000' }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('signs up, generates an image in Bikini, sees it in both lists, downloads it and deletes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);

    // Sign up in the dialog.
    await page.goto(`${base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up', exact: true }).click();
    const email = await signUpInDialog(page, base, 'Generate Tester', 'generate');
    // Confirming the address is another spec's subject (accounts-trust): done as the link would.
    await markVerifiedAndReload(page, email);

    // The Bikini screen: header badges, the template grid, the locked templates and their banner.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Bikini' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await page.getByText('Credits: 3', { exact: true }).waitFor();
    await page.getByText('Tier: Free').waitFor();
    await page.getByRole('heading', { name: 'Choose a Template' }).waitFor();
    await page.getByText('10 locked templates • Upgrade to unlock more options').waitFor();
    const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
    expect(await templates.count()).toBe(12);
    const locked = templates.filter({ hasText: 'Locked' });
    expect(await locked.count()).toBe(10);
    const firstLocked = locked.first();
    await firstLocked.getByText('Starter+').waitFor();
    await firstLocked.getByText('Requires: Starter').waitFor();
    expect(await firstLocked.getByRole('link', { name: 'Unlock Now' }).getAttribute('href')).toBe('/pricing');
    await page.getByText('Your Bikini Generations').waitFor();
    await shotsAtBothWidths(page, 'category');

    // A locked template opens the upgrade dialog (about that template); "Maybe later" closes it.
    await firstLocked.getByRole('button').first().click();
    const upgrade = page.getByRole('dialog');
    const title = upgrade.getByRole('heading', { name: /^Unlock “.+”$/ });
    await title.waitFor();
    const lockedName = /^Unlock “(.+)”$/.exec((await title.textContent()) ?? '')?.[1] ?? '';
    await upgrade.getByText('This template requires Starter or higher to access').waitFor();
    await upgrade.getByText('$4.99').waitFor();
    await upgrade.getByText('per month').waitFor();
    await upgrade.getByText('Cancel anytime • No hidden fees • Instant access').waitFor();
    expect(await upgrade.getByRole('link', { name: 'Upgrade to Starter' }).getAttribute('href')).toBe('/pricing');
    await shotsAtBothWidths(page, 'upgrade-dialog');
    await upgrade.getByRole('button', { name: 'Maybe later' }).click();
    await upgrade.waitFor({ state: 'hidden' });
    await firstLocked.getByText(lockedName, { exact: true }).waitFor(); // the dialog was about this one

    // A free template: selected, and the "Generate Your Look" panel appears.
    await pickFreeTemplate(page);

    // Without a photo or a pose, the checklist says what is missing before any click, and Generate waits
    expect(await page.locator('[data-generate-button]').isDisabled()).toBe(true);
    expect(await page.getByText(/photo/i).count()).toBeGreaterThan(0);

    // The client-side checks: a file that is not an image is not added.
    await page.getByLabel('Upload photos').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
    await page.getByText('Please upload image files only').waitFor();
    expect(await page.getByRole('img', { name: /^Your photo/ }).count()).toBe(0);

    // A photo, the confirmation that it shows me and that I am 18+, and a pose.
    await uploadPhoto(page);
    await page.getByRole('button', { name: /Add More/ }).waitFor();
    await pickPose(page);
    await page.getByText('Cost: 1 credit', { exact: true }).waitFor();

    // Not confirmed yet: the checklist asks for the confirmation, and Generate waits for it
    await page.getByText('Tick the box: the photos are of you and you are 18 or older').waitFor();
    expect(await page.locator('[data-generate-button]').isDisabled()).toBe(true);
    await confirmPhotos(page);
    expect(await page.getByRole('checkbox', { name: 'These photos are of me and I am 18 or older' }).isChecked()).toBe(true);

    // Generate: every text the button shows is recorded as it changes.
    await page.evaluate(() => {
      const g = globalThis as unknown as BrowserGlobals;
      g.__stages = [];
      const button = () => g.document.querySelector('[data-generate-button]');
      new g.MutationObserver(() => {
        const text = button()?.textContent?.trim();
        if (text && g.__stages.at(-1) !== text) g.__stages.push(text);
      }).observe(g.document, { subtree: true, childList: true, characterData: true });
    });
    const starts: string[] = [];
    const followed: string[] = [];
    page.on('request', (r) => {
      const { pathname, searchParams } = new URL(r.url());
      if (pathname === '/api/generations' && r.method() === 'POST') starts.push(r.url());
      if (/^\/api\/generations\/[^/]+\/events$/.test(pathname))
        followed.push(`events${searchParams.has('access_token') ? '?access_token' : ''}`);
      if (/^\/api\/generations\/[0-9a-f-]{36}$/.test(pathname) && r.method() === 'GET') followed.push('poll');
    });
    const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/generations' && r.request().method() === 'POST');
    const generateButton = page.locator('[data-generate-button]');
    await generateButton.click();
    const start = await started;
    expect(start.status()).toBe(202);
    const generationId = ((await start.json()) as { id: string }).id;
    await page.getByText('Generation started successfully').waitFor();

    // Mid-progress: a second click is ignored, Cancel is offered, the panel fits both widths.
    await page.waitForFunction(() =>
      /Still working \(\d+ of \d+\)\.\.\./.test((globalThis as unknown as BrowserGlobals).__stages.join('|')),
    );
    expect(await generateButton.getAttribute('aria-disabled')).toBe('true');
    await generateButton.click({ force: true }); // busy: the click reaches the app, which ignores it
    await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Generate Your Look' }).scrollIntoViewIfNeeded();
    await shotsAtBothWidths(page, 'panel-in-progress');
    expect(await generateButton.getAttribute('aria-disabled')).toBe('true'); // the shots show it running

    // The result arrives in "Your Bikini Generations".
    const results = page.getByRole('list', { name: 'Your Bikini Generations' });
    await results.getByRole('article').first().waitFor({ timeout: 30_000 });
    await page.locator('[data-generate-button]', { hasText: 'Generate Image' }).waitFor();
    const stages = await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__stages);
    expect(stages).toContain('Uploading your photos...');
    expect(stages.some((s) => /^Still working \(\d+ of \d+\)\.\.\.$/.test(s))).toBe(true);
    expect(stages.filter((s) => s !== 'Generate Image').length).toBeGreaterThanOrEqual(3);
    const order = [
      'Preparing your photos...',
      'Uploading your photos...',
      'Saving your request...',
      'Making your preview...',
      'Creating your look (this may take 10-30 seconds)...',
    ];
    const seen = order.map((s) => stages.indexOf(s)).filter((i) => i >= 0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b)); // never backwards
    await page.getByText(/Complete! Your new look is in/).waitFor();
    expect(await results.getByRole('article').count()).toBe(1);
    expect(starts).toHaveLength(1); // the second click sent nothing
    expect(followed).toEqual(['events?access_token']); // the stages came live over the event stream
    await results.getByRole('article').first().getByText('Image', { exact: true }).waitFor();
    // The hold was captured: the header shows the new balance.
    await page.getByText('Credits: 2', { exact: true }).waitFor();
    await waitForImage(page, results.getByRole('img').first());
    await shotsAtBothWidths(page, 'result');

    // Another category starts afresh: no template picked, so no panel.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Dresses' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dresses' }).waitFor();
    await page.getByText('Choose a template above to generate your look.').waitFor();
    expect(await page.getByRole('heading', { name: 'Generate Your Look' }).count()).toBe(0);
    await page.getByText('No Dresses generations yet.', { exact: false }).waitFor();

    // All Generations lists it too.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Generations' }).click();
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    const card = page.getByRole('article').first();
    await card.waitFor();
    // titled with the outfit's name (one of this category's outfits), not the category's
    const outfits = (await t.http.get('/api/catalog')).body.templates as { category: string; name: string }[];
    const resultTitle = (await card.locator('[data-result-title]').textContent())?.trim();
    expect(outfits.filter((o) => o.category === 'bikini').map((o) => o.name)).toContain(resultTitle);
    await waitForImage(page, card.getByRole('img'));
    await shot(page, 'generate-all-generations-1440');

    // no placeholder buttons: "Find similar" is gone until it exists
    expect(await card.getByRole('button', { name: 'Search' }).count()).toBe(0);
    expect(await page.getByText('Coming Soon').count()).toBe(0);

    // Download saves the file under the server's name, `<prefix>-<id>.jpg`.
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${downloadPrefix(t.config.appName)}-${generationId}.jpg`);
    const file = await download.path();
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe('jpeg');
    await page.getByText('Download started').waitFor();

    // Delete, through the confirm dialog; then the empty state.
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Generation' });
    await confirm.getByText('Are you sure you want to delete this generation? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
    await shot(page, 'generate-delete-dialog-1440');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Generation deleted successfully').waitFor();
    await page.getByText('No generations yet. Start creating in any category!').waitFor();
    await confirm.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByText('No generations yet. Start creating in any category!').waitFor();

    expect(errors).toEqual([]);
  });

  it('shows a refused custom pose as it is, uploads a batch once, cancels a running generation, and polls without the event stream', async () => {
    const account = await createAccount(t, 'refuse', 'Cancel Tester');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const calls: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      // (not the help as one types, POST /api/generations/custom-pose/check: custom-pose.e2e-spec.ts)
      if (r.method() === 'POST' && /^\/api\/(uploads|generations)(?!\/custom-pose\/)/.test(pathname))
        calls.push(pathname.replace(/[0-9a-f-]{36}/, ':id'));
    });

    await page.goto(`${base}/?auth=login`);
    const logIn = page.getByRole('dialog', { name: 'Log in' });
    await logIn.getByLabel(/^Email/).fill(account.email);
    await logIn.getByLabel(/^Password/).fill(account.password);
    await logIn.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/generations`);
    await page.goto(`${base}/dashboard/bikini`);
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await pickFreeTemplate(page);
    await uploadPhoto(page);
    await confirmPhotos(page);

    // "+ Custom" reveals the text input with the category's hint; the server's refusal is shown as it is,
    // in the panel, at the check that comes before any upload.
    await page.getByRole('button', { name: /\+ Custom/ }).click();
    const custom = page.getByLabel('Describe your pose');
    expect(await custom.getAttribute('placeholder')).toMatch(/^e\.g\. /);
    await page.getByText('Cost: 3 credits', { exact: true }).waitFor();
    await custom.fill('topless on the beach');
    await page.locator('[data-generate-button]').click();
    await page
      .getByText("This pose description can't be used: describe a pose or setting in which you stay clothed, without nudity.")
      .waitFor();
    await page.locator('[data-generate-button]', { hasText: 'Generate Image' }).waitFor();
    await page.getByText('Credits: 3', { exact: true }).waitFor();

    // A pose instead (custom mode ends, and the refusal with it); now the photos are uploaded, once.
    await pickPose(page);
    expect(await page.getByLabel('Describe your pose').count()).toBe(0);
    expect(await page.getByRole('button', { name: /\+ Custom/ }).getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByText("This pose description can't be used", { exact: false }).count()).toBe(0);
    await page.locator('[data-generate-button]').click();
    await page.locator('[data-generate-button]', { hasText: /Still working \(\d+ of \d+\)\.\.\./ }).waitFor();

    // Cancel: the work stops, the hold is released, nothing is listed.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Generation cancelled').waitFor();
    await page.locator('[data-generate-button]', { hasText: 'Generate Image' }).waitFor();
    await page.getByText('Credits: 3', { exact: true }).waitFor();
    await page.getByText('No Bikini generations yet.', { exact: false }).waitFor();
    expect(calls).toEqual([
      '/api/generations/check',
      '/api/generations/check',
      '/api/uploads',
      '/api/generations',
      '/api/generations/:id/cancel',
    ]);

    // Without the event stream (refused, as with an expired token) the app polls, and still gets there.
    await page.route('**/api/generations/*/events*', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 401, code: 'AUTH_ERROR', message: 'Authentication error. Please sign in again.' }),
      }),
    );
    const polled = page.waitForRequest(
      (r) => /^\/api\/generations\/[0-9a-f-]{36}$/.test(new URL(r.url()).pathname) && r.method() === 'GET',
    );
    await page.locator('[data-generate-button]').click();
    await polled;
    await page.getByRole('list', { name: 'Your Bikini Generations' }).getByRole('article').first().waitFor({ timeout: 30_000 });
    await page.getByText('Credits: 2', { exact: true }).waitFor();
    expect(calls.slice(5)).toEqual(['/api/generations/check', '/api/generations']); // the photos uploaded already are not sent again
    expect(errors.filter((e) => !/status of (400|401)/.test(e))).toEqual([]); // the refused check (400) and stream (401)
  });
});

/**
 * What the generate panel asks the API before it sends any photo, and how it shows the upload
 * allowance: a refused custom pose uploads nothing, the usage line follows the uploads, and an
 * upload past the hourly quota shows the API's own message. The quota is lowered to 2 photos an
 * hour for this app, so the third photo of an account is refused.
 */
describe('the generate panel checks before uploading, and shows the upload allowance', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let db: Client;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // A result only after a minute: a started generation is still running when Cancel is pressed.
    ({ t, base } = await startUserApp({ UPLOAD_QUOTA_PHOTOS_PER_HOUR: '2', AI_PREVIEW_DELAY_MS: '60000' }));
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

  /** Clicks into a field and types, key by key. */
  async function type(page: Page, field: Locator, text: string): Promise<void> {
    await field.click();
    await page.keyboard.type(text);
  }

  /** A new page, signed in through the Log in dialog, on the Bikini screen with a free template picked. */
  async function openBikiniPanel(account: Account): Promise<{ page: Page; errors: string[]; posts: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      // (not the help as one types, POST /api/generations/custom-pose/check: custom-pose.e2e-spec.ts)
      if (r.method() === 'POST' && /^\/api\/(uploads|generations)(?!\/custom-pose\/)/.test(pathname))
        posts.push(pathname.replace(/[0-9a-f-]{36}/, ':id'));
    });
    await page.goto(`${base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await type(page, dialog.getByLabel(/^Email/), account.email);
    await type(page, dialog.getByLabel(/^Password/), account.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Bikini' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await pickFreeTemplate(page);
    return { page, errors, posts };
  }

  /** Clicks the upload area ("Click to upload", or "Add More") and chooses `count` photos in the file chooser. */
  async function choosePhotos(page: Page, count: number): Promise<void> {
    const before = await page.getByRole('img', { name: /^Your photo/ }).count();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: before === 0 ? /Click to upload/ : /Add More/ }).click();
    const jpeg = await portraitJpeg();
    await (
      await chooser
    ).setFiles(Array.from({ length: count }, (_, i) => ({ name: `me-${before + i + 1}.jpg`, mimeType: 'image/jpeg', buffer: jpeg })));
    await page.getByRole('img', { name: `Your photo ${before + count}` }).waitFor();
  }

  /** The panel as it is, at a phone's and a desktop's width: a screenshot of each, and no sideways scrolling. */
  async function shotsAtBothWidths(page: Page, name: string): Promise<void> {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(150); // layout settles
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `generate-${name}-${viewport.width}`);
    }
  }

  const panel = (page: Page) => page.getByRole('region', { name: 'Generate Your Look' });
  const usageLine = (page: Page) => panel(page).locator('[data-upload-usage]');
  const generateButton = (page: Page) => page.locator('[data-generate-button]');

  /** What the account has in the database: photos, stored files, and every trace of credits. */
  async function traces(userId: string): Promise<{ uploads: number; bytesKept: number; files: string[]; credits: unknown }> {
    const uploads = await db.query<{ n: string; bytes: string }>(
      `SELECT count(*) AS n, COALESCE(SUM(received_bytes), 0) AS bytes FROM uploads WHERE user_id = $1`,
      [userId],
    );
    const credits = await db.query(
      `SELECT a.subscription_balance, a.purchased_balance, a.held,
              (SELECT count(*) FROM credit_ledger_entries e WHERE e.user_id = a.user_id) AS ledger_entries,
              (SELECT count(*) FROM credit_holds h WHERE h.user_id = a.user_id) AS holds
         FROM credit_accounts a WHERE a.user_id = $1`,
      [userId],
    );
    const dir = path.join(t.config.storage.localDir, 'objects', 'users', userId, 'uploads'); // the local storage driver's layout
    return {
      uploads: Number(uploads.rows[0]?.n),
      bytesKept: Number(uploads.rows[0]?.bytes),
      files: fs.existsSync(dir) ? fs.readdirSync(dir) : [],
      credits: credits.rows[0],
    };
  }

  /** The line for a few kilobytes kept, as a person reads it: "14 kB". */
  const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} kB`;

  it('a refused custom pose uploads nothing', async () => {
    const account = await createAccount(t, 'refused-pose', 'Pose Tester');
    const { page, errors, posts } = await openBikiniPanel(account);
    const before = await traces(account.userId);
    expect(before.uploads).toBe(0);

    await choosePhotos(page, 2);
    await confirmPhotos(page);
    await page.getByRole('button', { name: /\+ Custom/ }).click();
    const custom = page.getByLabel('Describe your pose');
    await type(page, custom, 'nude on the bed');
    await page.getByText('Cost: 3 credits', { exact: true }).waitFor();

    // Generate: the API's check refuses the pose, and the panel says why in the API's words.
    const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/generations/check');
    await generateButton(page).click();
    const check = await checked;
    expect(check.status()).toBe(400);
    const refusal = ((await check.json()) as { message: string }).message;
    expect(refusal).toMatch(/^This pose description can't be used/);
    const alert = panel(page).getByRole('alert').filter({ hasText: refusal });
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(refusal);
    await page.locator('[data-generate-button]', { hasText: 'Generate Image' }).waitFor();

    // Nothing was sent but the check: no photo row, no stored file, no credit moved.
    expect(posts).toEqual(['/api/generations/check']);
    expect(await traces(account.userId)).toEqual(before);
    await page.getByText('Credits: 3', { exact: true }).waitFor();
    expect(await usageLine(page).textContent()).toBe('0 of 2 photos this hour · 0 MB of 1 GB kept');
    // The photos stay chosen in the panel, ready for another pose.
    expect(await page.getByRole('img', { name: /^Your photo/ }).count()).toBe(2);
    await shotsAtBothWidths(page, 'refused-pose');

    // Another wording: typing clears the old refusal; Generate shows the new one; still nothing uploaded.
    await custom.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('make me look 12');
    await alert.waitFor({ state: 'detached' });
    const checkedAgain = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/generations/check');
    await generateButton(page).click();
    const secondRefusal = ((await (await checkedAgain).json()) as { message: string }).message;
    expect(secondRefusal).toMatch(/^This pose description can't be used/);
    await panel(page).getByRole('alert').filter({ hasText: secondRefusal }).waitFor();
    expect(posts).toEqual(['/api/generations/check', '/api/generations/check']);
    expect(await traces(account.userId)).toEqual(before);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]); // the two refused checks
  });

  it('the usage line shows the allowance and follows an upload and a removal', async () => {
    const account = await createAccount(t, 'usage-line', 'Usage Tester');
    const { page, errors } = await openBikiniPanel(account);

    // Before any upload: nothing used.
    await usageLine(page).filter({ hasText: '0 of 2 photos this hour · 0 MB of 1 GB kept' }).waitFor();

    // One photo, confirmed, a pose, Generate: the photo is uploaded and the line counts it.
    await choosePhotos(page, 1);
    await confirmPhotos(page);
    await pickPose(page);
    await generateButton(page).click();
    await page.getByText('Generation started successfully').waitFor();
    const uploaded = await traces(account.userId);
    expect(uploaded.uploads).toBe(1);
    expect(uploaded.files).toHaveLength(1);
    await usageLine(page)
      .filter({ hasText: `1 of 2 photos this hour · ${kilobytes(uploaded.bytesKept)} of 1 GB kept` })
      .waitFor();

    // Cancel, then take the photo out: it is deleted on the server, so nothing is kept any more;
    // the hour still counts the photo sent.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Generation cancelled').waitFor();
    await page.getByRole('button', { name: 'Remove photo 1' }).click();
    await usageLine(page).filter({ hasText: '1 of 2 photos this hour · 0 MB of 1 GB kept' }).waitFor();
    expect((await traces(account.userId)).uploads).toBe(0);
    expect(errors).toEqual([]);
  });

  it("an upload over the hourly quota shows the API's 429 message and stores nothing", async () => {
    const account = await createAccount(t, 'upload-quota', 'Quota Tester');
    const { page, errors, posts } = await openBikiniPanel(account);

    // Two photos: the hour's allowance, used up.
    await choosePhotos(page, 2);
    await confirmPhotos(page);
    await pickPose(page);
    await generateButton(page).click();
    await page.getByText('Generation started successfully').waitFor();
    await usageLine(page)
      .filter({ hasText: /^2 of 2 photos this hour · / })
      .waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Generation cancelled').waitFor();
    await page.getByText('Credits: 3', { exact: true }).waitFor();
    const spent = await traces(account.userId);
    expect(spent.uploads).toBe(2);

    // A third photo, confirmed anew: the check passes, the upload is refused with 429.
    await choosePhotos(page, 1);
    await confirmPhotos(page);
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/uploads' && r.request().method() === 'POST');
    await generateButton(page).click();
    const upload = await refused;
    expect(upload.status()).toBe(429);
    expect(Number(upload.headers()['retry-after'])).toBeGreaterThan(0);
    const message = ((await upload.json()) as { message: string }).message;
    expect(message).toMatch(/Please try again in \d+ minutes?\.$/); // it says when the allowance comes back

    // The upload area shows the API's message as it is; the button is ready again; nothing moved.
    const alert = panel(page).getByRole('alert').filter({ hasText: message });
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(message);
    await page.locator('[data-generate-button]', { hasText: 'Generate Image' }).waitFor();
    expect(await page.getByText('Failed to generate').count()).toBe(0);
    expect(posts.slice(-2)).toEqual(['/api/generations/check', '/api/uploads']);
    expect(await traces(account.userId)).toEqual(spent);
    await page.getByText('Credits: 3', { exact: true }).waitFor();
    expect(await usageLine(page).textContent()).toMatch(/^2 of 2 photos this hour · /);
    expect(await page.getByRole('img', { name: /^Your photo/ }).count()).toBe(3);
    await shotsAtBothWidths(page, 'upload-quota');

    // Taking the new photo out clears the message.
    await page.getByRole('button', { name: 'Remove photo 3' }).click();
    await alert.waitFor({ state: 'detached' });
    expect(errors.filter((e) => !/status of 429/.test(e))).toEqual([]); // the refused upload
  });
});
