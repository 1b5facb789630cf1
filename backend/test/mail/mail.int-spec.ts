import { freePort } from '../../src/common/free-port';
import { FakeSmtpServer } from '../fakes/fake-smtp-server';
import {
  createGenerationApp,
  GenerationApp,
  IMAGE_START,
  startGeneration,
  uploadPhoto,
  waitFor,
  waitForEnd,
} from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail } from '../helpers/auth';
import { linkTo, outboxFiles, readOutbox, waitForIdleQueues, waitForMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * Mail a person chose to get, the one-click unsubscribe, and the console's outbox: through the real
 * queue (in-process here), the real renderer and the outbox folder that stands in for SMTP.
 */
describe('mail a person chose to get', () => {
  let g: GenerationApp;
  let outbox: string;
  const adminEmail = uniqueEmail('outbox-admin');

  let admin: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    g = await createGenerationApp({
      driver: 'in-process',
      env: { ADMIN_EMAILS: adminEmail, AI_POLL_INTERVAL_MS: '100' },
    });
    outbox = g.config.mail!.outboxDir;
    admin = await signUp(g.http, { email: adminEmail });
  });
  afterAll(async () => g?.close());

  async function generate(who: Awaited<ReturnType<typeof signUp>>): Promise<string> {
    const upload = await uploadPhoto(g, who);
    const res = await startGeneration(g, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(res.status).toBe(202);
    const end = await waitForEnd(g, who, res.body.id);
    expect(end).toMatchObject({ status: 'completed', error: null });
    return res.body.id;
  }

  it('mails a finished generation with "Generation Notifications" on, with a one-click unsubscribe that needs no sign-in', async () => {
    const who = await signUp(g.http, { full_name: 'Gina Gen' });
    const id = await generate(who);
    const mail = await waitForMail(outbox, { to: who.email, template: 'generation-finished' });
    expect(mail.headers.subject).toBe('Your image is ready');
    // "See my image" opens the result in the app's viewer, behind the sign-in: never a file's link
    expect(mail.text).toContain(`See my image:\n${g.config.appUrl}/dashboard/generations?result=${id}`);
    expect(mail.text).not.toContain('/api/files/');
    // RFC 8058: both headers, an https-or-app URL, and a POST with List-Unsubscribe=One-Click turns it off
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'])![1];
    expect(unsubscribe.startsWith(`${g.config.appUrl}/api/mail/unsubscribe?token=`)).toBe(true);
    const url = new URL(unsubscribe);
    // the Unsubscribe link of the message itself (a GET, which the API route refuses) opens the
    // user app's page, which posts the same token when the person confirms
    const page = linkTo(mail, '/unsubscribe');
    expect(page.url.startsWith(`${g.config.appUrl}/unsubscribe?token=`)).toBe(true);
    expect(page.token).toBe(url.searchParams.get('token'));
    expect(mail.links.some((l) => l.includes('/api/mail/unsubscribe'))).toBe(false);
    const res = await g.http.post(`${url.pathname}${url.search}`).type('form').send('List-Unsubscribe=One-Click');
    expect(res.body).toEqual({ category: 'generation', message: 'You will no longer get generation notifications.' });
    expect((await g.http.get('/api/me/settings').set(bearer(who.accessToken))).body.generation_notifications).toBe(false);
    // the next generation is not mailed
    const seen = outboxFiles(outbox);
    await generate(who);
    await waitForIdleQueues(g.app);
    expect(readOutbox(outbox).filter((m) => !seen.includes(m.file) && m.headers.to?.includes(who.email))).toEqual([]);
    // a forged token changes nothing
    expect((await g.http.post('/api/mail/unsubscribe').send({ token: `${who.userId}.marketing.forged` })).status).toBe(400);
  });

  it('mails account notices only with "Email Notifications" on, and only to a verified address', async () => {
    const who = await signUp(g.http, { full_name: 'Nell Notice' });
    const add = () =>
      g.http
        .post(`/api/admin/users/${who.userId}/credits`)
        .set(bearer(admin.accessToken))
        .send({ mode: 'add', amount: 5, reason: 'sorry for the outage' })
        .expect(200);
    await add();
    const notice = await waitForMail(outbox, { to: who.email, template: 'account-notice' });
    expect(notice.headers.subject).toBe('5 credits added to your account');
    expect(notice.text).toContain('sorry for the outage');
    await g.http
      .put('/api/me/settings')
      .set(bearer(who.accessToken))
      .send({ email_notifications: false, generation_notifications: true, marketing_emails: false })
      .expect(200);
    const seen = outboxFiles(outbox);
    await add();
    const unverified = await signUp(g.http, { verified: false });
    await g.http
      .post(`/api/admin/users/${unverified.userId}/credits`)
      .set(bearer(admin.accessToken))
      .send({ mode: 'add', amount: 1, reason: 'x' })
      .expect(200);
    await waitForIdleQueues(g.app);
    const after = readOutbox(outbox).filter((m) => !seen.includes(m.file) && m.headers['x-template'] === 'account-notice');
    expect(after.filter((m) => m.headers.to?.includes(who.email) || m.headers.to?.includes(unverified.email))).toEqual([]);
  });

  it('sends an announcement only to verified accounts that opted in to marketing, each with a one-click unsubscribe', async () => {
    const optedIn = await signUp(g.http, { full_name: 'Mia Marketing' });
    const declined = await signUp(g.http);
    const unverified = await signUp(g.http, { verified: false });
    for (const who of [optedIn, unverified]) {
      await g.http
        .put('/api/me/settings')
        .set(bearer(who.accessToken))
        .send({ email_notifications: true, generation_notifications: true, marketing_emails: true })
        .expect(200);
    }
    const seen = outboxFiles(outbox);
    const res = await g.http
      .post('/api/admin/announcements')
      .set(bearer(admin.accessToken))
      .send({ subject: 'The Resort collection is here', body: 'Twelve new looks.\n\nTry them today.' });
    expect(res.status).toBe(202);
    expect(res.body.recipients).toBeGreaterThanOrEqual(1);
    const mail = await waitForMail(outbox, { to: optedIn.email, template: 'marketing', after: seen });
    expect(mail.headers.subject).toBe('The Resort collection is here');
    expect(mail.text).toContain('Twelve new looks.');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await waitForIdleQueues(g.app);
    const fresh = readOutbox(outbox).filter((m) => !seen.includes(m.file));
    expect(fresh.filter((m) => m.headers.to?.includes(declined.email) || m.headers.to?.includes(unverified.email))).toEqual([]);
    expect((await g.http.post('/api/admin/announcements').set(bearer(optedIn.accessToken)).send({ subject: 'x', body: 'y' })).status).toBe(
      403,
    );
    expect(
      (await g.http.post('/api/admin/announcements').set(bearer(admin.accessToken)).send({ subject: '', body: 'y' })).body,
    ).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it("lists the outbox in the console, newest first, with each message's links", async () => {
    const who = await signUp(g.http, { verified: false });
    await waitForMail(outbox, { to: who.email, template: 'verify-email' });
    const list = await g.http.get('/api/admin/outbox').query({ range: '[0,4]' }).set(bearer(admin.accessToken)).expect(200);
    expect(list.headers['content-range']).toMatch(/^outbox 0-\d\/\d+$/);
    const mine = list.body.find((m: { to: string }) => m.to.includes(who.email));
    expect(mine).toMatchObject({
      template: 'verify-email',
      subject: 'Confirm your email address for Fitting Room',
      links: expect.arrayContaining([expect.stringContaining('/verify-email?token=')]),
    });
    const names = list.body.map((m: { id: string }) => m.id);
    expect([...names].sort().reverse()).toEqual(names);
    const one = await g.http
      .get(`/api/admin/outbox/${encodeURIComponent(mine.id)}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(one.body.text).toContain('/verify-email?token=');
    expect(one.body.html).toContain('<a href=');
    expect((await g.http.get('/api/admin/outbox/..%2F..%2Fsecrets.json').set(bearer(admin.accessToken))).status).toBe(404);
    expect((await g.http.get('/api/admin/outbox').set(bearer(who.accessToken))).status).toBe(403);
  });
});

describe('mail through SMTP', () => {
  const smtp = new FakeSmtpServer();
  let t: TestApp;

  beforeAll(async () => {
    const port = await smtp.start();
    t = await createTestApp({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_SECURE: 'false',
      SMTP_FROM: 'Fitting Room <hello@fitting-room.test>',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  it('sends the same message the outbox would hold: text and HTML parts, RFC 5322 headers, no outbox file', async () => {
    const who = await signUp(t.http, { full_name: 'Sam Smtp', verified: false });
    const mail = await waitFor('the verification mail', async () => smtp.received.find((m) => m.to.includes(who.email)));
    expect(mail.from).toBe('hello@fitting-room.test');
    expect(mail.data).toMatch(/^From: "Fitting Room" <hello@fitting-room\.test>\r$/m);
    expect(mail.data).toMatch(/^Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d \+0000\r$/m);
    expect(mail.data).toMatch(/^Message-ID: <[0-9a-f]+@fitting-room\.test>\r$/m);
    expect(mail.data).toContain('Content-Type: text/plain; charset=utf-8');
    expect(mail.data).toContain('Content-Type: text/html; charset=utf-8');
    expect(mail.data).toMatch(/http:\/\/127\.0\.0\.1:3000\/verify-email\?token=[\w-]+\.[\w-]+/);
    expect(readOutbox(t.config.mail!.outboxDir)).toEqual([]);
  });
});

void freePort;
