/**
 * The managed catalogue, end to end in both apps with a real mouse and keyboard: an admin uploads a
 * garment photo for a template and renames it in the console (and gives it a shop link); a person
 * in the user app sees the new name within seconds (reloading as a person would), generates with it
 * against the fake FASHN, and the vendor receives that photo, the stored re-encoded copy, byte for
 * byte; the result's Search button is then "Shop this look", opening the link in a new tab.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { STORAGE, type StoragePort } from '../../src/storage';
import { waitFor } from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail } from '../helpers/auth';
import { launchBrowser } from '../helpers/browser';
import { ownDatabase } from '../helpers/own-database';
import { createAccount, shot, signedInContext, startUserApp, uploadPhotoAndGenerate, waitForImage, watchErrors } from '../helpers/user-app';
import { FakeFashnServer } from '../providers/fake-fashn.server';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext } from 'playwright-core';

const OLD_NAME = 'Classic Black Bikini';
const NEW_NAME = 'Midnight Scoop Bikini';
const SHOP = 'https://shop.example/midnight-scoop';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the managed catalogue in the console and the user app', () => {
  // the edits show in every app of the run that reads the database: a database of its own
  const ownDb = ownDatabase('catalogue_browser');
  const vendor = new FakeFashnServer();
  const adminEmail = uniqueEmail('catalogue-console');
  const contexts: BrowserContext[] = [];
  let browser: Browser;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    await ownDb.create();
    await vendor.start();
    ({ t, base } = await startUserApp({
      AI_PROVIDER: 'fashn',
      FASHN_API_KEY: vendor.apiKey,
      FASHN_BASE_URL: vendor.baseUrl,
      AI_POLL_INTERVAL_MS: '200',
      ADMIN_EMAILS: adminEmail,
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await vendor.stop();
    await ownDb.drop();
  });

  it('an admin uploads a garment photo and renames a template; the person sees it and the vendor receives the photo', async () => {
    const admin = await signUp(t.http, { email: adminEmail, full_name: 'Catalogue Admin' });
    const person = await createAccount(t, 'catalogue-shopper', 'Shopper');
    const viewport = { width: 1440, height: 900 };

    // the person has the Bikini screen open: the old name
    const userContext = await signedInContext(browser, t, base, person, viewport);
    contexts.push(userContext);
    const userPage = await userContext.newPage();
    const userErrors = watchErrors(userPage);
    await userPage.goto(`${base}/dashboard/bikini`);
    const templates = userPage.getByRole('list', { name: 'Choose a Template' });
    await templates.getByText(OLD_NAME).waitFor();

    // the console: Templates, the row, the edit page
    const adminContext = await signedInContext(browser, t, base, admin, viewport);
    contexts.push(adminContext);
    const page = await adminContext.newPage();
    const adminErrors = watchErrors(page);
    await page.goto(`${base}/admin`);
    await page.getByRole('menuitem', { name: 'Templates' }).click();
    const row = page.getByRole('row').filter({ hasText: OLD_NAME });
    await row.waitFor();
    for (const column of ['Name', 'Category', 'Tier', 'Enabled', 'Order']) await page.getByRole('columnheader', { name: column }).waitFor();
    await waitForImage(page, row.locator('img').first());
    await shot(page, 'catalogue-00-console-templates');
    await row.getByText(OLD_NAME).click();
    await page.waitForURL(`${base}/admin/templates/bikini-black`);
    await page.getByText('No photo yet: AI vendors receive the illustrated artwork.').waitFor();

    // the garment photo: the button opens the file chooser
    const garment = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#1d2340' } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><path d="M150 200h300v120l-60 60h-180l-60-60z" fill="#0b0d18"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByText('Upload garment photo').click();
    await (await chooser).setFiles({ name: 'packshot.png', mimeType: 'image/png', buffer: garment });
    await page.getByText('Garment photo saved').waitFor();
    const photo = page.getByRole('img', { name: `Garment photo of ${OLD_NAME}` });
    await waitForImage(page, photo);

    // the thumbnail the catalogue shows: the button opens the file chooser
    const card = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#c43d5a' } })
      .jpeg()
      .toBuffer();
    const thumbChooser = page.waitForEvent('filechooser');
    await page.getByText('Upload thumbnail').click();
    await (await thumbChooser).setFiles({ name: 'card.jpg', mimeType: 'image/jpeg', buffer: card });
    await page.getByText('Thumbnail saved').waitFor();
    await waitForImage(page, page.getByRole('img', { name: `Thumbnail of ${OLD_NAME}` }));

    // the name and the shop link, with the keyboard; Save with the mouse
    const name = page.getByRole('textbox', { name: /^Name/ });
    await name.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(NEW_NAME);
    await page.getByRole('textbox', { name: /^Shop link/ }).click();
    await page.keyboard.type(SHOP);
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = Date.now();
    await page.getByText('Element updated').waitFor();
    await shot(page, 'catalogue-01-console-template-edit');

    // the user app: reloading, as a person would, until the new name shows
    await waitFor(
      'the new name in the user app',
      async () => {
        await userPage.reload();
        await templates.getByRole('listitem').first().waitFor();
        return (await templates.getByText(NEW_NAME).count()) > 0;
      },
      15_000,
      500,
    );
    const visibleAfterMs = Date.now() - saved;
    console.log(`the renamed template showed in the user app ${visibleAfterMs} ms after Save`);
    expect(visibleAfterMs).toBeLessThan(5_000);
    // with the uploaded thumbnail, which loads
    const cardImage = templates.getByRole('listitem').filter({ hasText: NEW_NAME }).locator('img').first();
    expect(await cardImage.getAttribute('src')).toMatch(/\/api\/catalog\/artwork\/bikini-black\.jpg\?v=/);
    await waitForImage(userPage, cardImage);

    // a generation with it: the fake FASHN receives the garment photo
    const item = templates.getByRole('listitem').filter({ hasText: NEW_NAME });
    await item.getByRole('button').first().click();
    await userPage.getByRole('heading', { name: 'Generate Your Look' }).waitFor();
    await uploadPhotoAndGenerate(userPage);
    const run = await waitFor('the vendor to be asked', async () => vendor.lastRun(), 20_000, 50);
    const garmentUrl = (run.body as { inputs: { garment_image: string } }).inputs.garment_image;
    const fetched = Buffer.from(await (await fetch(garmentUrl)).arrayBuffer());

    const db = t.app.get(DataSource);
    const [{ garment_key: key }] = await db.query(`SELECT garment_key FROM catalog_templates WHERE id = 'bikini-black'`);
    const stored = await t.app.get<StoragePort>(STORAGE).get(key);
    expect(sha256(fetched)).toBe(sha256(stored.body));
    // what was stored is the uploaded photo, re-encoded: same size, a JPEG, not the artwork
    const meta = await sharp(fetched).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 600, height: 800 });
    const [a, b] = await Promise.all([fetched, garment].map((x) => sharp(x).resize(30, 40).removeAlpha().raw().toBuffer()));
    const meanDiff = a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length;
    expect(meanDiff).toBeLessThan(4);

    // the result: Search is "Shop this look", a link that opens a new tab
    const done = await waitFor(
      'the generation to end',
      async () => {
        const res = await t.http.get('/api/generations').set(bearer(person.accessToken));
        const item = res.body.items?.[0];
        return item && item.status !== 'processing' ? item : undefined;
      },
      30_000,
      200,
    );
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
    await userPage.goto(`${base}/dashboard/generations`);
    const shop = userPage.getByRole('link', { name: 'Shop this look' });
    await shop.waitFor({ timeout: 30_000 });
    expect(await shop.getAttribute('href')).toBe(SHOP);
    expect(await shop.getAttribute('target')).toBe('_blank');
    expect(await shop.getAttribute('rel')).toBe('noopener noreferrer');
    await shot(userPage, 'catalogue-02-result-shop-this-look');
    expect(adminErrors).toEqual([]);
    expect(userErrors).toEqual([]);
  });

  it('an admin reprices a scene of every category with the keyboard; the catalogue serves the new price', async () => {
    const db = t.app.get(DataSource);
    const admin = await signUp(t.http, { email: uniqueEmail('catalogue-scenes'), full_name: 'Scenes Admin' });
    await db.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
    const catalogue = await t.http.get('/api/catalog').set(bearer(admin.accessToken));
    type Scene = { id: string; name: string; category: string | null; creditCost: number };
    const scene = (catalogue.body.scenes as Scene[]).find((x) => x.category === null)!;
    const context = await signedInContext(browser, t, base, admin, { width: 1440, height: 900 });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/admin`);
    await page.getByRole('menuitem', { name: 'Scenes' }).click();
    const row = page.getByRole('row').filter({ hasText: scene.name });
    await row.waitFor();
    for (const column of ['Name', 'Category', 'Tier', 'Credits', 'Enabled', 'Order'])
      await page.getByRole('columnheader', { name: column }).waitFor();
    await row.getByText(scene.name).click();
    await page.waitForURL(`${base}/admin/scenes/${scene.id}`);
    await page.getByText('every category').waitFor();
    await page.getByText('Upload reference photo').waitFor();

    const price = page.getByRole('spinbutton', { name: /^Credits \(image\)/ });
    await price.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(String(scene.creditCost + 2));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element updated').waitFor();
    const served = await waitFor(
      'the new price in the catalogue',
      async () => {
        const res = await t.http.get('/api/catalog').set(bearer(admin.accessToken));
        const found = (res.body.scenes as Scene[] | undefined)?.find((x) => x.id === scene.id);
        return found?.creditCost === scene.creditCost + 2 ? found : undefined;
      },
      10_000,
      200,
    );
    expect(served.creditCost).toBe(scene.creditCost + 2);
    expect(errors).toEqual([]);
  });
});
