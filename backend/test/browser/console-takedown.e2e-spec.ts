import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { personPhoto } from '../../src/scripts/takedown-corpus';
import { STORAGE, type StoragePort } from '../../src/storage';
import { IMAGE_START, startGeneration, uploadPhoto, waitForEnd } from '../generations/generation-test-kit';
import { bearer, PASSWORD, signIn, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { launchBrowser, mouseClick, SCREENSHOT_DIR } from '../helpers/browser';
import { type TestApp } from '../helpers/test-app';
import { startUserApp } from '../helpers/user-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * "Report an image" in the console (issue 31, item 3): a copy with a sticker over the face looks
 * like two look-alike results (preview results of one template and scene, from look-alike photos of
 * two people), none clearly ahead. The admin opens the ticket, sees the kept copy beside each
 * candidate, picks the right one with the mouse, and takes it down; the other person's result stays.
 */
describe('the console: a reported copy beside its candidates', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let db: DataSource;
  let admin: SignedIn;
  let support: SignedIn;
  const contexts: BrowserContext[] = [];
  const adminEmail = uniqueEmail('takedown-admin');
  let reported: { id: string; key: string };
  let lookAlike: { id: string; key: string };
  let ticketId: string;
  const subject = `Please remove this ${Date.now()}`;

  async function generate(photo: Buffer): Promise<{ id: string; key: string; body: Buffer }> {
    const who = await signUp(t.http);
    await t.app.get(CreditsService).adjust({ userId: who.userId, mode: 'add', amount: 10, reason: 'test credits', actorId: who.userId });
    const res = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [await uploadPhoto(t, who, photo)] });
    expect(res.status).toBe(202);
    expect((await waitForEnd(t, who, res.body.id, 180_000)).status).toBe('completed');
    const [row] = await db.query(`SELECT result_key FROM user_generations WHERE id = $1`, [res.body.id]);
    return { id: res.body.id, key: row.result_key, body: (await t.app.get<StoragePort>(STORAGE).get(row.result_key)).body };
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.resolve(__dirname, '..', '..', '..', 'admin-ui', 'dist', 'index.html')))
      throw new Error('admin-ui/dist is missing: run `npm run build -w admin-ui` first');
    ({ t, base } = await startUserApp({ ADMIN_EMAILS: adminEmail, AI_POLL_INTERVAL_MS: '200' }));
    db = t.app.get(DataSource);
    browser = await launchBrowser();
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Takedown Admin' });
    support = await signUp(t.http, { full_name: 'Takedown Support' });
    await db.query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    support = await signIn(t.http, support.email);

    // two people photographed at the same place: the reported one's result, and another's look-alike
    const reportedResult = await generate(await personPhoto(31, 9));
    lookAlike = await generate(await personPhoto(32, 9));
    reported = reportedResult;
    // the copy shared elsewhere: a sticker over the person's face, shrunk and recompressed
    const { width, height } = await sharp(reportedResult.body).metadata();
    const stuck = await sharp(reportedResult.body)
      .composite([
        {
          input: Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width! * 0.35}" cy="${height! * 0.38}" r="${width! * 0.19}" fill="#ffcc00"/></svg>`,
          ),
        },
      ])
      .toBuffer();
    const copy = await sharp(stuck).resize(900).jpeg({ quality: 80 }).toBuffer();
    const res = await t.http
      .post('/api/support/inquiries')
      .field('name', 'Vic Tim')
      .field('email', uniqueEmail('victim'))
      .field('subject', subject)
      .field('message', 'Someone posted this picture of me with a sticker on it.')
      .field('kind', 'abuse_report')
      .attach('image', copy, { filename: 'copy.jpg', contentType: 'image/jpeg' })
      .expect(201);
    ticketId = res.body.id;
    const ticket = (await t.http.get(`/api/admin/support-inquiries/${ticketId}`).set(bearer(admin.accessToken)).expect(200)).body;
    // nobody was named: the admin must compare (both results are among the candidates)
    expect(ticket).toMatchObject({ generation_id: null, image_match: 'candidates' });
    expect(ticket.image_candidates.map((c: { generation_id: string }) => c.generation_id)).toEqual(
      expect.arrayContaining([reported.id, lookAlike.id]),
    );
  }, 400_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function consolePage(who: SignedIn): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email: who.email, password: PASSWORD } });
    expect(res.status()).toBe(200);
    const page = await context.newPage();
    page.on('response', async (r) => {
      if (r.url().includes('/api/') && r.status() >= 400)
        console.warn(`${r.request().method()} ${r.url()} -> ${r.status()} ${await r.text().catch(() => '')}`);
    });
    return page;
  }

  /**
   * A person's click on something they scrolled to the middle of the screen first: scrolled only
   * "into view", a button above the screen would end under the console's fixed app bar.
   */
  async function click(page: Page, target: Locator): Promise<void> {
    await target.waitFor();
    await target.evaluate((el) => (el as unknown as { scrollIntoView(o: { block: string }): void }).scrollIntoView({ block: 'center' }));
    await mouseClick(page, target);
  }

  /** The ticket, opened from the support list with the mouse. */
  async function openTicket(page: Page): Promise<void> {
    await page.goto(`${base}/admin/support-inquiries`);
    await page.waitForLoadState('networkidle');
    await mouseClick(page, page.getByRole('row').filter({ hasText: subject }).getByText(subject));
    await page.getByRole('heading', { level: 2, name: subject }).waitFor();
  }

  /** A picture that loaded: the browser decoded it (an image with pixels, not a broken link). */
  async function expectLoaded(picture: Locator): Promise<void> {
    await picture.waitFor();
    await picture.scrollIntoViewIfNeeded();
    await picture.evaluate(
      (img) =>
        new Promise<void>((resolve, reject) => {
          const el = img as unknown as { complete: boolean; naturalWidth: number; addEventListener(e: string, f: () => void): void };
          const settle = () => (el.naturalWidth > 0 ? resolve() : reject(new Error('the picture did not load')));
          if (el.complete) settle();
          else {
            el.addEventListener('load', settle);
            el.addEventListener('error', settle);
          }
        }),
    );
  }

  it('shows the admin the copy beside each candidate; the admin picks the right one and takes it down, the look-alike stays', async () => {
    const page = await consolePage(admin);
    await openTicket(page);
    const card = page.getByRole('region', { name: 'Reported image' });
    await card.getByText('none is clearly ahead', { exact: false }).waitFor();
    const candidates = page.getByRole('list', { name: 'Candidates' });
    const right = candidates.locator(`li[data-generation="${reported.id}"]`);
    const wrong = candidates.locator(`li[data-generation="${lookAlike.id}"]`);
    // each candidate beside the copy, both pictures loaded
    for (const candidate of [right, wrong]) {
      await expectLoaded(candidate.getByRole('img', { name: 'The copy the reporter sent' }));
      await expectLoaded(candidate.getByRole('img', { name: /^Candidate \d: generation / }));
    }
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'console-takedown-candidates.png'), fullPage: true });

    // the admin compares and clicks "This one" on the right candidate
    await click(page, right.getByRole('button', { name: `This one: generation ${reported.id}` }));
    await page.getByRole('alert').filter({ hasText: 'Result chosen: the ticket now names it' }).waitFor();
    await right.getByText('Named by the ticket').waitFor();
    const pair = page.getByTestId('reported-pair');
    await expectLoaded(pair.getByRole('img', { name: `Named result ${reported.id}` }));
    await expectLoaded(pair.getByRole('img', { name: 'The copy the reporter sent' }));
    expect((await t.http.get(`/api/admin/support-inquiries/${ticketId}`).set(bearer(admin.accessToken))).body).toMatchObject({
      generation_id: reported.id,
      image_match: 'chosen',
    });

    // then the takedown: the result, its photo and everything made from it
    await click(page, page.getByRole('button', { name: 'Remove generation' }));
    const confirm = page.getByRole('dialog', { name: 'Remove this generation?' });
    await mouseClick(page, confirm.getByRole('checkbox'));
    await mouseClick(page, confirm.getByRole('button', { name: 'Remove' }));
    await page
      .getByTestId('generation-removed')
      .filter({ hasText: `by ${admin.email}` })
      .waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'console-takedown-removed.png'), fullPage: true });
    expect(
      (await db.query(`SELECT id FROM user_generations WHERE id = ANY($1::uuid[])`, [[reported.id, lookAlike.id]])).map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual([lookAlike.id]);
    // the choice is not offered any more once the named result is gone
    expect(await page.getByRole('button', { name: /^This one/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'None of these' }).count()).toBe(0);
  }, 180_000);

  it('shows support the copy, not the results, and offers no choice', async () => {
    const page = await consolePage(support);
    await openTicket(page);
    const candidates = page.getByRole('list', { name: 'Candidates' });
    await candidates.waitFor();
    await expectLoaded(page.getByTestId('reported-pair').getByRole('img', { name: 'The copy the reporter sent' }));
    expect(await candidates.getByText('Only admins see the results').count()).toBeGreaterThan(0);
    expect(await page.locator('img[alt^="Candidate"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^This one/ }).count()).toBe(0);
  }, 120_000);
});
