import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { bearer, signIn, signUp, signUpFromBefore, uniqueEmail } from '../helpers/auth';
import { linkTo, outboxFiles, readOutbox, waitForIdleQueues, waitForMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

const NOT_VERIFIED = {
  statusCode: 403,
  code: 'EMAIL_NOT_VERIFIED',
  message: 'Please confirm your email address first: open the link we emailed you, or ask for a new one.',
};
const INVALID_LINK = { statusCode: 400, code: 'INVALID_LINK', message: 'This link is invalid or has expired. Please ask for a new one.' };

/**
 * Email verification, end to end without SMTP: the mail a sign-up queues lands in the outbox
 * ($DATA_DIR/mail), its link verifies the address once, and until then the account may browse but
 * not upload or generate. ADMIN_EMAILS waits for the proof too.
 */
describe('email verification', () => {
  let t: TestApp;
  let db: DataSource;
  let outbox: string;
  const listedAdmin = uniqueEmail('listed-admin');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: listedAdmin });
    db = t.app.get(DataSource);
    outbox = t.config.mail!.outboxDir;
  });
  afterAll(async () => t?.close());

  const photo = () =>
    sharp({ create: { width: 400, height: 400, channels: 3, background: '#a87' } })
      .jpeg()
      .toBuffer();
  const upload = async (token: string) =>
    t.http
      .post('/api/uploads')
      .set(bearer(token))
      .field('confirm_own_photos', 'true')
      .attach('files', await photo(), { filename: 'me.jpg', contentType: 'image/jpeg' });

  it('mails a single-use link on sign-up; until it is opened the account browses but cannot upload or generate', async () => {
    const person = await signUp(t.http, { full_name: 'Vera Verify', verified: false });
    expect(person.res.body.user.email_verified).toBe(false);
    const mail = await waitForMail(outbox, { to: person.email, template: 'verify-email' });
    expect(mail.headers.subject).toBe('Confirm your email address for Fitting Room');
    expect(mail.text).toContain('Hi Vera Verify,');
    expect(mail.raw).toMatch(/^Date: /m);
    expect(mail.raw).toMatch(/^From: "Fitting Room" <support@127\.0\.0\.1>$/m);
    const { url, token } = linkTo(mail, '/verify-email');
    expect(url.startsWith(`${t.config.appUrl}/verify-email?token=`)).toBe(true);
    // only a hash of the link is stored
    const stored = await db.query(`SELECT token_hash FROM auth_tokens WHERE user_id = $1`, [person.userId]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token.split('.')[0]);

    // browsing works; uploading and generating do not, with the catalogue's message
    await t.http.get('/api/me').set(bearer(person.accessToken)).expect(200);
    await t.http.get('/api/generations').set(bearer(person.accessToken)).expect(200);
    expect((await upload(person.accessToken)).body).toEqual(NOT_VERIFIED);
    expect((await t.http.post('/api/generations').set(bearer(person.accessToken)).send({})).body).toEqual(NOT_VERIFIED);
    expect(await db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [person.userId])).toEqual([{ n: 0 }]);

    // the link, once: the same session may now upload
    expect((await t.http.post('/api/auth/verify-email').send({ token })).body).toEqual({
      message: 'Your email address is confirmed.',
      starts_afresh: false,
    });
    expect((await t.http.get('/api/me').set(bearer(person.accessToken))).body.email_verified).toBe(true);
    expect((await upload(person.accessToken)).status).toBe(201);
    expect((await t.http.post('/api/auth/verify-email').send({ token })).body).toEqual(INVALID_LINK);
  });

  it('refuses a forged, altered or expired link, and changes nothing', async () => {
    const person = await signUp(t.http, { verified: false });
    const { token } = linkTo(await waitForMail(outbox, { to: person.email, template: 'verify-email' }), '/verify-email');
    const [secret, signature] = token.split('.');
    for (const bad of [
      '',
      'nonsense',
      `${secret}.${(signature.startsWith('A') ? 'B' : 'A').repeat(signature.length)}`,
      // one character of the secret changed (to another one: it may be an "A" already); the first, whose
      // bits all count (the last character of base64 may carry unused bits)
      `${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}.${signature}`,
      `${token}.extra`,
    ]) {
      expect((await t.http.post('/api/auth/verify-email').send({ token: bad })).body).toMatchObject({ statusCode: 400 });
    }
    await db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [person.userId]);
    expect((await t.http.post('/api/auth/verify-email').send({ token })).body).toEqual(INVALID_LINK);
    expect((await t.http.get('/api/me').set(bearer(person.accessToken))).body.email_verified).toBe(false);
  });

  it('mails a new link on "Resend" (the older one stops working), at most 5 an hour per account, always answering the same', async () => {
    const person = await signUp(t.http, { verified: false });
    const first = await waitForMail(outbox, { to: person.email, template: 'verify-email' });
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const seen = outboxFiles(outbox);
      const res = await t.http.post('/api/auth/verify-email/resend').set(bearer(person.accessToken)).send({});
      answers.push([res.status, res.body]);
      if (i < 4) await waitForMail(outbox, { to: person.email, template: 'verify-email', after: seen });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([202, { message: 'We have sent a new confirmation link. Please check your inbox.' }]);
    await waitForIdleQueues(t.app);
    const sent = readOutbox(outbox).filter((m) => m.headers.to?.includes(person.email) && m.headers['x-template'] === 'verify-email');
    expect(sent).toHaveLength(5); // the sign-up's and four resends: the fifth and sixth of the hour were not sent
    expect((await t.http.post('/api/auth/verify-email').send({ token: linkTo(first, '/verify-email').token })).body).toEqual(INVALID_LINK);
    expect((await t.http.post('/api/auth/verify-email').send({ token: linkTo(sent[4], '/verify-email').token })).status).toBe(200);
  });

  it('makes no second account for an address someone owns: the owner is mailed sign in and a reset link, nobody is signed in', async () => {
    const owner = await signUp(t.http, { full_name: 'Olive Owner' });
    const before = outboxFiles(outbox);
    const res = await t.http
      .post('/api/auth/sign-up')
      .send({ full_name: 'Someone Else', email: owner.email.toUpperCase(), password: 'strangers-own-pass-83', age_confirmed: true });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: `We've sent a link to ${owner.email}. Please check your inbox to continue.`, check_email: true });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await db.query(`SELECT id FROM users WHERE email = $1`, [owner.email])).toEqual([{ id: owner.userId }]);
    const notice = await waitForMail(outbox, { to: owner.email, after: before });
    expect(notice.headers['x-template']).toBe('sign-up-attempt');
    expect(notice.text).toContain('Hi Olive Owner,');
    expect(notice.text).toContain('we did not create another one and nobody was signed in');
    // its reset link works (and is the owner's: the owner's password changes)
    await t.http
      .post('/api/auth/password/reset')
      .send({ token: linkTo(notice, '/reset-password').token, password: 'owners-new-password-61' })
      .expect(200);
    expect((await signIn(t.http, owner.email, 'owners-new-password-61')).userId).toBe(owner.userId);
    await waitForIdleQueues(t.app);
    expect(
      readOutbox(outbox).filter(
        (m) => !before.includes(m.file) && m.headers['x-template'] === 'verify-email' && m.headers.to?.includes(owner.email),
      ),
    ).toEqual([]);
  });

  it('gives the address to the account whose link is opened first, and removes the other unverified accounts of it', async () => {
    // (test/auth/address-owner.int-spec.ts: that account starts afresh, and the address is told)
    const email = uniqueEmail('race');
    const a = await signUp(t.http, { email, full_name: 'First', verified: false });
    const aLink = linkTo(await waitForMail(outbox, { to: email, template: 'verify-email' }), '/verify-email');
    const seen = outboxFiles(outbox);
    // (a second sign-up of an address makes no account now: this one is from before)
    const b = await signUpFromBefore(t.app, { email, full_name: 'Second', password: 'second-unusual-pass-4' });
    const bLink = linkTo(await waitForMail(outbox, { to: email, template: 'verify-email', after: seen }), '/verify-email');
    await t.http.post('/api/auth/verify-email').send({ token: aLink.token }).expect(200);
    expect(await db.query(`SELECT id, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1`, [email])).toEqual([
      { id: a.userId, verified: true },
    ]);
    expect((await t.http.get('/api/me').set(bearer(b.accessToken))).status).toBe(401);
    expect((await t.http.post('/api/auth/sign-in').send({ email, password: 'second-unusual-pass-4' })).status).toBe(401);
    expect((await t.http.post('/api/auth/verify-email').send({ token: bLink.token })).body).toEqual(INVALID_LINK);
  });

  it('makes an admin of an ADMIN_EMAILS address only once its owner proved it', async () => {
    const stranger = await signUp(t.http, { email: listedAdmin, full_name: 'Would-be Admin', verified: false });
    expect(stranger.res.body.user.role).toBe('user');
    expect((await t.http.get('/api/admin/users').set(bearer(stranger.accessToken))).status).toBe(403);
    const again = await signIn(t.http, listedAdmin);
    expect(again.res.body.user.role).toBe('user');
    // a restart with the list does not promote it either
    const restarted = await createTestApp({ ADMIN_EMAILS: listedAdmin });
    try {
      expect((await restarted.http.get('/api/auth/is-admin').set(bearer(again.accessToken))).body).toEqual({ is_admin: false });
    } finally {
      await restarted.close();
    }
    // the mailbox's owner opens the link: now it is an admin
    const { token } = linkTo(await waitForMail(outbox, { to: listedAdmin, template: 'verify-email' }), '/verify-email');
    await t.http.post('/api/auth/verify-email').send({ token }).expect(200);
    expect((await t.http.get('/api/auth/is-admin').set(bearer(again.accessToken))).body).toEqual({ is_admin: true });
  });
});
