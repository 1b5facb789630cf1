import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, SCREENSHOT_DIR, mouseClick } from '../helpers/browser';
import { type TestApp } from '../helpers/test-app';
import { createAccount, portraitJpeg, signedInContext, startUserApp, watchErrors } from '../helpers/user-app';
import type { Browser, BrowserContext, Locator } from 'playwright-core';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const PROCESSING = 'Creating your look (this may take 10-30 seconds)...';

/**
 * The running generation's controls stay usable (issue 18 item 6): a person scrolls just until the
 * Generate button shows at the bottom of the screen and clicks it. While "Generation started
 * successfully" is up, no toast covers Cancel, which the real mouse clicks; on a phone the stage
 * ("Creating your look (this may take 10-30 seconds)...") wraps in the button instead of being cut.
 */
describe('the running generation at 1440 and 390 px', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // the preview provider answers after 30 s, polled every 4 s: "Processing" stays a few seconds
    ({ t, base } = await startUserApp({ AI_POLL_INTERVAL_MS: '4000', AI_PREVIEW_DELAY_MS: '30000' }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const click = mouseClick;

  /** Waits until the element has stopped moving (the same place over a few frames): no scrolling under way. */
  async function settled(target: Locator): Promise<void> {
    let last = '';
    for (let same = 0; same < 3;) {
      await target.page().waitForTimeout(100);
      const box = JSON.stringify(await target.boundingBox());
      same = box === last ? same + 1 : 0;
      last = box;
    }
  }

  const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`at ${viewport.width} px: Cancel is not under a toast and takes the mouse; the stage is not cut`, async () => {
      const account = await createAccount(t, `running-${viewport.width}`, 'Running Person');
      const context = await signedInContext(browser, t, base, account, viewport);
      contexts.push(context);
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' }); // the panel comes into view at once, not smoothly
      const errors = watchErrors(page);
      await page.goto(`${base}/dashboard/bikini`);
      await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();

      // a free template, a photo, the 18+ confirmation and a 1-credit pose
      const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
      await click(page, templates.filter({ hasNotText: 'Locked' }).first().getByRole('button'));
      await page.getByRole('heading', { name: 'Generate Your Look' }).waitFor();
      await page.getByLabel('Upload photos').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
      await page.getByRole('img', { name: 'Your photo 1' }).waitFor();
      await click(page, page.getByText('These photos are of me and I am 18 or older'));
      await click(page, page.getByRole('group', { name: /Pose/ }).getByRole('button').filter({ hasText: '1 credit' }).first());

      // scrolled just until Generate shows at the bottom of the screen, as a person does, and clicked
      const generate = page.locator('[data-generate-button]');
      await settled(generate); // picking the template scrolled the panel into view
      await generate.evaluate((el) => (el as unknown as { scrollIntoView(o: unknown): void }).scrollIntoView({ block: 'end' }));
      await settled(generate);
      const box = (await generate.boundingBox())!;
      expect(box.y + box.height).toBeGreaterThan(viewport.height - 60);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
      await page.mouse.down();
      await page.mouse.up();

      // the green toast is up; Cancel is beside the stage, and no toast covers it
      // the toast: its title, in a stack, in the toast's box (one toast at a time: docs/product.md)
      const toast = page.getByText('Generation started successfully', { exact: true }).locator('xpath=../..');
      await toast.waitFor().catch(async (error: unknown) => {
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `running-generation-failed-${viewport.width}.png`) });
        throw error;
      });
      const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
      await cancel.waitFor();
      await generate.filter({ hasText: PROCESSING }).waitFor();
      await settled(toast); // the toast's entrance has ended
      const cancelBox = (await cancel.boundingBox())!;
      expect(cancelBox.y + cancelBox.height).toBeLessThanOrEqual(viewport.height);
      expect(cancelBox.y).toBeGreaterThanOrEqual(0);
      const toastBox = (await toast.boundingBox())!;
      expect({ toast: toastBox, cancel: cancelBox, overlap: overlaps(toastBox, cancelBox) }).toMatchObject({ overlap: false });

      // the stage is whole: not cut, not ellipsed, inside its button
      const stage = page.locator('[data-generate-stage]');
      expect((await stage.textContent())?.trim()).toBe(PROCESSING);
      const fit = await stage.evaluate((el) => {
        type Box = { scrollWidth: number; clientWidth: number; getBoundingClientRect(): { left: number; right: number } };
        const span = el as unknown as Box & { parentElement: Box };
        const style = (globalThis as unknown as { getComputedStyle(e: unknown): { textOverflow: string } }).getComputedStyle(el);
        return {
          span: span.scrollWidth <= span.clientWidth,
          button: span.parentElement.scrollWidth <= span.parentElement.clientWidth,
          inside: span.getBoundingClientRect().right <= span.parentElement.getBoundingClientRect().right + 0.5,
          ellipsis: style.textOverflow === 'ellipsis' && span.scrollWidth > span.clientWidth,
        };
      });
      expect(fit).toEqual({ span: true, button: true, inside: true, ellipsis: false });
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `running-generation-${viewport.width}.png`) });

      // the real mouse on Cancel, with the toast still up
      expect(await toast.isVisible()).toBe(true);
      await page.mouse.move(cancelBox.x + cancelBox.width / 2, cancelBox.y + cancelBox.height / 2, { steps: 3 });
      await page.mouse.down();
      await page.mouse.up();
      await page.getByText('Generation cancelled').waitFor();
      await generate.filter({ hasText: 'Generate Image' }).waitFor();
      expect(await cancel.count()).toBe(0);
      expect(errors).toEqual([]);
    });
  }
});
