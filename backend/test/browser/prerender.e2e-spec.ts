/**
 * The pre-rendered public pages (issue 17, item 1; docs/frontend-performance.md): the API serves
 * the landing page as HTML rendered with the live catalogue (hero heading, hero picture and its
 * preload, the catalogue's categories, the styles of the first paint, the catalogue as a data
 * block), renders it again when an admin changes the catalogue, and the browser hydrates it: no
 * console error, no catalogue request before the page is usable, and a real click on Get started
 * opens Create account as it always did. A signed-in visitor still ends with the studio's link.
 */
import { bearer, signUp, uniqueEmail } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { ownDatabase } from '../helpers/own-database';
import { createAccount, signedInContext, startUserApp, watchErrors } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

const HERO_TITLE = 'See Yourself in Any Outfit Before You Buy';
const NEW_NAME = 'Prerendered Moonlight Bikini';

interface Catalog {
  categories: { label: string; templateIds: string[] }[];
  templates: { id: string; name: string; thumbnail: string }[];
}

/** The HTML of a page as a client without JavaScript gets it, without its data block (the rendered markup only). */
async function servedPage(base: string, path: string): Promise<{ html: string; markup: string; contentType: string }> {
  const res = await fetch(`${base}${path}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  return {
    html,
    markup: html.replace(/<script id="page-data" type="application\/json">[\s\S]*?<\/script>/, ''),
    contentType: res.headers.get('content-type') ?? '',
  };
}

/** The browser window's scroll position and height, as read in the page. */
interface Viewport {
  scrollY: number;
  innerHeight: number;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('the pre-rendered public pages', () => {
  // an admin renames a template here: a database of its own
  const ownDb = ownDatabase('prerender');
  const adminEmail = uniqueEmail('prerender-admin');
  const contexts: BrowserContext[] = [];
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    await ownDb.create();
    ({ t, base } = await startUserApp({ ADMIN_EMAILS: adminEmail }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await ownDb.drop();
  });

  it('serves / as HTML with the hero, its picture preloaded, the live catalogue, the styles and the data block', async () => {
    const catalog: Catalog = (await t.http.get('/api/catalog').expect(200)).body;
    const { html, markup, contentType } = await servedPage(base, '/');
    expect(contentType).toMatch(/^text\/html/);
    // no other origin's window keeps a handle on the page (it becomes the signed-in app in place)
    expect((await fetch(`${base}/`)).headers.get('cross-origin-opener-policy')).toBe('same-origin');

    // the hero heading, in the root's markup
    expect(markup).toMatch(new RegExp(`<div id="root">[\\s\\S]*<h1[^>]*id="hero-title"[^>]*>${HERO_TITLE}</h1>`));
    // the hero picture: the first category's first template as WebP (decoded off the main thread),
    // sized, fetched first, and preloaded in the head
    const first = catalog.templates.find((x) => x.id === catalog.categories[0].templateIds[0])!;
    expect(first.thumbnail).toMatch(/\.svg\?v=/);
    const src = escapeHtml(first.thumbnail.replace('.svg?', '.webp?'));
    const img = markup.match(new RegExp(`<img[^>]*src="${src.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`))?.[0];
    expect(img).toBeDefined();
    expect(img).toMatch(/ fetchpriority="high"/i); // React writes the attribute fetchPriority (HTML ignores case)
    expect(img).toContain('width="300"');
    expect(img).toContain('height="400"');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<link rel="preload" as="image" href="${src}" fetchpriority="high">`);
    // no drawn picture of the page is an SVG: each would be a document built on the main thread
    expect(markup).not.toMatch(/<img[^>]*src="[^"]*\.svg/);
    // nor its tab icon: a PNG drawn from the brand's SVG, served as one
    const icon = head.match(/<link rel="icon" type="image\/png" sizes="32x32" href="([^"]+)"/);
    expect(icon).not.toBeNull();
    expect(head).not.toMatch(/<link rel="icon"[^>]*\.svg/);
    for (const [href, size] of [
      [icon![1], 32],
      [head.match(/<link rel="apple-touch-icon" href="([^"]+)"/)![1], 180],
    ] as const) {
      const res = await fetch(`${base}${href}`);
      expect({ href, status: res.status, type: res.headers.get('content-type') }).toEqual({ href, status: 200, type: 'image/png' });
      const png = Buffer.from(await res.arrayBuffer());
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]); // the IHDR's width and height
    }
    // every category of the live catalogue, rendered (not only in the data block)
    for (const { label } of catalog.categories) expect(markup).toContain(`>${escapeHtml(label)}<`);
    // the first paint's styles: Chakra's global styles and the classes the markup uses, in the head
    expect(head).toMatch(/<style data-emotion="css-prerendered [^"]+" data-s="">[^<]*--chakra-colors-/);
    const classStyles = head.match(/<style data-emotion="css ([^"]+)" data-s="">/);
    expect(classStyles).not.toBeNull();
    const firstClass = classStyles![1].split(' ')[0];
    expect(markup).toContain(`css-${firstClass}`);
    // the catalogue as a data block the browser seeds its query with; no inline script the CSP would block
    const block = html.match(/<script id="page-data" type="application\/json">([\s\S]*?)<\/script>/);
    expect(JSON.parse(block![1]).catalog).toEqual(catalog);
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    for (const tag of scripts) expect(tag).toMatch(/ src="|type="application\/json"/);

    // pricing and the legal pages are pre-rendered too; the auth dialog's URLs are not
    for (const [path, text] of [
      ['/pricing', 'Pricing'],
      ['/terms', 'Terms'],
      ['/privacy', 'Privacy'],
      ['/refund', 'Refund'],
    ]) {
      const page = await servedPage(base, path);
      expect({ path, rendered: /<div id="root"><[a-z]/.test(page.markup) }).toEqual({ path, rendered: true });
      expect(page.markup).toContain(text);
    }
    // the dialog's own URL: the page behind it inert, the Log in dialog open over it from the first paint
    const withDialog = (await servedPage(base, '/?auth=login')).html;
    expect(withDialog).toContain('<div id="root" inert>');
    expect(withDialog).toMatch(/data-mode="login"/);
  });

  it('shows an admin’s edit of the catalogue in the served HTML', async () => {
    const catalog: Catalog = (await t.http.get('/api/catalog').expect(200)).body;
    const before = (await servedPage(base, '/')).markup;
    // the page revalidates: 304 while nothing changed (fetch() would add Cache-Control: no-cache)
    const etag = (await t.http.get('/').expect(200)).headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    await t.http.get('/').set('If-None-Match', etag).expect(304);
    // a template whose name the landing page shows (the before/after cards)
    const shown = catalog.templates.find((x) => before.includes(`>${escapeHtml(x.name)}<`));
    expect(shown).toBeDefined();
    expect(before).not.toContain(NEW_NAME);

    const admin = await signUp(t.http, { email: adminEmail, full_name: 'Prerender Admin' });
    await t.http.patch(`/api/admin/templates/${shown!.id}`).set(bearer(admin.accessToken)).send({ name: NEW_NAME }).expect(200);

    const after = (await servedPage(base, '/')).markup;
    expect(after).toContain(`>${NEW_NAME}<`);
    await t.http.get('/').set('If-None-Match', etag).expect(200);
    expect(after).not.toContain(`>${escapeHtml(shown!.name)}<`);
  });

  it('hydrates / without a console error or a catalogue request, and Get started opens Create account', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const catalogRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/catalog') catalogRequests.push(r.url());
    });
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    // hydrated: React's event handlers are on the root (a pre-rendered page without them would not open the dialog)
    await page.getByRole('heading', { level: 1, name: HERO_TITLE }).waitFor();
    await mouseClick(page, page.getByRole('main').getByRole('link', { name: 'Get started', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Create account' });
    await dialog.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // still open a moment later (a hydration that re-rendered the page would close it)
    await page.waitForTimeout(1000);
    expect(await dialog.isVisible()).toBe(true);
    expect(catalogRequests).toEqual([]);
    expect(errors).toEqual([]);
  });

  /** A new phone-sized page on the landing page as served (its app not started yet). */
  async function landingOnPhone(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: HERO_TITLE }).waitFor();
    return { page, errors };
  }

  /** Whether the element is wholly inside the window. */
  const onScreen = (target: Locator) =>
    target.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= (globalThis as unknown as Viewport).innerHeight;
    });

  it('on a phone, a visitor who scrolls before the app is live stays where they scrolled once it is', async () => {
    const { page, errors } = await landingOnPhone();
    expect(await page.locator('html[data-app="ready"]').count()).toBe(0); // the page as served: the app not started
    // the reader scrolls down the page with the wheel; the first turn starts the app
    await page.mouse.move(195, 500);
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(60);
    }
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
    await page.waitForTimeout(1500);
    // the app took over the page where the reader was (it used to scroll them back to the top)
    expect(await page.evaluate(() => Math.round((globalThis as unknown as Viewport).scrollY))).toBeGreaterThanOrEqual(2000);
    expect(errors).toEqual([]);
  });

  it('on a phone, the End key brings the footer into view, it stays there, and a tap on Contact opens the form at its top', async () => {
    const { page, errors } = await landingOnPhone();
    await page.keyboard.press('End');
    const contact = page.getByRole('contentinfo').getByRole('link', { name: 'Contact / Report an image' });
    // the page has come to rest with the footer's link on screen (a still reading alone could be a
    // stalled frame mid-glide), and it is still there a moment later
    await page.waitForFunction(
      (link) => {
        const w = globalThis as unknown as Viewport & { lastY?: number };
        const still = w.lastY === w.scrollY;
        w.lastY = w.scrollY;
        const box = link.getBoundingClientRect();
        return still && box.top >= 0 && box.bottom <= w.innerHeight;
      },
      await contact.elementHandle(),
      { polling: 200, timeout: 15_000 },
    );
    expect(await onScreen(contact)).toBe(true);
    await page.waitForTimeout(800);
    expect(await onScreen(contact)).toBe(true);
    await mouseClick(page, contact);
    await page.waitForURL(`${base}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    // the new page opens at its top at once (it used to glide up from where the footer had been)
    expect(await page.evaluate(() => (globalThis as unknown as Viewport).scrollY)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('on a phone, Get started free at the foot of the page opens Create account, and closing it leaves the visitor there', async () => {
    const { page, errors } = await landingOnPhone();
    // the visitor has read down to the end of the page (their first key started the app), then taps
    await page.keyboard.press('End');
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
    const cta = page.getByRole('main').getByRole('link', { name: 'Get started free' });
    await mouseClick(page, cta);
    const dialog = page.getByRole('dialog', { name: 'Create account' });
    await dialog.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // back where they were: the call to action on screen (opening the dialog used to scroll the page to the top)
    expect(await onScreen(cta)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a signed-in visitor gets the pre-rendered page, then the studio’s link, without a console error', async () => {
    const person = await createAccount(t, 'prerender-visitor', 'Pre Render');
    const context = await signedInContext(browser, t, base, person, { width: 1440, height: 900 });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Open studio' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: HERO_TITLE }).waitFor();
    expect(errors).toEqual([]);
  });
});
