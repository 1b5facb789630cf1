import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { launchBrowser, screenshot } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import type { AddressInfo } from 'node:net';
import type { Browser, ConsoleMessage } from 'playwright-core';

/** The whole product on one port, as `npm start` serves it, seen through a real browser. */
describe('one port serves the user app, the console and the API docs', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    for (const ui of ['frontend', 'admin-ui']) {
      if (!fs.existsSync(path.join(REPO_ROOT, ui, 'dist', 'index.html'))) {
        throw new Error(
          `${ui}/dist is missing: run \`npm test\` at the repository root (it builds the apps first) or \`npm run build -w ${ui}\``,
        );
      }
    }
    t = await createTestApp({ SERVE_UI: 'true' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each([
    [390, 844],
    [1440, 900],
  ])('the landing page renders its hero at %i px without errors', async (width, height) => {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    expect(await page.title()).toContain('Fitting Room');
    const overflow = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number }).document.documentElement
          .scrollWidth - (globalThis as unknown as { innerWidth: number }).innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, `foundation-landing-${width}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves client-side routes from the app shell and shows a not-found page for unknown ones', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${base}/no-such-page`);
    expect(res?.status()).toBe(200);
    await page
      .getByText(/page not found/i)
      .first()
      .waitFor();
    await page.close();
  });

  it('serves the console at /admin', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The console's own shell is served at /admin ...
    const html = await (await fetch(`${base}/admin`)).text();
    expect(html).toMatch(/src="\/admin\/assets\/[^"]+\.js"/);
    // ... and, having no login of its own, it sends a visitor without a session to Log in on the
    // landing page, to come back after (console.e2e-spec.ts covers the signed-in roles).
    await page.goto(`${base}/admin`);
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('auth') === 'login');
    await screenshot(page, 'foundation-admin');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves Swagger UI at /api/docs listing the health route', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${base}/api/docs`);
    await page.getByText('/api/health').first().waitFor();
    await screenshot(page, 'foundation-api-docs');
    await page.close();
  });

  it('answers a missing asset with 404, not the app shell, and caches hashed assets for a year', async () => {
    const missing = await fetch(`${base}/assets/nope.js`);
    expect(missing.status).toBe(404);
    const html = await (await fetch(`${base}/`)).text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeDefined();
    const res = await fetch(`${base}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends the app and its data compressed (brotli, else gzip, as the browser accepts), the same bytes once decoded', async () => {
    const html = await (await fetch(`${base}/`)).text();
    const asset = html.match(/\/assets\/[^"]+\.js/)![0];
    const plain = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const original = await plain.text();
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const res = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await res.text()).toBe(original); // fetch decodes it
    }
    const page = await fetch(`${base}/pricing`, { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    // the landing page's data too (event streams never: src/bootstrap/compression.spec.ts)
    const catalog = await fetch(`${base}/api/catalog`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(catalog.headers.get('content-encoding')).toBe('br');
  });
});

describe('the product name is one setting (APP_NAME)', () => {
  it('reaches the page title before scripts run and the wordmark after', async () => {
    const t = await createTestApp({ SERVE_UI: 'true', APP_NAME: 'Atelier <Test>' });
    const browser = await launchBrowser();
    try {
      await t.app.listen(0, '127.0.0.1');
      const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      const html = await (await fetch(`${base}/`)).text();
      expect(html).toContain('<title>Atelier &lt;Test&gt;</title>');
      expect(html).toMatch(
        /<script id="app-config" type="application\/json">\{"appName":"Atelier \\u003cTest>","supportEmail":"[^"]+@[^"]+","businessEmail":"[^"]+@[^"]+","uploadRetentionDays":30\}<\/script>/,
      );
      const page = await browser.newPage();
      await page.goto(`${base}/`);
      await page.getByRole('banner').getByText('Atelier <Test>').first().waitFor();
      expect(await page.title()).toContain('Atelier <Test>');
      expect(await page.getByText('Fitting Room').count()).toBe(0);
    } finally {
      await browser.close();
      await t.close();
    }
  });
});
