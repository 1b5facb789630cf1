import * as fs from 'node:fs';
import * as path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { UPLOAD_MESSAGES } from '../../src/modules/uploads/image-intake';
import { STORAGE, type StoragePort } from '../../src/storage';
import { bearer, PASSWORD, signUp } from '../helpers/auth';
import { launchBrowser, mouseClick, screenshot } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';

/**
 * The public contact form (/contact) in a real browser: reports of an image on a phone (by its link,
 * then by a copy of it), a question from a signed-in person on a desktop.
 */
describe('the contact form', () => {
  let t: TestApp;
  let db: DataSource;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  function watchErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      // expected: the refresh without a session (401) and the refused email (400) of the last test
      if (/status of (401|400)/.test(m.text()) && /\/api\/(auth\/refresh|support\/inquiries)$/.test(m.location().url)) return;
      errors.push(`${m.text()} (${m.location().url})`);
    });
    return errors;
  }

  async function newPage(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    contexts.push(context);
    return context.newPage();
  }

  const field = (scope: Page | Locator, label: string): Locator => scope.getByLabel(new RegExp(`^${label}( \\*)?$`));

  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
      await Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => undefined)));
    });
    await screenshot(page, name);
  }

  async function horizontalOverflow(page: Page): Promise<number> {
    return page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
      return doc.documentElement.scrollWidth - (globalThis as unknown as { innerWidth: number }).innerWidth;
    });
  }

  /** axe-core: violations of impact serious or critical, as rule ids and targets. */
  async function seriousFindings(page: Page): Promise<string[]> {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** A real click (the shared one): the mouse moves onto the element's middle, presses and releases. */
  const click = mouseClick;

  /** Clicks into a field and types, key by key. */
  async function type(page: Page, target: Locator, text: string): Promise<void> {
    await click(page, target);
    await page.keyboard.type(text);
  }

  /** Clicks the file input and picks a file in the browser's file chooser. */
  async function chooseFile(page: Page, input: Locator, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    const chooser = page.waitForEvent('filechooser');
    await click(page, input);
    await (await chooser).setFiles(file);
  }

  const focusedName = (page: Page) =>
    page.evaluate(
      () =>
        (
          globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
        ).document.activeElement?.getAttribute('name') ?? null,
    );

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'frontend', 'dist', 'index.html'))) {
      throw new Error('frontend/dist is missing: run `npm run build -w frontend` (or `npm test` at the repository root)');
    }
    // the preview provider's results come quickly: a report can be about one
    t = await createTestApp({ SERVE_UI: 'true', AI_POLL_INTERVAL_MS: '200' });
    db = t.app.get(DataSource);
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('on a phone (390 px): reports an image from the footer link, with its link, and shows the confirmation', async () => {
    const page = await newPage(390, 844);
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact / Report an image' }).click();
    await page.waitForURL(`${base}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();

    // nothing filled in: the first field says what is missing and takes the focus
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Message is required').waitFor();
    expect(await focusedName(page)).toBe('name');

    await field(page, 'Name').fill('Rae Reporter');
    await field(page, 'Email').fill(`rae-${tag}@example.com`);
    await page.getByLabel(/What is it about\?/).selectOption({ label: 'Report an image' });
    await page.getByTestId('report-note').getByText('Reports start at high priority').waitFor();
    const generationId = '5a6b7c8d-1e2f-4a3b-9c4d-5e6f7a8b9c0d';
    await field(page, 'Image link or id \\(optional\\)').fill(`${base}/dashboard/generations/${generationId}`);
    await field(page, 'Subject').fill(`Please remove ${tag}`);
    await field(page, 'Message').fill('This picture shows me and I never agreed to it.');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'contact-report-form-390');
    expect(await seriousFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Send report' }).click();
    await page.getByRole('heading', { level: 1, name: 'Report received' }).waitFor();
    await page.getByText(`rae-${tag}@example.com`).waitFor();
    await page.getByText(/we review them first and remove images/).waitFor();
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string } } }).document.activeElement
            .textContent,
      ),
    ).toBe('Report received');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'contact-report-sent-390');

    const rows = await db.query(`SELECT kind, priority, status, generation_id, name, user_id FROM support_inquiries WHERE subject = $1`, [
      `Please remove ${tag}`,
    ]);
    expect(rows).toEqual([
      { kind: 'abuse_report', priority: 'high', status: 'open', generation_id: generationId, name: 'Rae Reporter', user_id: null },
    ]);
    expect(errors).toEqual([]);
  });

  it('on a phone (390 px): reports an image with a copy of it; a refused file says why, and the ticket names the generation the copy came from', async () => {
    // someone's result, made here by the preview provider from a photo of their own
    const owner = await signUp(t.http, { full_name: 'Owen Owner' });
    const photo = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#2d6a4f' } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect x="40" y="60" width="260" height="320" fill="#f4d35e"/><circle cx="420" cy="560" r="150" fill="#ee964b"/><rect x="80" y="520" width="120" height="220" fill="#0d3b66"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer();
    const upload = await t.http
      .post('/api/uploads')
      .set(bearer(owner.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', photo, { filename: 'me.jpg', contentType: 'image/jpeg' });
    expect(upload.status).toBe(201);
    const started = await t.http
      .post('/api/generations')
      .set(bearer(owner.accessToken))
      .send({
        type: 'image',
        category: 'bikini',
        template_id: 'bikini-yellow',
        scene_id: 'beach-standing',
        upload_ids: [upload.body.uploads[0].id],
      });
    expect(started.status).toBe(202);
    const deadline = Date.now() + 30_000;
    let status = '';
    while (status !== 'completed' && Date.now() < deadline) {
      status = (await t.http.get(`/api/generations/${started.body.id}`).set(bearer(owner.accessToken))).body.status;
      if (status === 'failed') throw new Error('the generation failed');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('completed');
    // the copy a victim found elsewhere: smaller, recompressed, its metadata gone
    const [{ result_key }] = await db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [started.body.id]);
    const stored = (await t.app.get<StoragePort>(STORAGE).get(result_key)).body;
    const copy = await sharp(stored).resize(480).jpeg({ quality: 72 }).toBuffer();
    expect((await sharp(copy).metadata()).xmp).toBeUndefined();

    const page = await newPage(390, 844);
    const errors = watchErrors(page);
    await page.goto(`${base}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    await type(page, field(page, 'Name'), 'Vera Victim');
    await type(page, field(page, 'Email'), `vera-${tag}@example.com`);
    await page.getByLabel(/What is it about\?/).selectOption({ label: 'Report an image' });
    const input = page.getByLabel('A copy of the image (optional)');
    await page.getByText('JPEG, PNG or WebP, under 10MB.', { exact: false }).waitFor();
    await type(page, field(page, 'Subject'), `Shared picture of me ${tag}`);
    await type(page, field(page, 'Message'), 'Someone shared this picture of me. I never made it.');

    // not an image: refused at once, in the API's words, and not kept
    await chooseFile(page, input, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await page.getByText(UPLOAD_MESSAGES.notAnImage).waitFor();
    expect(await page.getByRole('img', { name: 'The copy you attached' }).count()).toBe(0);

    // a file only the API can judge (a huge canvas in a small file): its message, as it says it
    const bomb = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#888' } })
      .jpeg({ quality: 10 })
      .toBuffer();
    await chooseFile(page, input, { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: bomb });
    await page.getByTestId('report-image').getByText('huge.jpg', { exact: false }).waitFor();
    await click(page, page.getByRole('button', { name: 'Send report' }));
    await page.getByRole('alert').filter({ hasText: UPLOAD_MESSAGES.implausible }).waitFor();
    await shot(page, 'contact-report-copy-refused-390');

    // Remove, then the copy itself: a preview shows what is sent
    await click(page, page.getByTestId('report-image').getByRole('button', { name: 'Remove' }));
    await page.getByTestId('report-image').waitFor({ state: 'detached' });
    await chooseFile(page, input, { name: 'shared-copy.jpg', mimeType: 'image/jpeg', buffer: copy });
    await page.getByRole('img', { name: 'The copy you attached' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: UPLOAD_MESSAGES.implausible }).count()).toBe(0); // about the other file
    await page.getByTestId('report-image').getByText('shared-copy.jpg', { exact: false }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'contact-report-copy-390');
    expect(await seriousFindings(page)).toEqual([]);

    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/support/inquiries' && r.method() === 'POST');
    await click(page, page.getByRole('button', { name: 'Send report' }));
    expect((await sent).headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    await page.getByRole('heading', { level: 1, name: 'Report received' }).waitFor();
    await page.getByText(`vera-${tag}@example.com`).waitFor();

    // the ticket names the generation the copy came from, found by its picture
    const rows = await db.query(`SELECT kind, priority, generation_id, image_match FROM support_inquiries WHERE subject = $1`, [
      `Shared picture of me ${tag}`,
    ]);
    expect(rows).toEqual([{ kind: 'abuse_report', priority: 'high', generation_id: started.body.id, image_match: 'hash' }]);
    expect(errors).toEqual([]);
  });

  it("on a desktop (1440 px): a signed-in person finds name and email filled in, sends a question, and sees the API's message for a refused address", async () => {
    const person = await signUp(t.http, { full_name: 'Quinn Question' });
    const page = await newPage(1440, 900);
    const errors = watchErrors(page);
    await page.goto(`${base}/?auth=login`);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await field(dialog, 'Email').fill(person.email);
    await field(dialog, 'Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/generations`);
    await page.getByRole('link', { name: 'Contact support' }).first().click();
    await page.waitForURL(`${base}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    expect(await field(page, 'Name').inputValue()).toBe('Quinn Question');
    expect(await field(page, 'Email').inputValue()).toBe(person.email);

    await page.getByLabel(/What is it about\?/).selectOption({ label: 'Billing' });
    await field(page, 'Subject').fill(`Invoice ${tag}`);
    await field(page, 'Message').fill('Could you send me an invoice for last month?');
    // an address the app's permissive check lets through but the API does not: its message is shown, focused
    await field(page, 'Email').fill('quinn@example..com');
    await page.getByRole('button', { name: 'Send message' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Please enter a valid email address' });
    await alert.waitFor();
    await shot(page, 'contact-error-1440');
    expect(await seriousFindings(page)).toEqual([]);

    await field(page, 'Email').fill(person.email);
    await shot(page, 'contact-form-1440');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('heading', { level: 1, name: 'Message sent' }).waitFor();
    await page.getByText(/We answer within 24-48 hours/).waitFor();
    await shot(page, 'contact-sent-1440');
    expect(await seriousFindings(page)).toEqual([]);

    const rows = await db.query(`SELECT kind, priority, user_id, email FROM support_inquiries WHERE subject = $1`, [`Invoice ${tag}`]);
    expect(rows).toEqual([{ kind: 'billing', priority: 'normal', user_id: person.userId, email: person.email }]);

    // and once more, from the confirmation
    await page.getByRole('button', { name: 'Send another message' }).click();
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    expect(await field(page, 'Subject').inputValue()).toBe('');
    expect(await field(page, 'Name').inputValue()).toBe('Quinn Question');
    expect(errors).toEqual([]);
  });
});
