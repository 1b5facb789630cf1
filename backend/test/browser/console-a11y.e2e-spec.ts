import { DataSource } from 'typeorm';
import { IMAGE_START, startGeneration, uploadPhoto, waitForEnd } from '../generations/generation-test-kit';
import { bearer, PASSWORD, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { axeFindings } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { type TestApp } from '../helpers/test-app';
import { startUserApp, VIEWPORTS } from '../helpers/user-app';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * axe-core on every page of the console (/admin), at a phone's and a desktop's width, with records
 * in it (a person with a generation, a ticket, a notification, mail in the outbox): no violation of
 * any impact, best practices included (one h1 a page, landmarks, contrast, names of controls).
 */
describe('accessibility of the console (axe)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let admin: SignedIn;
  let person: SignedIn;
  let generationId: string;
  let ticketId: string;
  let outboxId: string;
  const contexts: BrowserContext[] = [];
  const adminEmail = uniqueEmail('axe-console-admin');

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ ADMIN_EMAILS: adminEmail }));
    browser = await launchBrowser();
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Axe Admin' });
    person = await signUp(t.http, { full_name: 'Petra Person' });
    const photo = await uploadPhoto(t, person);
    const started = await startGeneration(t, person, { ...IMAGE_START, upload_ids: [photo] });
    expect(started.status).toBe(202);
    generationId = started.body.id;
    await waitForEnd(t, person, generationId);
    const ticket = await t.http
      .post('/api/support/inquiries')
      .set(bearer(person.accessToken))
      .send({ name: 'Petra Person', email: person.email, subject: 'Where is my picture?', message: 'It says completed.' })
      .expect(201);
    ticketId = ticket.body.id;
    // the list's every look: an open ticket (a tinted row) that is urgent, one due soon, one overdue
    const db = t.app.get(DataSource);
    for (const [subject, age, priority] of [
      ['Urgent question', 1, 'urgent'],
      ['Older question', 30, 'high'],
      ['Oldest question', 50, 'normal'],
    ] as const) {
      const asked = await t.http
        .post('/api/support/inquiries')
        .send({ name: 'Petra Person', email: person.email, subject, message: 'Hello?' })
        .expect(201);
      await db.query(`UPDATE support_inquiries SET priority = $2, created_at = now() - make_interval(hours => $3) WHERE id = $1`, [
        asked.body.id,
        priority,
        age,
      ]);
    }
    await t.app
      .get(DataSource)
      .query(`INSERT INTO system_notifications (type, title, message, severity) VALUES ('test', 'Queue slow', 'Jobs wait', 'warning')`);
    const outbox = await t.http.get('/api/admin/outbox').set(bearer(admin.accessToken)).expect(200);
    outboxId = outbox.body[0]?.id;
    expect(outboxId).toBeDefined();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** The page with its content: its one h1, nothing loading, animations ended. */
  async function settle(page: Page): Promise<string> {
    const h1 = page.locator('h1');
    await h1.first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle', { timeout: 15_000 });
    await page.getByRole('progressbar').first().waitFor({ state: 'hidden', timeout: 15_000 });
    await page.evaluate(async () => {
      const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
      await Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => undefined)));
    });
    expect(await h1.count()).toBe(1);
    return ((await h1.textContent()) ?? '').trim();
  }

  /** Each page, where it is, and a word its title (the page's h1, in the app bar) holds. */
  const PAGES: [string, () => string, RegExp][] = [
    ['Analytics', () => '/admin', /Analytics/],
    ['Users', () => '/admin/users', /Users/],
    ['a user', () => `/admin/users/${person.userId}/show`, /User/],
    ['Generations', () => '/admin/generations', /Generations/],
    ['a generation', () => `/admin/generations/${generationId}/show`, /Generation/],
    ['Support', () => '/admin/support-inquiries', /Support/i],
    ['a ticket', () => `/admin/support-inquiries/${ticketId}/show`, /Ticket/],
    ['Notifications', () => '/admin/notifications', /Notifications/],
    ['Payments', () => '/admin/payments', /Payments/],
    ['Stripe events', () => '/admin/stripe-events', /Stripe events/],
    ['Audit log', () => '/admin/audit-log', /Audit log/],
    ['Outbox', () => '/admin/outbox', /Outbox/],
    ['a message of the outbox', () => `/admin/outbox/${encodeURIComponent(outboxId)}/show`, /Outbox message/],
    ['Templates', () => '/admin/templates', /Templates/],
    ['a template', () => '/admin/templates/bikini-yellow', /Template/],
    ['a new template', () => '/admin/templates/create', /Template/],
    ['Scenes', () => '/admin/scenes', /Scenes/],
    ['a new scene', () => '/admin/scenes/create', /Scene/],
    ['Queues', () => '/admin/queues', /Queues/],
  ];

  describe.each(VIEWPORTS)('at $width px', (viewport) => {
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const signedIn = await context.request.post(`${base}/api/auth/sign-in`, { data: { email: admin.email, password: PASSWORD } });
      expect(signedIn.status()).toBe(200);
      page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
    });
    afterAll(() => expect(errors).toEqual([]));

    it.each(PAGES)('%s: nothing found', async (_name, where, title) => {
      const path = where();
      await page.goto(`${base}${path}`);
      const heading = await settle(page);
      expect({ path, heading }).toEqual({ path, heading: expect.stringMatching(title) });
      expect({ path, findings: await axeFindings(page) }).toEqual({ path, findings: [] });
      for (const frame of await page.locator('iframe[sandbox]').all()) expect(await frame.getAttribute('title')).toBeTruthy();
    });
  });
});
