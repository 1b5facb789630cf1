import * as fs from 'node:fs';
import * as path from 'node:path';
import { bearer, PASSWORD, signUp, signUpFromBefore, uniqueEmail, type SignedIn } from '../helpers/auth';
import { linkTo, outboxFiles, readOutbox, waitForIdleQueues, waitForMail } from '../helpers/mail';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Without SMTP the outbox ($DATA_DIR/mail) keeps every message: it goes with the person it was for.
 * Deleting an account deletes the files addressed to or naming the person, and the console's
 * Outbox page no longer lists them; when the address still has an owner (an unconfirmed account
 * removed because the owner proved the address), only that account's own mail goes.
 */
describe('mail files of a deleted account', () => {
  let t: TestApp;
  let outbox: string;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('mailfiles-admin');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: adminEmail });
    outbox = t.config.mail!.outboxDir;
    admin = await signUp(t.http, { email: adminEmail });
  });
  afterAll(async () => t?.close());

  /** The files of the outbox that name `email` anywhere (headers or parts). */
  const filesNaming = (email: string) => readOutbox(outbox).filter((m) => m.raw.toLowerCase().includes(email.toLowerCase()));
  /** Every message the console's Outbox page lists. */
  const listed = async () =>
    (await t.http.get('/api/admin/outbox').query({ range: '[0,999]' }).set(bearer(admin.accessToken)).expect(200)).body as {
      id: string;
      to: string;
    }[];

  it('deletes the files addressed to or naming the person, and the Outbox page stops listing them', async () => {
    const person = await signUp(t.http, { full_name: 'Mara Mailfile', verified: false });
    const { token } = linkTo(await waitForMail(outbox, { to: person.email, template: 'verify-email' }), '/verify-email');
    await t.http.post('/api/auth/verify-email').send({ token }).expect(200);
    await t.http.post('/api/auth/password/forgot').send({ email: person.email }).expect(202);
    await waitForMail(outbox, { to: person.email, template: 'password-reset' });
    // a mail of another module (written without the account's name on its file)
    await t.http
      .post(`/api/admin/users/${person.userId}/credits`)
      .set(bearer(admin.accessToken))
      .send({ mode: 'add', amount: 2, reason: 'a welcome gift' })
      .expect(200);
    await waitForMail(outbox, { to: person.email, template: 'account-notice' });
    const bystander = await signUp(t.http, { full_name: 'Bea Bystander', verified: false });
    const kept = await waitForMail(outbox, { to: bystander.email, template: 'verify-email' });
    await waitForIdleQueues(t.app);

    const before = filesNaming(person.email);
    expect(before.map((m) => m.headers['x-template']).sort()).toEqual(['account-notice', 'password-reset', 'verify-email']);
    expect((await listed()).filter((m) => m.to.includes(person.email))).toHaveLength(3);

    await t.http.delete('/api/me').set(bearer(person.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);

    expect(filesNaming(person.email)).toEqual([]);
    for (const m of before) expect(fs.existsSync(path.join(outbox, m.file))).toBe(false);
    expect((await listed()).filter((m) => m.to.includes(person.email))).toEqual([]);
    await t.http
      .get(`/api/admin/outbox/${encodeURIComponent(before[0].file)}`)
      .set(bearer(admin.accessToken))
      .expect(404);
    // nobody else's mail went with it
    expect(outboxFiles(outbox)).toContain(kept.file);
    expect((await listed()).map((m) => m.id)).toContain(kept.file);
  });

  it("removes only an unconfirmed account's own mail when the address's owner keeps it", async () => {
    const email = uniqueEmail('shared-box');
    await signUp(t.http, { email, full_name: 'Olive Owner', verified: false });
    const owners = await waitForMail(outbox, { to: email, template: 'verify-email' });
    const seen = outboxFiles(outbox);
    // a second sign-up of an address makes no account now: this one is from before
    await signUpFromBefore(t.app, { email, full_name: 'Not The Owner', password: 'strangers-own-pass-92' });
    const strangers = await waitForMail(outbox, { to: email, template: 'verify-email', after: seen });
    const before = outboxFiles(outbox);

    // the owner opens their link: the stranger's account is removed, and so is the mail written for it
    await t.http
      .post('/api/auth/verify-email')
      .send({ token: linkTo(owners, '/verify-email').token })
      .expect(200);
    const notice = await waitForMail(outbox, { to: email, template: 'sign-ups-removed', after: before });
    expect(fs.existsSync(path.join(outbox, strangers.file))).toBe(false);
    expect(filesNaming('Not The Owner')).toEqual([]);
    // the owner's mailbox keeps the link they opened and the notice
    expect(outboxFiles(outbox)).toEqual(expect.arrayContaining([owners.file, notice.file]));
  });
});
