import { DataSource } from 'typeorm';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../src/modules/auth/two-factor/totp';
import { bearer, cookieValue, PASSWORD, signUp, turnOnTwoFactor, uniqueEmail } from '../helpers/auth';
import { outboxFiles, waitForMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

const INVALID_CODE = {
  statusCode: 400,
  code: 'INVALID_CODE',
  message: 'That code is not right. Please check your authenticator app and try again.',
};
const MFA_EXPIRED = {
  statusCode: 401,
  code: 'MFA_EXPIRED',
  message: 'Your sign-in took too long or had too many wrong codes. Please sign in again.',
};

/** A code of a neighbouring 30-second step: what an app shows a little later. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000);

/** TOTP two-factor (RFC 6238) with recovery codes, from setup to sign-in, as a person with an authenticator app uses it. */
describe('two-factor authentication', () => {
  let t: TestApp;
  let db: DataSource;
  let outbox: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    outbox = t.config.mail!.outboxDir;
  });
  afterAll(async () => t?.close());

  const passwordStep = (email: string) => t.http.post('/api/auth/sign-in').send({ email, password: PASSWORD });
  const codeStep = (mfa_token: string, proof: { code?: string; recovery_code?: string }) =>
    t.http.post('/api/auth/sign-in/2fa').send({ mfa_token, ...proof });

  it('sets up with a QR code and the secret, turns on with a code, and then asks for a code at every sign-in', async () => {
    const person = await signUp(t.http, { full_name: 'Tess Totp' });
    const setup = await t.http.post('/api/me/2fa/setup').set(bearer(person.accessToken)).expect(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Fitting%20Room:.*secret=[A-Z2-7]{32}.*algorithm=SHA1&digits=6&period=30/);
    expect(setup.body.qr_code).toMatch(/^data:image\/png;base64,/);
    // not on yet: sign-in still needs only the password
    expect((await passwordStep(person.email)).body.access_token).toBeTruthy();
    expect((await t.http.post('/api/me/2fa/enable').set(bearer(person.accessToken)).send({ code: '000000' })).body).toEqual(INVALID_CODE);
    const seen = outboxFiles(outbox);
    const enabled = await t.http
      .post('/api/me/2fa/enable')
      .set(bearer(person.accessToken))
      .send({ code: totpCode(setup.body.secret) })
      .expect(200);
    expect(enabled.body.recovery_codes).toHaveLength(10);
    expect(new Set(enabled.body.recovery_codes).size).toBe(10);
    const stored = await db.query(`SELECT code_hash FROM auth_recovery_codes WHERE user_id = $1`, [person.userId]);
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(enabled.body.recovery_codes[0]);
    const [secretRow] = await db.query(`SELECT totp_secret FROM users WHERE id = $1`, [person.userId]);
    expect(secretRow.totp_secret).not.toContain(setup.body.secret);
    await waitForMail(outbox, { to: person.email, template: 'two-factor-on', after: seen });
    expect((await t.http.get('/api/me').set(bearer(person.accessToken))).body.two_factor_enabled).toBe(true);

    // sign-in: the password answers a challenge, not a session
    const step1 = await passwordStep(person.email).expect(200);
    expect(step1.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    expect(cookieValue(step1, 'fr_refresh')).toBeUndefined();
    expect((await codeStep(step1.body.mfa_token, { code: '000000' })).body).toEqual(INVALID_CODE);
    // one code throughout: computed again, it could belong to the next 30 s step and be fresh
    const code = nextCode(setup.body.secret);
    const done = await codeStep(step1.body.mfa_token, { code }).expect(200);
    expect(done.body.user.id).toBe(person.userId);
    expect(cookieValue(done, 'fr_refresh')).toBeTruthy();
    // the challenge is spent, and a code works once
    expect((await codeStep(step1.body.mfa_token, { code })).body).toEqual(MFA_EXPIRED);
    const step1b = await passwordStep(person.email).expect(200);
    expect((await codeStep(step1b.body.mfa_token, { code })).body).toEqual(INVALID_CODE);
  });

  it('signs in once with each recovery code', async () => {
    const person = await signUp(t.http);
    const { recoveryCodes } = await turnOnTwoFactor(t.http, person.accessToken);
    const challenge = async () => (await passwordStep(person.email).expect(200)).body.mfa_token as string;
    const withCode = await codeStep(await challenge(), { recovery_code: recoveryCodes[3].toUpperCase() }).expect(200);
    expect(withCode.body.user.id).toBe(person.userId);
    expect((await codeStep(await challenge(), { recovery_code: recoveryCodes[3] })).body).toEqual(INVALID_CODE);
    await codeStep(await challenge(), { recovery_code: recoveryCodes[4] }).expect(200);
  });

  it('counts the recovery codes left, and renews them with a code of the app: the old ones stop working', async () => {
    const person = await signUp(t.http);
    const left = async () => (await t.http.get('/api/me/2fa/recovery-codes').set(bearer(person.accessToken)).expect(200)).body;
    expect(await left()).toEqual({ remaining: null, total: 10 });
    const renew = (code: string) => t.http.post('/api/me/2fa/recovery-codes').set(bearer(person.accessToken)).send({ code });
    expect((await renew('123456')).status).toBe(409); // two-factor is off
    const { secret, recoveryCodes } = await turnOnTwoFactor(t.http, person.accessToken);
    expect(await left()).toEqual({ remaining: 10, total: 10 });
    const challenge = async () => (await passwordStep(person.email).expect(200)).body.mfa_token as string;
    await codeStep(await challenge(), { recovery_code: recoveryCodes[0] }).expect(200);
    await codeStep(await challenge(), { recovery_code: recoveryCodes[1] }).expect(200);
    expect(await left()).toEqual({ remaining: 8, total: 10 });

    // a recovery code cannot renew the set, nor a wrong code; nothing changes
    expect((await renew(recoveryCodes[2])).body).toMatchObject({ statusCode: 400 });
    expect((await renew('000000')).body).toEqual(INVALID_CODE);
    expect(await left()).toEqual({ remaining: 8, total: 10 });
    const seen = outboxFiles(outbox);
    const renewed = await renew(nextCode(secret)).expect(200);
    const fresh: string[] = renewed.body.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    expect(await left()).toEqual({ remaining: 10, total: 10 });
    await waitForMail(outbox, { to: person.email, template: 'recovery-codes-renewed', after: seen });
    // the old set is dead, unused codes included; the new one works
    expect((await codeStep(await challenge(), { recovery_code: recoveryCodes[5] })).body).toEqual(INVALID_CODE);
    await codeStep(await challenge(), { recovery_code: fresh[0] }).expect(200);
    expect(await left()).toEqual({ remaining: 9, total: 10 });
    // another person's count is their own
    const other = await signUp(t.http);
    expect((await t.http.get('/api/me/2fa/recovery-codes').set(bearer(other.accessToken)).expect(200)).body.remaining).toBeNull();
  });

  it('ends a challenge after five wrong codes, or after five minutes', async () => {
    const person = await signUp(t.http);
    const { secret } = await turnOnTwoFactor(t.http, person.accessToken);
    const { mfa_token } = (await passwordStep(person.email).expect(200)).body;
    for (let i = 0; i < 4; i++) expect((await codeStep(mfa_token, { code: '111111' })).body).toEqual(INVALID_CODE);
    expect((await codeStep(mfa_token, { code: '111111' })).body).toEqual(MFA_EXPIRED);
    expect((await codeStep(mfa_token, { code: nextCode(secret) })).body).toEqual(MFA_EXPIRED);
    const late = (await passwordStep(person.email).expect(200)).body.mfa_token;
    await db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'mfa_challenge'`, [
      person.userId,
    ]);
    expect((await codeStep(late, { code: nextCode(secret) })).body).toEqual(MFA_EXPIRED);
  });

  it('turns off only with a code or a recovery code, and mails a notice', async () => {
    const person = await signUp(t.http);
    const { secret, recoveryCodes } = await turnOnTwoFactor(t.http, person.accessToken);
    expect((await t.http.post('/api/me/2fa/disable').set(bearer(person.accessToken)).send({ code: '000000' })).body).toEqual(INVALID_CODE);
    expect((await t.http.post('/api/me/2fa/setup').set(bearer(person.accessToken))).status).toBe(409);
    const seen = outboxFiles(outbox);
    await t.http.post('/api/me/2fa/disable').set(bearer(person.accessToken)).send({ code: recoveryCodes[0] }).expect(200);
    await waitForMail(outbox, { to: person.email, template: 'two-factor-off', after: seen });
    expect((await passwordStep(person.email)).body.access_token).toBeTruthy();
    expect(await db.query(`SELECT count(*)::int AS n FROM auth_recovery_codes WHERE user_id = $1`, [person.userId])).toEqual([{ n: 0 }]);
    // on again with a fresh secret: the old one no longer works
    const again = await turnOnTwoFactor(t.http, person.accessToken);
    expect(again.secret).not.toBe(secret);
  });

  it('keeps staff without two-factor out of the console when AUTH_REQUIRE_STAFF_2FA is on, until they turn it on', async () => {
    const adminEmail = uniqueEmail('staff-2fa');
    const strict = await createTestApp({ AUTH_REQUIRE_STAFF_2FA: 'true', ADMIN_EMAILS: adminEmail });
    try {
      const admin = await signUp(strict.http, { email: adminEmail });
      expect(admin.res.body.user.role).toBe('admin');
      expect((await strict.http.get('/api/admin/stats').set(bearer(admin.accessToken))).body).toEqual({
        statusCode: 403,
        code: 'TWO_FACTOR_REQUIRED',
        message: 'Staff accounts must turn on two-factor authentication. Turn it on in Settings, then come back.',
      });
      // their own account pages stay open, to turn it on
      await strict.http.get('/api/me').set(bearer(admin.accessToken)).expect(200);
      await turnOnTwoFactor(strict.http, admin.accessToken);
      await strict.http.get('/api/admin/stats').set(bearer(admin.accessToken)).expect(200);
    } finally {
      await strict.close();
    }
  });
});
