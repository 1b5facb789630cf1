import { FULL_NAME_MAX_LENGTH, FullNameMessages } from '@fitting-room/shared/profile-rules';
import { DataSource } from 'typeorm';
import { bearer } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { type TestApp } from '../helpers/test-app';
import {
  type Account,
  createAccount,
  horizontalOverflow,
  pickFreeTemplate,
  portraitJpeg,
  shot,
  signedInContext,
  startUserApp,
  VIEWPORTS,
  watchErrors,
} from '../helpers/user-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * The rough edges a newcomer hits (issue 18, items 7-12), each tried as a person would: a freshly
 * loaded page, the real mouse and keyboard, at a 390 px phone and a 1440 px desktop.
 */
describe('rough edges a newcomer hits (issue 18, items 7-12)', () => {
  const APP_NAME = 'Fitting Room';
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ APP_NAME }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function signedOutPage(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    contexts.push(context);
    return context.newPage();
  }

  async function signedInPage(account: Account, viewport: { width: number; height: number }): Promise<Page> {
    const context = await signedInContext(browser, t, base, account, viewport);
    contexts.push(context);
    return context.newPage();
  }

  const click = mouseClick;

  /** Clicks into a field, selects what it holds and types over it, key by key. */
  async function retype(page: Page, field: Locator, text: string): Promise<void> {
    await click(page, field);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    if (text) await page.keyboard.type(text);
  }

  /** A link of the dashboard's navigation; at a phone's width it is in the menu drawer. */
  async function dashboardLink(page: Page, width: number, name: string): Promise<Locator> {
    if (width < 1024) await click(page, page.getByRole('button', { name: 'Open menu' }));
    return page
      .getByRole('navigation', { name: /Dashboard|Account/ })
      .getByRole('link', { name, exact: true })
      .last();
  }

  const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

  describe.each(VIEWPORTS.map((v) => [v.width, v] as const))('at %i px', (width, viewport) => {
    it('item 7: the brand in the top bar is whole, and the page does not scroll sideways', async () => {
      const page = await signedOutPage(viewport.width, viewport.height);
      const errors = watchErrors(page);
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const brand = page.getByRole('banner').getByRole('link', { name: APP_NAME });
      await brand.waitFor();
      const fit = await brand.evaluate((link) => {
        type El = { scrollWidth: number; clientWidth: number; innerText: string; querySelectorAll(s: string): ArrayLike<El> };
        const el = link as unknown as El;
        return [el, ...Array.from(el.querySelectorAll('*'))].map((e) => ({
          text: e.innerText ?? null,
          cut: e.scrollWidth > e.clientWidth,
        }));
      });
      expect(fit[0]!.text.trim()).toBe(APP_NAME);
      expect(fit.filter((f) => f.cut)).toEqual([]);
      // the whole name is on screen (not under the buttons)
      const box = (await brand.boundingBox())!;
      const nav = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(nav.x);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `rough-edges-brand-${width}`);
      expect(errors).toEqual([]);
    });

    it('item 8: signed out, Watch demo and the footer’s Demo open Create account with the reason', async () => {
      const page = await signedOutPage(viewport.width, viewport.height);
      await page.goto(`${base}/`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const signUp = page.getByRole('dialog', { name: 'Create account' });
      const why = 'The demo is your own try-on: create a free account, upload a photo and see yourself in any outfit.';

      await click(page, page.getByRole('link', { name: 'Watch demo' }));
      await signUp.waitFor();
      await expect(signUp.getByText(why).isVisible()).resolves.toBe(true);
      await expect(signUp.getByLabel(/^Full name/).isVisible()).resolves.toBe(true);
      await shot(page, `rough-edges-demo-${width}`);
      await page.keyboard.press('Escape');
      await signUp.waitFor({ state: 'hidden' });
      expect(new URL(page.url()).search).toBe('');

      await click(page, page.getByRole('contentinfo').getByRole('link', { name: 'Demo', exact: true }));
      await signUp.waitFor();
      await expect(signUp.getByText(why).isVisible()).resolves.toBe(true);
      expect(new URL(page.url()).pathname).toBe('/');
    });

    it('item 9: the profile form refuses an empty and a too long full name with clear messages', async () => {
      const account = await createAccount(t, `profile-name-${width}`, 'Ada Lovelace');
      const page = await signedInPage(account, viewport);
      await page.goto(`${base}/dashboard/profile`);
      const name = field(page, 'Full Name');
      await name.waitFor();
      await expect(name.inputValue()).resolves.toBe('Ada Lovelace');
      const save = page.getByRole('button', { name: 'Save Changes' });

      await retype(page, name, '');
      await click(page, save);
      await page.getByText(FullNameMessages.required).waitFor();
      await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');

      await retype(page, name, 'x'.repeat(300));
      await click(page, save);
      await page.getByText(`Full name must be at most ${FULL_NAME_MAX_LENGTH} characters`).waitFor();
      await shot(page, `rough-edges-full-name-${width}`);
      // nothing was saved
      const me = async () => (await t.http.get('/api/me').set(bearer(account.accessToken)).expect(200)).body.full_name;
      expect(await me()).toBe('Ada Lovelace');

      await retype(page, name, 'Augusta Ada King');
      await click(page, save);
      await page.getByText('Profile updated successfully').waitFor();
      expect(await page.getByText(FullNameMessages.tooLong).count()).toBe(0);
      expect(await me()).toBe('Augusta Ada King');
    });

    it('item 10: leaving Settings with unsaved changes asks first: Stay keeps them, Leave drops them', async () => {
      const account = await createAccount(t, `settings-leave-${width}`);
      const page = await signedInPage(account, viewport);
      await page.goto(`${base}/dashboard/settings`);
      const marketing = page.getByRole('switch', { name: 'Marketing Emails' });
      await marketing.waitFor({ state: 'attached' });
      await expect(marketing.isChecked()).resolves.toBe(false);
      await click(page, page.getByText('Marketing Emails', { exact: true }));
      await expect(marketing.isChecked()).resolves.toBe(true);

      const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
      await click(page, await dashboardLink(page, width, 'Profile'));
      await ask.waitFor();
      await shot(page, `rough-edges-unsaved-settings-${width}`);
      await click(page, ask.getByRole('button', { name: 'Stay on this page' }));
      await ask.waitFor({ state: 'hidden' });
      expect(new URL(page.url()).pathname).toBe('/dashboard/settings');
      await expect(marketing.isChecked()).resolves.toBe(true);

      await click(page, await dashboardLink(page, width, 'Profile'));
      await ask.waitFor();
      await click(page, ask.getByRole('button', { name: 'Leave without saving' }));
      await page.waitForURL(`${base}/dashboard/profile`);
      const saved = (await t.http.get('/api/me/settings').set(bearer(account.accessToken)).expect(200)).body;
      expect(saved.marketing_emails).toBe(false);

      // saved changes leave freely; the tab's own warning guards a reload or close while unsaved
      await page.goto(`${base}/dashboard/settings`);
      await marketing.waitFor({ state: 'attached' });
      await click(page, page.getByText('Marketing Emails', { exact: true }));
      await click(page, page.getByRole('button', { name: 'Save All Settings' }));
      await page.getByText('Settings saved successfully').waitFor();
      await click(page, await dashboardLink(page, width, 'Profile'));
      await page.waitForURL(`${base}/dashboard/profile`);
      expect(await ask.count()).toBe(0);

      await page.goto(`${base}/dashboard/settings`);
      await marketing.waitFor({ state: 'attached' });
      await click(page, page.getByText('Marketing Emails', { exact: true }));
      const dialogType = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.dismiss())));
      await page.close({ runBeforeUnload: true });
      await expect(dialogType).resolves.toBe('beforeunload');
    });

    it('item 11: a text file named .jpg is refused when added, with "Please upload image files only"', async () => {
      const account = await createAccount(t, `photo-bytes-${width}`);
      const page = await signedInPage(account, viewport);
      await page.goto(`${base}/dashboard/bikini`);
      await pickFreeTemplate(page);
      const input = page.getByLabel('Upload photos');
      await input.setInputFiles({
        name: 'holiday.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from('not a photo, just some text\n'.repeat(20)),
      });
      await page.getByText('Please upload image files only').waitFor();
      expect(await page.getByRole('img', { name: /^Your photo/ }).count()).toBe(0);
      await expect(page.getByRole('button', { name: 'Click to upload' }).isVisible()).resolves.toBe(true);
      await shot(page, `rough-edges-text-as-jpg-${width}`);

      // a real photo is still taken
      await input.setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
      await page.getByRole('img', { name: 'Your photo 1' }).waitFor();
      expect(await page.getByRole('img', { name: /^Your photo/ }).count()).toBe(1);
    });

    it('item 12: the Free plan says its results carry a watermark where it generates, and paid plans do not', async () => {
      const free = await createAccount(t, `watermark-free-${width}`);
      const page = await signedInPage(free, viewport);
      await page.goto(`${base}/dashboard/bikini`);
      await pickFreeTemplate(page);
      const note = page.getByText('Free plan results carry a visible watermark.');
      await note.waitFor();
      await shot(page, `rough-edges-watermark-note-${width}`);

      const paid = await createAccount(t, `watermark-paid-${width}`);
      await t.app.get(DataSource).query(`UPDATE users SET tier = 'starter' WHERE id = $1`, [paid.userId]);
      const paidPage = await signedInPage(paid, viewport);
      await paidPage.goto(`${base}/dashboard/bikini`);
      await pickFreeTemplate(paidPage);
      await paidPage.getByRole('heading', { name: 'Generate Your Look' }).waitFor();
      expect(await paidPage.getByText('Free plan results carry a visible watermark.').count()).toBe(0);
    });
  });

  it('item 12: the legal pages describe the Free plan as the product makes it (watermarked, not blurred), and the plan card’s video range is the catalogue’s', async () => {
    const page = await signedOutPage(1440, 900);
    const text = async (route: string) => {
      await page.goto(`${base}/${route}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      return (await page.getByRole('main').innerText()).replace(/\s+/g, ' ');
    };
    for (const route of ['terms', 'refund']) {
      const legal = await text(route);
      expect({ route, watermark: /Free plan[^.]*visible watermark[^.]*not blurred/.test(legal) }).toEqual({ route, watermark: true });
      expect({ route, preview: /free preview/i.test(legal) }).toEqual({ route, preview: false });
    }

    const catalog = (await t.http.get('/api/catalog').expect(200)).body as { plans: { id: string; features: string[] }[] };
    const glowUpVideo = catalog.plans.find((p) => p.id === 'glow_up')!.features.find((f) => f.startsWith('Video try-on'))!;
    expect(glowUpVideo).toBe('Video try-on (4-6 credits)');
    await page.goto(`${base}/pricing`);
    await page.getByRole('article').filter({ hasText: 'Glow Up Plan' }).getByText(glowUpVideo).waitFor();
  });
});
