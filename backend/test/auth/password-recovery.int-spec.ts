import { DataSource } from 'typeorm';
import { SessionsService } from '../../src/modules/auth/sessions.service';
import { UsersService } from '../../src/modules/users/users.service';
import { bearer, PASSWORD, refreshWith, signIn, signUp, uniqueEmail } from '../helpers/auth';
import { linkTo, outboxFiles, readOutbox, waitForIdleQueues, waitForMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

const RESET_REQUESTED = {
  message: 'If an account uses that email address, we have sent it a link to choose a new password. The link works for 1 hour.',
};
const INVALID_LINK = { statusCode: 400, code: 'INVALID_LINK', message: 'This link is invalid or has expired. Please ask for a new one.' };
const NEW_PASSWORD = 'copper-kettle-meadow-77';

/** "Forgot password?" and Settings' Change Password, against the real database, with the outbox as the mailbox. */
describe('password recovery and change', () => {
  let t: TestApp;
  let db: DataSource;
  let outbox: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    outbox = t.config.mail!.outboxDir;
  });
  afterAll(async () => t?.close());

  const forgot = (email: string) => t.http.post('/api/auth/password/forgot').send({ email });

  it('mails a single-use reset link; a new password ends every session and mails a notice', async () => {
    const person = await signUp(t.http, { full_name: 'Rita Reset' });
    const otherDevice = await signIn(t.http, person.email);
    const res = await forgot(` ${person.email.toUpperCase()} `);
    expect([res.status, res.body]).toEqual([202, RESET_REQUESTED]);
    const mail = await waitForMail(outbox, { to: person.email, template: 'password-reset' });
    expect(mail.headers.subject).toBe('Reset your Fitting Room password');
    const { url, token } = linkTo(mail, '/reset-password');
    expect(url.startsWith(`${t.config.appUrl}/reset-password?token=`)).toBe(true);

    const seen = outboxFiles(outbox);
    expect((await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD })).body).toEqual({
      message: 'Your password was changed. Please sign in with your new password.',
    });
    // every session ended: access tokens and refresh cookies of both devices
    for (const s of [person, otherDevice]) {
      expect((await t.http.get('/api/me').set(bearer(s.accessToken))).status).toBe(401);
      expect((await refreshWith(t.http, s.refreshToken)).status).toBe(401);
    }
    expect((await t.http.post('/api/auth/sign-in').send({ email: person.email, password: PASSWORD })).status).toBe(401);
    await signIn(t.http, person.email, NEW_PASSWORD);
    expect((await waitForMail(outbox, { to: person.email, template: 'password-changed', after: seen })).headers.subject).toBe(
      'Your Fitting Room password was changed',
    );
    // the link worked once
    expect((await t.http.post('/api/auth/password/reset').send({ token, password: 'yet-another-pass-99' })).body).toEqual(INVALID_LINK);
  });

  it('answers an unknown address exactly like a known one, in about the same time, and mails nothing', async () => {
    const person = await signUp(t.http);
    const nobody = uniqueEmail('nobody');
    const time = async (email: string) => {
      const t0 = process.hrtime.bigint();
      const res = await forgot(email);
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, answer: [res.status, res.body, res.headers['set-cookie'] ?? null] };
    };
    const known = [];
    const unknown = [];
    for (let i = 0; i < 9; i++) {
      known.push(await time(person.email));
      unknown.push(await time(nobody));
    }
    expect(new Set([...known, ...unknown].map((r) => JSON.stringify(r.answer))).size).toBe(1);
    // the fastest of each: a stalled machine only adds time, so the minimum leaves its pauses out
    const gap = Math.abs(Math.min(...known.map((r) => r.ms)) - Math.min(...unknown.map((r) => r.ms)));
    expect(gap).toBeLessThan(15); // the job, not the request, looks the address up
    await waitForIdleQueues(t.app);
    expect(readOutbox(outbox).filter((m) => m.headers.to?.includes(nobody))).toEqual([]);
  });

  it('refuses an expired link and a too common password, and changes nothing', async () => {
    const person = await signUp(t.http);
    await forgot(person.email).expect(202);
    const { token } = linkTo(await waitForMail(outbox, { to: person.email, template: 'password-reset' }), '/reset-password');
    expect((await t.http.post('/api/auth/password/reset').send({ token, password: 'password123' })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'password_reset'`, [
      person.userId,
    ]);
    expect((await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD })).body).toEqual(INVALID_LINK);
    await signIn(t.http, person.email, PASSWORD);
  });

  it('proves the address too: an unverified account that resets its password is verified', async () => {
    const person = await signUp(t.http, { verified: false });
    await forgot(person.email).expect(202);
    const { token } = linkTo(await waitForMail(outbox, { to: person.email, template: 'password-reset' }), '/reset-password');
    await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD }).expect(200);
    expect((await signIn(t.http, person.email, NEW_PASSWORD)).res.body.user.email_verified).toBe(true);
  });

  describe('Change Password in Settings', () => {
    it('needs the current password, keeps this session, ends the others, and mails a notice', async () => {
      const person = await signUp(t.http);
      const elsewhere = await signIn(t.http, person.email);
      const wrong = await t.http
        .post('/api/me/password')
        .set(bearer(person.accessToken))
        .send({ current_password: 'not-my-password', new_password: NEW_PASSWORD });
      expect(wrong.body).toEqual({ statusCode: 400, code: 'WRONG_PASSWORD', message: 'Your current password is not right.' });
      const seen = outboxFiles(outbox);
      const ok = await t.http
        .post('/api/me/password')
        .set(bearer(person.accessToken))
        .send({ current_password: PASSWORD, new_password: NEW_PASSWORD });
      expect(ok.status).toBe(200);
      await t.http.get('/api/me').set(bearer(person.accessToken)).expect(200);
      expect((await t.http.get('/api/me').set(bearer(elsewhere.accessToken))).status).toBe(401);
      expect((await refreshWith(t.http, elsewhere.refreshToken)).status).toBe(401);
      await signIn(t.http, person.email, NEW_PASSWORD);
      await waitForMail(outbox, { to: person.email, template: 'password-changed', after: seen });
    });

    it('tells a Google-only account how to get a password, and the reset link gives it one', async () => {
      const email = uniqueEmail('google-only');
      const user = await t.app.get(UsersService).createAccount({
        email,
        fullName: 'Gale Google',
        passwordHash: null,
        ageConfirmedAt: new Date(),
        googleSub: `sub-${email}`,
        emailVerifiedAt: new Date(),
      });
      const { accessToken } = await t.app.get(SessionsService).create(user, {});
      const res = await t.http
        .post('/api/me/password')
        .set(bearer(accessToken))
        .send({ current_password: 'anything-at-all', new_password: NEW_PASSWORD });
      expect(res.body).toEqual({
        statusCode: 400,
        code: 'NO_PASSWORD',
        message: 'Your account signs in with Google and has no password yet. Use “Forgot password?” on the sign-in dialog to set one.',
      });
      await forgot(email).expect(202);
      const { token } = linkTo(await waitForMail(outbox, { to: email, template: 'password-reset' }), '/reset-password');
      await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD }).expect(200);
      expect((await signIn(t.http, email, NEW_PASSWORD)).res.body.user).toMatchObject({ id: user.id, has_password: true });
    });
  });
});
