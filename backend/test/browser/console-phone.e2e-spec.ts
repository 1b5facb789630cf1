import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { bearer, PASSWORD, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { launchBrowser, SCREENSHOT_DIR, mouseClick } from '../helpers/browser';
import { type TestApp } from '../helpers/test-app';
import { startUserApp } from '../helpers/user-app';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/** Where the console's screenshots at both widths go (test-output/ is gitignored). */
const SHOTS = path.join(SCREENSHOT_DIR, 'console-phone');

interface BrowserWindow {
  document: { documentElement: { scrollWidth: number }; getAnimations(): { finished: Promise<unknown> }[] };
  innerWidth: number;
  scrollTo(options: { top: number; behavior: 'instant' }): void;
}

interface Box {
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { left: number; right: number };
}

/** The outermost elements reaching past the right edge of the screen, by tag and class (for a failure's message). */
function widerThanScreen(elements: unknown[]): string[] {
  type El = { getBoundingClientRect(): { right: number }; parentElement: El | null; tagName: string; className: unknown };
  const inner = (globalThis as unknown as BrowserWindow).innerWidth;
  const over = (el: El) => el.getBoundingClientRect().right > inner + 0.5;
  return (elements as El[])
    .filter((el) => over(el) && !(el.parentElement && over(el.parentElement)))
    .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 3).join('.')}`)
    .slice(0, 10);
}

/**
 * The console on a phone (390 px) and a desktop (1440 px), issue 18 items 1 to 5: an admin reads
 * the dashboard (cancelled generations apart from failed ones), finds a user, adjusts credits (a
 * new mode clears the last amount and banner; "1 credit"), and answers an abuse report whose
 * generation is removed once (the ticket remembers it, by whom and when, after a reload). Every
 * page: no sideways scrolling of the page, titles not cut; screenshots of each at both widths.
 */
describe('the console on a phone and a desktop', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let db: DataSource;
  let admin: SignedIn;
  const contexts: BrowserContext[] = [];
  const adminEmail = uniqueEmail('phone-admin');

  beforeAll(async () => {
    if (!fs.existsSync(path.resolve(__dirname, '..', '..', '..', 'admin-ui', 'dist', 'index.html')))
      throw new Error('admin-ui/dist is missing: run `npm run build -w admin-ui` first');
    ({ t, base } = await startUserApp({ ADMIN_EMAILS: adminEmail }));
    db = t.app.get(DataSource);
    browser = await launchBrowser();
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Phone Admin' });
    fs.mkdirSync(SHOTS, { recursive: true });
    console.log(`console screenshots: ${SHOTS}`);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function consolePage(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
    contexts.push(context);
    const res = await context.request.post(`${base}/api/auth/sign-in`, { data: { email: admin.email, password: PASSWORD } });
    expect(res.status()).toBe(200);
    return context.newPage();
  }

  const click = mouseClick;

  /** The Mode select: opened with the mouse, the option clicked, and the menu gone before the next click. */
  async function pickMode(page: Page, form: Locator, mode: 'Add' | 'Deduct'): Promise<void> {
    await click(page, form.getByRole('combobox', { name: 'Mode' }));
    await click(page, page.getByRole('option', { name: mode, exact: true }));
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await form.getByRole('combobox', { name: 'Mode' }).filter({ hasText: mode }).waitFor();
    // the select takes the focus back as its menu's fade ends: a click elsewhere before that would lose it
    await page.waitForTimeout(500);
  }

  /** Types into a field the person clicked, after clearing what it held. */
  async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
    await click(page, field);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
  }

  /** The page does not scroll sideways, and neither the page's heading nor the app bar's title is cut. */
  async function expectFits(page: Page, heading: Locator): Promise<void> {
    await page.waitForTimeout(200); // responsive styles and lazy charts settle
    const overflow = await page.evaluate(() => {
      const w = globalThis as unknown as BrowserWindow;
      return w.document.documentElement.scrollWidth - w.innerWidth;
    });
    // on failure, the outermost elements that reach past the screen's edge say where to look
    const wide = overflow > 0 ? await page.locator('body *').evaluateAll(widerThanScreen) : [];
    expect({ overflow, wide }).toEqual({ overflow: expect.any(Number), wide: [] });
    expect(overflow).toBeLessThanOrEqual(0);
    for (const title of [heading, page.locator('#react-admin-title')]) {
      const fit = await title.evaluate((el) => {
        const box = el as unknown as Box;
        const w = globalThis as unknown as BrowserWindow;
        const rect = box.getBoundingClientRect();
        return { scroll: box.scrollWidth, client: box.clientWidth, right: rect.right, inner: w.innerWidth };
      });
      expect(fit.scroll).toBeLessThanOrEqual(fit.client);
      expect(fit.right).toBeLessThanOrEqual(fit.inner);
    }
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(async () => {
      const w = globalThis as unknown as BrowserWindow;
      w.scrollTo({ top: 0, behavior: 'instant' });
      await Promise.all(w.document.getAnimations().map((a) => a.finished.catch(() => undefined)));
    });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** A person with generations (one completed, one failed, one cancelled) and an abuse report about one of them. */
  async function fixtures(label: string): Promise<{ person: SignedIn; subject: string; ticketId: string }> {
    const person = await signUp(t.http, { full_name: `Phone Person ${label}` });
    const ids: string[] = [];
    for (const [status, error] of [
      ['completed', null],
      ['failed', 'Generation failed'],
      ['failed', 'Cancelled'],
    ] as const) {
      const [row] = await db.query(
        `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, error, tier)
         VALUES (gen_random_uuid(), $1, 'image', $2, 1, 'bikini', 'show the woman', '{}', $3, 60, 'preview', $4, 'free') RETURNING id`,
        [person.userId, status, status === 'completed' ? 'complete' : 'failed', error],
      );
      ids.push(row.id);
    }
    // a ticket whose subject is one long word, as real lists hold: it must not break the list on a phone
    await t.http.post('/api/support/inquiries').send({
      name: 'Long Subject',
      email: uniqueEmail('long'),
      subject: `${label}${'s'.repeat(150)}`,
      message: 'A subject with no place to wrap.',
    });
    const subject = `A reported look ${label} ${Date.now().toString(36)}`;
    const report = await t.http.post('/api/support/inquiries').send({
      name: 'Worried Reporter',
      email: uniqueEmail('reporter'),
      subject,
      message: 'This image shows me without my consent. Please take it down.',
      kind: 'abuse_report',
      generation_id: ids[1],
    });
    expect(report.status).toBe(201);
    return { person, subject, ticketId: report.body.id };
  }

  for (const width of [390, 1440]) {
    it(`at ${width} px: reads the dashboard, finds a user, adjusts credits and answers a ticket, with nothing cut or scrolling sideways`, async () => {
      const { person, subject, ticketId } = await fixtures(String(width));
      const page = await consolePage(width);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await journey(page, width, person, subject, ticketId);
      } catch (error) {
        await page.screenshot({ path: path.join(SHOTS, `failed-${width}.png`), fullPage: true }).catch(() => undefined);
        throw error;
      }
      expect(errors).toEqual([]);
    });
  }

  async function journey(page: Page, width: number, person: SignedIn, subject: string, ticketId: string): Promise<void> {
    {
      // The dashboard: cancelled generations apart from failed ones, and the rate without them.
      await page.goto(`${base}/admin`);
      const heading = page.getByRole('heading', { level: 1, name: 'Analytics' });
      await heading.waitFor();
      await page.locator('[data-stat="Cancelled"]').waitFor();
      const stats = (await t.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200)).body;
      expect(await page.locator('[data-stat="Cancelled"]').textContent()).toBe(stats.cancelled_generations.toLocaleString('en-US'));
      expect(await page.locator('[data-stat="Failed"]').textContent()).toBe(stats.failed_generations.toLocaleString('en-US'));
      expect(await page.locator('[data-stat="Success rate"]').textContent()).toBe(
        `${Math.round((stats.successful_generations / (stats.successful_generations + stats.failed_generations)) * 1000) / 10}%`,
      );
      await page.getByRole('img', { name: 'Successful, failed and cancelled generations per day' }).waitFor();
      await shot(page, `01-dashboard-${width}`);
      await expectFits(page, heading);
      // the charts' labels keep a readable size: the drawing is not shrunk below its own width
      for (const chart of await page.locator('svg[role="img"]').all()) {
        const scale = await chart.evaluate((el) => {
          const svg = el as unknown as { viewBox: { baseVal: { width: number } }; getBoundingClientRect(): { width: number } };
          return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        });
        expect(scale).toBeGreaterThanOrEqual(0.75);
      }

      // Users: the search box (typed into), the person's row, View.
      await page.goto(`${base}/admin/users`);
      const usersHeading = page.locator('#react-admin-title');
      await typeInto(page, page.getByPlaceholder('Search by email or name'), person.email);
      // a list's rows: table rows on a desktop, cards (list items) on a phone
      const record = (text: string) =>
        width < 600 ? page.getByRole('listitem').filter({ hasText: text }) : page.getByRole('row').filter({ hasText: text });
      const row = record(person.email);
      await row.waitFor();
      // the search has run (the list answers the filter, in the address too): only the person's row is left
      await page.waitForURL(/filter=/);
      await record(admin.email).waitFor({ state: 'detached' });
      await shot(page, `02-users-${width}`);
      await expectFits(page, usersHeading);
      await click(page, row.getByRole('link', { name: 'View' }));
      const adjust = page.getByRole('heading', { level: 2, name: 'Adjust credits' });
      await adjust.waitFor();
      const credits = Number(await page.getByTestId('user-credits').textContent());
      await expectFits(page, page.getByRole('heading', { level: 2, name: 'Profile' }));

      // Credits: a deduction larger than the balance is refused ...
      const form = page.getByRole('form', { name: 'Adjust credits' });
      await pickMode(page, form, 'Deduct');
      await typeInto(page, form.getByLabel('Amount'), '100000');
      await typeInto(page, form.getByLabel('Reason'), 'Testing the limit');
      await click(page, form.getByRole('button', { name: 'Deduct credits' }));
      const refused = page.getByRole('alert').filter({ hasText: 'Insufficient credits' });
      await refused.waitFor();
      // ... and switching the mode to Add clears the amount and the red banner: nothing stale to send
      await pickMode(page, form, 'Add');
      await form.getByRole('button', { name: 'Add credits' }).waitFor();
      await refused.waitFor({ state: 'detached' });
      expect(await form.getByLabel('Amount').inputValue()).toBe('');
      expect(await form.getByRole('button', { name: 'Add credits' }).isDisabled()).toBe(true);
      // one credit, said right
      await typeInto(page, form.getByLabel('Amount'), '1');
      await typeInto(page, form.getByLabel('Reason'), 'Goodwill');
      await click(page, form.getByRole('button', { name: 'Add credits' }));
      await page.getByRole('status').filter({ hasText: 'Successfully added 1 credit' }).waitFor();
      expect(await page.getByText('Successfully added 1 credits').count()).toBe(0);
      await page
        .getByTestId('user-credits')
        .filter({ hasText: String(credits + 1) })
        .waitFor();
      await shot(page, `03-user-details-${width}`);
      await expectFits(page, page.getByRole('heading', { level: 2, name: 'Profile' }));

      // The ticket: from the list, the row clicked.
      await page.goto(`${base}/admin/support-inquiries`);
      // the list has loaded (its first answer and any refetch) before the person picks a row
      await page.waitForLoadState('networkidle');
      await click(page, record(subject).getByText(subject));
      const ticketHeading = page.getByRole('heading', { level: 2, name: subject });
      await ticketHeading.waitFor();
      await expectFits(page, ticketHeading);

      // Remove the reported generation: confirmed, then the ticket says so, by whom and when
      await click(page, page.getByRole('button', { name: 'Remove generation' }));
      const confirm = page.getByRole('dialog', { name: 'Remove this generation?' });
      await click(page, confirm.getByRole('button', { name: 'Remove' }));
      const removed = page.getByTestId('generation-removed');
      await removed.filter({ hasText: `by ${admin.email}` }).waitFor();
      const ticket = (await t.http.get(`/api/admin/support-inquiries/${ticketId}`).set(bearer(admin.accessToken)).expect(200)).body;
      expect(ticket.generation_removed_by_email).toBe(admin.email);
      // a reload: still remembered, and the button is not offered again
      await page.reload();
      await ticketHeading.waitFor();
      await removed.filter({ hasText: `by ${admin.email}` }).waitFor();
      expect(await removed.textContent()).toContain(
        await page.evaluate((iso) => new Date(iso).toLocaleString(), ticket.generation_removed_at as string),
      );
      expect(await page.getByRole('button', { name: 'Remove generation' }).count()).toBe(0);

      // Answer it: a reply typed and sent.
      await typeInto(page, page.getByLabel('Reply to the requester'), 'We have removed the image. Thank you for telling us.');
      await click(page, page.getByRole('button', { name: 'Send reply' }));
      await page.getByRole('list', { name: 'Thread' }).getByText('We have removed the image.', { exact: false }).waitFor();
      await shot(page, `04-ticket-${width}`);
      await expectFits(page, ticketHeading);
    }
  }
});
