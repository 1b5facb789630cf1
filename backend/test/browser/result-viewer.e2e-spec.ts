import AxeBuilder from '@axe-core/playwright';
import { photoTooSmallMessage } from '@fitting-room/shared/photo-rules';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { downloadPrefix } from '../../src/modules/generations/generation-presenter';
import { bearer } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import {
  type Account,
  confirmPhotos,
  createAccount,
  horizontalOverflow,
  pickFreeTemplate,
  pickPose,
  portraitJpeg,
  shot,
  signedInContext,
  startUserApp,
  uploadPhoto,
  waitForImage,
  watchErrors,
} from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

interface CatalogueBody {
  categories: { id: string; path: string; label: string; sceneIds: string[] }[];
  templates: { id: string; name: string; category: string; requiredTier: string }[];
  scenes: { id: string; name: string; requiredTier: string; creditCost: number }[];
}

interface Made {
  id: string;
  type: 'image' | 'video';
  title: string;
  pose: string;
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The result viewer (issue 32, item 1) and the generate checklist (item 4), used as a person does:
 * the mouse moves, presses and releases; the keyboard types; every page is freshly loaded; at 1440
 * and 390 px. Results are made by the `preview` provider from a photo of the person, through the API.
 */
jest.setTimeout(180_000);

describe('the result viewer and the generate checklist', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let catalogue: CatalogueBody;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ AI_POLL_INTERVAL_MS: '200', AI_PREVIEW_DELAY_MS: '2500' }));
    browser = await launchBrowser();
    catalogue = (await t.http.get('/api/catalog').expect(200)).body as CatalogueBody;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function pageFor(account: Account, viewport: { width: number; height: number }, init?: () => void): Promise<Page> {
    const context = await signedInContext(browser, t, base, account, viewport);
    contexts.push(context);
    if (init) await context.addInitScript(init);
    return context.newPage();
  }

  /** An account on a plan with video, and three results made from its photo: two pictures, then a video (newest first in the list). */
  async function accountWithResults(label: string): Promise<{ account: Account; made: Made[] }> {
    const account = await createAccount(t, label, 'Viewer Tester');
    await t.app.get(DataSource).query(`UPDATE users SET tier = 'glow_up' WHERE id = $1`, [account.userId]);
    await t.app
      .get(CreditsService)
      .adjust({ userId: account.userId, mode: 'add', amount: 20, reason: 'test grant', actorId: account.userId });
    const upload = await t.http
      .post('/api/uploads')
      .set(bearer(account.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', await portraitJpeg(), { filename: 'me.jpg', contentType: 'image/jpeg' });
    expect(upload.status).toBe(201);
    const uploadId = (upload.body as { uploads: { id: string }[] }).uploads[0]!.id;
    const bikini = catalogue.categories.find((c) => c.id === 'bikini')!;
    const templates = catalogue.templates.filter((tp) => tp.category === 'bikini' && tp.requiredTier === 'free');
    const scenes = bikini.sceneIds.map((id) => catalogue.scenes.find((s) => s.id === id)!).filter((s) => s.requiredTier === 'free');
    const plan = [
      { type: 'image' as const, template: templates[0]!, scene: scenes[0]! },
      { type: 'image' as const, template: templates[1] ?? templates[0]!, scene: scenes[1] ?? scenes[0]! },
      { type: 'video' as const, template: templates[0]!, scene: scenes[0]! },
    ];
    // one at a time: a person has one generation running at most
    const made: Made[] = [];
    for (const step of plan) {
      const started = await t.http
        .post('/api/generations')
        .set(bearer(account.accessToken))
        .send({
          type: step.type,
          category: 'bikini',
          template_id: step.template.id,
          scene_id: step.scene.id,
          upload_ids: [uploadId],
        });
      if (started.status !== 202) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
      const id = (started.body as { id: string }).id;
      const deadline = Date.now() + 60_000;
      let status = '';
      while (status !== 'completed' && Date.now() < deadline) {
        status = ((await t.http.get(`/api/generations/${id}`).set(bearer(account.accessToken))).body as { status: string }).status;
        if (status === 'failed') throw new Error('a generation failed');
        if (status !== 'completed') await new Promise((r) => setTimeout(r, 150));
      }
      expect(status).toBe('completed');
      made.push({ id, type: step.type, title: step.template.name, pose: step.scene.name });
    }
    return { account, made: made.reverse() };
  }

  async function axeViolations(page: Page) {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return results.violations.map((v) => ({ rule: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }

  async function boxOf(locator: Locator): Promise<Box> {
    const box = await locator.boundingBox();
    if (!box) throw new Error('no box');
    return box;
  }

  /** A person's drag: the mouse onto `from`, pressed, moved in steps to `to`, released. */
  async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    await page.mouse.move(from.x, from.y, { steps: 2 });
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
  }

  /**
   * What is on top at points across the top fifth of a card's picture, where the preview's own
   * label sits: only the picture, or the transparent button that opens the viewer over it.
   */
  async function whatCoversTheLabel(page: Page, media: Locator): Promise<string[]> {
    return media.evaluate((img) => {
      const g = globalThis as unknown as {
        document: { elementsFromPoint(x: number, y: number): Element[] };
        getComputedStyle(el: Element): { backgroundColor: string; opacity: string };
      };
      type Element = { tagName: string; childElementCount: number; getAttribute(n: string): string | null; getBoundingClientRect(): Box };
      const r = (img as unknown as Element).getBoundingClientRect();
      const seen = new Set<string>();
      for (const fx of [0.2, 0.35, 0.5, 0.65, 0.8])
        for (const fy of [0.03, 0.08, 0.13, 0.18]) {
          const stack = g.document.elementsFromPoint(r.x + r.width * fx, r.y + r.height * fy);
          for (const el of stack) {
            if (el === (img as unknown)) break; // what is above the picture ends here
            const transparent = g.getComputedStyle(el).backgroundColor === 'rgba(0, 0, 0, 0)' && el.childElementCount === 0;
            seen.add(transparent && el.getAttribute('data-open-result') !== null ? 'open-button' : `${el.tagName}`);
          }
        }
      return [...seen];
    });
  }

  async function clipOf(image: Locator): Promise<string> {
    return image.evaluate((el) => (el as unknown as { style: { clipPath: string } }).style.clipPath);
  }

  async function sliderValue(slider: Locator): Promise<number> {
    return Number(await slider.getAttribute('aria-valuenow'));
  }

  it('at 1440 px: opens a result full screen, compares before and after, moves between results, and downloads, shares, reports and deletes from it', async () => {
    const { account, made } = await accountWithResults('viewer-desktop');
    // Chromium on Linux has no share sheet: the copied link is the fallback; the clipboard is read back
    const page = await pageFor(account, { width: 1440, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const errors = watchErrors(page);
    await page.goto(`${base}/dashboard/generations`);
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    const cards = page.getByRole('article');
    await cards.nth(2).waitFor();
    expect(await cards.count()).toBe(3);

    // Each card is titled by its outfit (the pose under it), not by the category; no magnifier.
    for (let i = 0; i < 3; i++) {
      expect(await cards.nth(i).locator('[data-result-title]').textContent()).toBe(made[i]!.title);
      await cards.nth(i).getByText(made[i]!.pose, { exact: true }).waitFor();
    }
    expect(await page.getByRole('button', { name: /Search|Find similar/ }).count()).toBe(0);
    expect(await page.getByText('Coming Soon').count()).toBe(0);
    // Nothing covers the picture's own "PREVIEW - NOT AI" label (top centre): no badge over it.
    const firstPicture = cards.nth(1).getByRole('img');
    await waitForImage(page, firstPicture);
    expect(await whatCoversTheLabel(page, firstPicture)).toEqual(['open-button']);

    // A click on the picture of the second result (a picture) opens the viewer, full screen, titled by the outfit.
    await mouseClick(page, cards.nth(1).getByRole('button', { name: /^Open / }));
    const viewer = page.getByRole('dialog', { name: made[1]!.title });
    await viewer.waitFor();
    expect(new URL(page.url()).searchParams.get('result')).toBe(made[1]!.id);
    const content = await boxOf(page.locator('[data-result-viewer]'));
    expect(content).toMatchObject({ x: 0, y: 0, width: 1440, height: 900 });
    await viewer.getByText(made[1]!.pose, { exact: false }).first().waitFor();
    await viewer.getByText('2 of 3', { exact: true }).waitFor();

    // Before and after: the person's photo over the result up to a divider, an ARIA slider.
    const slider = viewer.getByRole('slider', { name: 'Your photo and the result' });
    await slider.waitFor();
    const before = viewer.getByRole('img', { name: 'Your photo' });
    await waitForImage(page, before);
    await waitForImage(page, viewer.getByRole('img', { name: new RegExp(`^${made[1]!.title}`) }));
    // It opens on the result whole: nothing of the photo lies over the result's own "PREVIEW - NOT AI" label.
    expect(await sliderValue(slider)).toBe(0);
    expect(await slider.getAttribute('aria-valuetext')).toBe('0% your photo, 100% the result');
    expect(await clipOf(before)).toBe('inset(0px 100% 0px 0px)');
    // The comparison box is the picture's own frame (not the empty margin beside it on a wide screen).
    const frame = await boxOf(viewer.locator('[data-before-after]'));
    expect(Math.abs(frame.width / frame.height - 2953 / 4096)).toBeLessThan(0.01);
    await shot(page, 'result-viewer-result-whole-1440');

    // The mouse drags the divider to a quarter of the stage: a quarter of the photo shows.
    const stage = frame;
    const grip = await boxOf(slider.locator('[data-grip]'));
    await drag(
      page,
      { x: grip.x + grip.width / 2, y: grip.y + grip.height / 2 },
      { x: stage.x + stage.width * 0.25, y: grip.y + grip.height / 2 },
    );
    expect(await sliderValue(slider)).toBe(25);
    expect(await clipOf(before)).toBe('inset(0px 75% 0px 0px)');
    await shot(page, 'result-viewer-before-after-1440');
    expect(new URL(page.url()).searchParams.get('result')).toBe(made[1]!.id); // a drag on the divider is not a swipe
    // The keyboard: the divider has the focus after the drag; arrows, End, Home.
    expect(
      await slider.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
    ).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await sliderValue(slider)).toBe(35);
    await page.keyboard.press('End');
    expect(await sliderValue(slider)).toBe(100);
    await page.keyboard.press('Home');
    expect(await sliderValue(slider)).toBe(0);
    expect(await slider.getAttribute('aria-valuetext')).toBe('0% your photo, 100% the result');
    expect(new URL(page.url()).searchParams.get('result')).toBe(made[1]!.id); // the arrows moved the divider only

    // axe on the open viewer: nothing at all.
    expect(await axeViolations(page)).toEqual([]);

    // The arrow keys elsewhere in the viewer go to the next and previous result.
    await page.keyboard.press('Tab'); // off the divider
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: made[2]!.title }).getByText('3 of 3', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('result')).toBe(made[2]!.id);
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog').getByText('2 of 3', { exact: true }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog').getByText('1 of 3', { exact: true }).waitFor();

    // The first result is the video: it plays in place, in the viewer.
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').first().textContent()).toBe(made[0]!.title);
    const video = dialog.locator('video');
    await video.waitFor();
    await page.waitForFunction(
      (el) => {
        const v = el as unknown as { currentTime: number; paused: boolean; readyState: number };
        return !v.paused && v.readyState >= 2 && v.currentTime > 0.2;
      },
      await video.elementHandle(),
      { timeout: 15_000 },
    );
    expect(await dialog.getByRole('slider').count()).toBe(0);
    const videoBox = await boxOf(video);
    expect(videoBox.height).toBeGreaterThan(600); // at the viewer's size, not a thumbnail
    await shot(page, 'result-viewer-video-1440');

    // A swipe with the mouse (press, move 300 px left, release) on the stage: the next result.
    const stageBox = await boxOf(dialog.locator('[data-viewer-stage]'));
    await drag(
      page,
      { x: stageBox.x + stageBox.width * 0.8, y: stageBox.y + stageBox.height * 0.6 },
      { x: stageBox.x + stageBox.width * 0.8 - 300, y: stageBox.y + stageBox.height * 0.6 + 10 },
    );
    await dialog.getByText('2 of 3', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('result')).toBe(made[1]!.id);

    // Download: the file under the server's name.
    const downloading = page.waitForEvent('download');
    await mouseClick(page, dialog.getByRole('button', { name: 'Download' }));
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${downloadPrefix(t.config.appName)}-${made[1]!.id}.jpg`);
    expect((await sharp(await download.path()).metadata()).format).toBe('jpeg');
    await page.getByText('Download started').waitFor();

    // Share without a share sheet: the app's link, copied; it opens the viewer after sign-in only.
    await mouseClick(page, dialog.getByRole('button', { name: 'Share' }));
    await page.getByText('Link copied').waitFor();
    const copied = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(copied).toBe(`${base}/dashboard/generations?result=${made[1]!.id}`);
    const stranger = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(stranger);
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(copied);
    await strangerPage.waitForURL((url) => url.pathname === '/');
    expect(await strangerPage.getByRole('dialog', { name: made[1]!.title }).count()).toBe(0);
    expect(await strangerPage.locator('img[src*="/api/files/"]').count()).toBe(0);
    const ownerAgain = await pageFor(account, { width: 1440, height: 900 });
    await ownerAgain.goto(copied);
    await ownerAgain.getByRole('dialog', { name: made[1]!.title }).getByRole('slider').waitFor();

    // Delete from the viewer: a confirmation first; then the next result shows, one fewer in all.
    await mouseClick(page, dialog.getByRole('button', { name: 'Delete' }));
    const confirm = page.getByRole('alertdialog', { name: 'Delete Generation' });
    await confirm.getByText('This action cannot be undone.', { exact: false }).waitFor();
    await mouseClick(page, confirm.getByRole('button', { name: 'Cancel' }));
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('dialog', { name: made[1]!.title }).waitFor();
    await mouseClick(page, dialog.getByRole('button', { name: 'Delete' }));
    await mouseClick(page, confirm.getByRole('button', { name: 'Delete', exact: true }));
    await page.getByText('Generation deleted successfully').waitFor();
    await page.getByRole('dialog', { name: made[2]!.title }).getByText('2 of 2', { exact: true }).waitFor();
    expect((await t.http.get(`/api/generations/${made[1]!.id}`).set(bearer(account.accessToken))).status).toBe(404);

    // Report from the viewer: the contact form, ready to report this result.
    await mouseClick(page, page.getByRole('dialog').getByRole('link', { name: 'Report a problem' }));
    await page.waitForURL((url) => url.pathname === '/contact');
    expect(new URL(page.url()).searchParams.get('generation')).toBe(made[2]!.id);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    expect(await page.getByLabel(/What is it about\?/).evaluate((el) => (el as unknown as { value: string }).value)).toBe('abuse_report');
    expect(await page.getByLabel(/Image link or id/).inputValue()).toContain(made[2]!.id);

    // Back to the list: Escape closes the viewer and gives the focus back to the card that opened it.
    await page.goto(`${base}/dashboard/generations`);
    const first = page.getByRole('article').first(); // the video: its card opens the viewer like a picture's
    await first.getByRole('button', { name: /^Open / }).waitFor();
    await first.getByRole('button', { name: /^Open / }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(
      await first
        .getByRole('button', { name: /^Open / })
        .evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
    ).toBe(true);
    expect(new URL(page.url()).searchParams.has('result')).toBe(false);
    // nothing failed, the deleted result's file included: its card left the list when the API said yes
    expect(errors).toEqual([]);
  });

  it('at 390 px: the viewer fills the phone, the divider follows the mouse and the arrows, a swipe moves on, and Share uses the share sheet', async () => {
    const { account, made } = await accountWithResults('viewer-phone');
    // a phone's share sheet: the Web Share API, recorded
    const page = await pageFor(account, { width: 390, height: 844 }, () => {
      const g = globalThis as unknown as { navigator: { share?: unknown }; __shared: unknown[] };
      g.__shared = [];
      g.navigator.share = (data: unknown) => {
        g.__shared.push(data);
        return Promise.resolve();
      };
    });
    const errors = watchErrors(page);
    await page.goto(`${base}/dashboard/bikini`);
    const list = page.getByRole('list', { name: 'Your Bikini Generations' });
    const cards = list.getByRole('article');
    await cards.nth(2).waitFor();
    const picture = cards.nth(1).getByRole('img');
    await waitForImage(page, picture);
    expect(await whatCoversTheLabel(page, picture)).toEqual(['open-button']);
    expect(await cards.nth(1).locator('[data-result-title]').textContent()).toBe(made[1]!.title);

    await mouseClick(page, cards.nth(1).getByRole('button', { name: /^Open / }));
    const dialog = page.getByRole('dialog', { name: made[1]!.title });
    await dialog.waitFor();
    expect(await boxOf(page.locator('[data-result-viewer]'))).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    const slider = dialog.getByRole('slider', { name: 'Your photo and the result' });
    await waitForImage(page, dialog.getByRole('img', { name: 'Your photo' }));
    expect(await sliderValue(slider)).toBe(0); // the result whole, its label readable
    const gripAtRest = await boxOf(slider.locator('[data-grip]'));
    expect(gripAtRest.x).toBeGreaterThanOrEqual(0); // the grip is whole on the screen, at the edge

    // every action fits the phone's width, reachable without scrolling sideways
    for (const name of ['Download', 'Share', 'Delete', 'Previous result', 'Next result']) {
      const b = await boxOf(dialog.getByRole('button', { name }).last());
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(390);
      expect(b.y + b.height).toBeLessThanOrEqual(844);
    }
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'result-viewer-result-whole-390');
    expect(await axeViolations(page)).toEqual([]);

    // the divider, dragged with the mouse to three quarters; then the arrows
    const stage = await boxOf(dialog.locator('[data-before-after]'));
    await drag(
      page,
      { x: gripAtRest.x + gripAtRest.width / 2, y: gripAtRest.y + gripAtRest.height / 2 },
      { x: stage.x + stage.width * 0.75, y: gripAtRest.y + gripAtRest.height / 2 + 4 },
    );
    await shot(page, 'result-viewer-before-after-390');
    expect(await sliderValue(slider)).toBe(75);
    await page.keyboard.press('ArrowLeft');
    expect(await sliderValue(slider)).toBe(70);

    // a swipe to the left on the picture (away from the divider): the next result; to the right: back
    const y = stage.y + stage.height * 0.5;
    await drag(page, { x: stage.x + stage.width * 0.45, y }, { x: stage.x + stage.width * 0.45 - 150, y: y + 5 });
    await page.getByRole('dialog', { name: made[2]!.title }).getByText('3 of 3', { exact: true }).waitFor();
    const next = page.getByRole('dialog');
    const stage2 = await boxOf(next.locator('[data-viewer-stage]'));
    await drag(page, { x: stage2.x + 60, y }, { x: stage2.x + 260, y: y - 5 });
    await page.getByRole('dialog', { name: made[1]!.title }).getByText('2 of 3', { exact: true }).waitFor();

    // Share: the share sheet gets the app's link (never a file's)
    await mouseClick(page, page.getByRole('dialog').getByRole('button', { name: 'Share' }));
    await page.waitForFunction(() => (globalThis as unknown as { __shared: unknown[] }).__shared.length === 1);
    const shared = await page.evaluate(() => (globalThis as unknown as { __shared: { url: string; title: string }[] }).__shared[0]);
    expect(shared).toEqual({ title: made[1]!.title, url: `${base}/dashboard/generations?result=${made[1]!.id}` });
    expect(await page.getByText('Link copied').count()).toBe(0);

    // the close button closes it
    await mouseClick(page, page.getByRole('dialog').getByRole('button', { name: 'Close' }));
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('the generate checklist says what is missing before the click, refuses a 120x160 photo before upload (and so does the API), and "Complete!" replaces the start toast', async () => {
    const account = await createAccount(t, 'checklist', 'Checklist Tester');
    const page = await pageFor(account, { width: 1440, height: 900 });
    const errors = watchErrors(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /^\/api\/(uploads|generations)/.test(new URL(r.url()).pathname)) posts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${base}/dashboard/bikini`);
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await pickFreeTemplate(page);

    const checklist = page.locator('[data-generate-checklist]');
    const todo = () => checklist.locator('li:not([data-done])').allTextContents();
    await checklist.getByText('Before you generate').waitFor();
    expect(await todo()).toEqual([
      'To do: Add at least one photo of yourself',
      'To do: Choose a pose, or describe your own',
      'To do: Enough credits (the cost shows once you choose a pose)',
    ]);
    const button = page.locator('[data-generate-button]');
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    const described = await button.evaluate((el) => {
      const ids: string[] = ((el as unknown as { getAttribute(name: string): string | null }).getAttribute('aria-describedby') ?? '').split(
        ' ',
      );
      const doc = (globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }).document;
      return ids.map((id: string) => doc.getElementById(id)?.textContent ?? '').filter((text: string) => text.startsWith('To do'));
    });
    expect(described).toHaveLength(3);
    await mouseClick(page, button); // nothing is sent: the list beside it says why
    await page.waitForTimeout(300);
    expect(posts).toEqual([]);
    expect(await page.getByRole('alert').count()).toBe(0); // no toast repeating what the list says

    // a 120x160 photo: refused with guidance before any upload
    const tiny = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#c9a27e' } })
      .jpeg()
      .toBuffer();
    await page.getByLabel('Upload photos').setInputFiles({ name: 'tiny.jpg', mimeType: 'image/jpeg', buffer: tiny });
    await page.getByText(photoTooSmallMessage(120, 160)).first().waitFor();
    expect(await page.getByRole('img', { name: /^Your photo/ }).count()).toBe(0);
    expect(posts).toEqual([]);
    // the API refuses it too, with the same words, and charges nothing
    const refused = await t.http
      .post('/api/uploads')
      .set(bearer(account.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', tiny, { filename: 'tiny.jpg', contentType: 'image/jpeg' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(photoTooSmallMessage(120, 160));

    // a photo, the confirmation and a pose: the credit line is the one word on credits
    await uploadPhoto(page);
    await confirmPhotos(page);
    await pickPose(page);
    await checklist.getByText('Ready to generate').waitFor();
    await checklist.getByText('Enough credits: 1 credit of your 3 credits').waitFor();
    expect(await button.getAttribute('aria-disabled')).toBeNull();

    // with no credits left: one message, with a way to get more; the button waits
    await t.app.get(CreditsService).adjust({ userId: account.userId, mode: 'deduct', amount: 3, reason: 'test', actorId: account.userId });
    await page.reload();
    await pickFreeTemplate(page);
    await uploadPhoto(page);
    await confirmPhotos(page);
    await pickPose(page);
    await checklist.getByText('Not enough credits: this costs 1 credit, you have 0 credits').waitFor();
    expect(await page.getByText(/not enough credits|insufficient credits/i).count()).toBe(1);
    expect(await checklist.getByRole('link', { name: 'Get more credits' }).getAttribute('href')).toBe('/pricing');
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    await shot(page, 'generate-checklist-no-credits-1440');
    await mouseClick(page, button);
    await page.waitForTimeout(300);
    expect(posts).toEqual([]);

    // credits back: Generate; the start's toast is gone once "Complete!" shows
    await t.app.get(CreditsService).adjust({ userId: account.userId, mode: 'add', amount: 3, reason: 'test', actorId: account.userId });
    await page.reload();
    await pickFreeTemplate(page);
    await uploadPhoto(page);
    await confirmPhotos(page);
    await pickPose(page);
    await checklist.getByText('Ready to generate').waitFor();
    await mouseClick(page, button);
    await page.getByText('Generation started successfully').waitFor();
    await page.getByText(/Complete! Your new look is in/).waitFor({ timeout: 60_000 }); // a loaded machine
    await page.getByText('Generation started successfully').waitFor({ state: 'detached', timeout: 2_000 });
    expect(await page.getByRole('list', { name: 'Your Bikini Generations' }).getByRole('article').count()).toBe(1);
    expect(posts.filter((p) => p === '/api/uploads')).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
