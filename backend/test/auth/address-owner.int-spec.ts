import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { STORAGE, type StoragePort } from '../../src/storage';
import {
  bearer,
  markEmailVerified,
  PASSWORD,
  refreshWith,
  signIn,
  signUp,
  signUpFromBefore,
  turnOnTwoFactor,
  uniqueEmail,
} from '../helpers/auth';
import { linkTo, outboxFiles, readOutbox, waitForIdleQueues, waitForMail, type OutboxMail } from '../helpers/mail';
import { createTestApp, TestApp } from '../helpers/test-app';

const NEW_PASSWORD = 'copper-kettle-meadow-77';
const STRANGERS_PASSWORD = 'strangers-own-pass-91';
const FRESH =
  'Your email address is confirmed. More than one sign-up used it, so your account starts afresh: choose its password with the link we have just emailed you.';
const SETTINGS_DEFAULTS = { email_notifications: true, generation_notifications: true, marketing_emails: false };

/**
 * An address belongs to whoever can read its mail, whichever of its links they open: a stranger who
 * signed up first with someone's address keeps nothing of theirs once the owner proves it (a reset
 * link, a confirmation link, Google), and no account of the address is removed without the address
 * being told. End to end through the API, with the outbox ($DATA_DIR/mail) as the mailbox.
 */
describe("an address's owner takes it back: no squatter left behind", () => {
  let t: TestApp;
  let db: DataSource;
  let storage: StoragePort;
  let outbox: string;
  const listedAdmin = uniqueEmail('listed-admin');
  const listedSecond = uniqueEmail('listed-second');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: `${listedAdmin},${listedSecond}` });
    db = t.app.get(DataSource);
    storage = t.app.get<StoragePort>(STORAGE);
    outbox = t.config.mail!.outboxDir;
  });
  afterAll(async () => t?.close());

  const photo = () =>
    sharp({ create: { width: 400, height: 400, channels: 3, background: '#7a8' } })
      .jpeg()
      .toBuffer();

  /** The link of the newest mail of `template` to `email` written after `seen`. */
  async function mailedLink(email: string, template: string, page: string, seen?: string[]) {
    const mail = await waitForMail(outbox, { to: email, template, after: seen });
    return { mail, token: linkTo(mail, page).token };
  }

  /** "Forgot password?" then the mailed link, as the owner of the mailbox does. */
  async function resetThroughMailbox(email: string, password = NEW_PASSWORD) {
    const seen = outboxFiles(outbox);
    await t.http.post('/api/auth/password/forgot').send({ email }).expect(202);
    const { token } = await mailedLink(email, 'password-reset', '/reset-password', seen);
    return t.http.post('/api/auth/password/reset').send({ token, password });
  }

  /**
   * A stranger signs up with `email` and plants what an account can hold: two-factor, settings, a
   * support ticket, and (as if the API had let an unverified account upload: it does not) an
   * upload, a generation and their files.
   */
  async function squat(email: string, options: { fromBefore?: boolean } = {}) {
    // a sign-up of an address that has one already makes no account now: such a second one is from before (signUpFromBefore)
    const stranger = options.fromBefore
      ? await signUpFromBefore(t.app, { email, full_name: 'Not The Owner', password: STRANGERS_PASSWORD })
      : await signUp(t.http, { email, full_name: 'Not The Owner', password: STRANGERS_PASSWORD, verified: false });
    const factor = await turnOnTwoFactor(t.http, stranger.accessToken);
    await t.http
      .put('/api/me/settings')
      .set(bearer(stranger.accessToken))
      .send({ email_notifications: false, generation_notifications: false, marketing_emails: true })
      .expect(200);
    await t.http
      .post('/api/support/inquiries')
      .set(bearer(stranger.accessToken))
      .send({ name: 'Not The Owner', email, subject: 'Planted question', message: 'A ticket the stranger sent' })
      .expect(201);
    await markEmailVerified(stranger.userId);
    const upload = await t.http
      .post('/api/uploads')
      .set(bearer(stranger.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', await photo(), { filename: 'planted.jpg', contentType: 'image/jpeg' });
    expect(upload.status).toBe(201);
    await db.query(`UPDATE users SET email_verified_at = NULL WHERE id = $1`, [stranger.userId]);
    const [generation] = await db.query(
      `INSERT INTO user_generations (id, user_id, type, status, cost, category, prompt, metadata, stage, max_polls, provider, error, tier)
       VALUES (gen_random_uuid(), $1, 'image', 'completed', 1, 'bikini', 'planted', '{}', 'complete', 60, 'preview', NULL, 'free') RETURNING id`,
      [stranger.userId],
    );
    const resultKey = `users/${stranger.userId}/results/${generation.id}.jpg`;
    await storage.put(resultKey, await photo(), { contentType: 'image/jpeg' });
    const [{ storage_key: uploadKey }] = await db.query(`SELECT storage_key FROM uploads WHERE user_id = $1`, [stranger.userId]);
    expect(await storage.exists(uploadKey)).toBe(true);
    return { stranger, factor, files: [uploadKey as string, resultKey] };
  }

  /** Nothing of the stranger's is left in account `id`, and their credentials and sessions are dead. */
  async function expectNothingOfTheStranger(id: string, squatted: Awaited<ReturnType<typeof squat>>, accessToken: string) {
    const { stranger, files } = squatted;
    expect((await t.http.post('/api/auth/sign-in').send({ email: stranger.email, password: STRANGERS_PASSWORD })).status).toBe(401);
    expect((await t.http.get('/api/me').set(bearer(stranger.accessToken))).status).toBe(401);
    expect((await refreshWith(t.http, stranger.refreshToken)).status).toBe(401);
    const [row] = await db.query(
      `SELECT totp_secret, totp_enabled_at, full_name, age_confirmed_at FROM users WHERE id = $1 AND email_verified_at IS NOT NULL`,
      [id],
    );
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null, full_name: '', age_confirmed_at: null });
    expect(await db.query(`SELECT count(*)::int AS n FROM auth_recovery_codes WHERE user_id = $1`, [id])).toEqual([{ n: 0 }]);
    expect((await t.http.get('/api/me/settings').set(bearer(accessToken)).expect(200)).body).toEqual(SETTINGS_DEFAULTS);
    expect(await db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [id])).toEqual([{ n: 0 }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM user_generations WHERE user_id = $1`, [id])).toEqual([{ n: 0 }]);
    for (const key of files) expect(await storage.exists(key)).toBe(false);
    // the analytics keep their counts, not the name the stranger typed
    expect(
      await db.query(`SELECT count(*)::int AS n FROM analytics_events WHERE user_id = $1 AND properties::text LIKE '%Not The Owner%'`, [
        id,
      ]),
    ).toEqual([{ n: 0 }]);
    // the ticket stays for the support team, no longer the account's
    expect(
      await db.query(`SELECT user_id FROM support_inquiries WHERE subject = 'Planted question' AND email = $1`, [stranger.email]),
    ).toEqual([{ user_id: null }]);
  }

  describe('a reset link', () => {
    it("over a stranger's unverified account discards everything they set (two-factor first) before the owner's password is set", async () => {
      const email = uniqueEmail('squatted-reset');
      const squatted = await squat(email);
      // the stranger's two-factor is on: their password alone asks for a code
      expect((await t.http.post('/api/auth/sign-in').send({ email, password: STRANGERS_PASSWORD })).body).toMatchObject({
        mfa_required: true,
      });

      const res = await resetThroughMailbox(email);
      expect(res.body).toEqual({ message: 'Your password was changed. Please sign in with your new password.' });
      // the owner's new password signs in at once: no code from the stranger's authenticator is asked
      const signedIn = await t.http.post('/api/auth/sign-in').send({ email, password: NEW_PASSWORD }).expect(200);
      expect(signedIn.body.mfa_required).toBeUndefined();
      expect(signedIn.body.user).toMatchObject({
        id: squatted.stranger.userId,
        email_verified: true,
        two_factor_enabled: false,
        full_name: '',
        age_confirmed: false,
      });
      await expectNothingOfTheStranger(squatted.stranger.userId, squatted, signedIn.body.access_token);
      // recorded in the audit trail, by the one path Google takes too
      const audit = await db.query(`SELECT action, after FROM audit_log WHERE target_user_id = $1 AND action = 'account.claimed'`, [
        squatted.stranger.userId,
      ]);
      expect(audit).toEqual([{ action: 'account.claimed', after: { proof: 'reset_link', removed_sign_ups: 0 } }]);
    });

    it("of an ADMIN_EMAILS address makes an admin whose two-factor is the owner's to set: the stranger's authenticator reaches nothing", async () => {
      const squatted = await squat(listedAdmin);
      expect((await resetThroughMailbox(listedAdmin)).status).toBe(200);
      const owner = await t.http.post('/api/auth/sign-in').send({ email: listedAdmin, password: NEW_PASSWORD }).expect(200);
      expect(owner.body.user).toMatchObject({ role: 'admin', two_factor_enabled: false });
      // the stranger's password no longer opens the first step, so their authenticator's codes are never asked for
      expect((await t.http.post('/api/auth/sign-in').send({ email: listedAdmin, password: STRANGERS_PASSWORD })).status).toBe(401);
      expect((await t.http.get('/api/admin/users').set(bearer(squatted.stranger.accessToken))).status).toBe(401);
      expect((await t.http.get('/api/admin/users').set(bearer(owner.body.access_token))).status).toBe(200);
      await expectNothingOfTheStranger(squatted.stranger.userId, squatted, owner.body.access_token);
    });

    it("of a verified account keeps its data and its two-factor: signing in still asks for the owner's code", async () => {
      const owner = await signUp(t.http, { full_name: 'Verified Vera' });
      const { recoveryCodes } = await turnOnTwoFactor(t.http, owner.accessToken);
      await t.http
        .put('/api/me/settings')
        .set(bearer(owner.accessToken))
        .send({ email_notifications: false, generation_notifications: true, marketing_emails: true })
        .expect(200);
      expect((await resetThroughMailbox(owner.email)).status).toBe(200);
      const first = await t.http.post('/api/auth/sign-in').send({ email: owner.email, password: NEW_PASSWORD }).expect(200);
      expect(first.body).toMatchObject({ mfa_required: true });
      const second = await t.http
        .post('/api/auth/sign-in/2fa')
        // a recovery code: the current TOTP step was spent turning two-factor on
        .send({ mfa_token: first.body.mfa_token, recovery_code: recoveryCodes[0] })
        .expect(200);
      expect(second.body.user).toMatchObject({ full_name: 'Verified Vera', two_factor_enabled: true, age_confirmed: true });
      expect((await t.http.get('/api/me/settings').set(bearer(second.body.access_token))).body).toEqual({
        email_notifications: false,
        generation_notifications: true,
        marketing_emails: true,
      });
      expect(
        await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE target_user_id = $1 AND action = 'account.claimed'`, [owner.userId]),
      ).toEqual([{ n: 0 }]);
    });
  });

  describe('confirmation links', () => {
    /** The notice the address gets when other sign-ups of it were removed. */
    const removalNotice = (email: string, seen: string[]) => waitForMail(outbox, { to: email, template: 'sign-ups-removed', after: seen });

    it("an older sign-up's link stays valid after a newer one; opening it removes the other and tells the address, and the account starts afresh", async () => {
      const email = uniqueEmail('older-link');
      const owner = await signUp(t.http, { email, full_name: 'Olive Owner', verified: false });
      const { token: ownersLink } = await mailedLink(email, 'verify-email', '/verify-email');
      // a question the owner sent signed out, with their address
      await t.http
        .post('/api/support/inquiries')
        .send({ name: 'Olive Owner', email, subject: 'Owner question', message: 'Words of the owner' })
        .expect(201);
      const seen = outboxFiles(outbox);
      const squatted = await squat(email, { fromBefore: true });
      await mailedLink(email, 'verify-email', '/verify-email', seen); // the newest mail is the stranger's

      const before = outboxFiles(outbox);
      expect((await t.http.post('/api/auth/verify-email').send({ token: ownersLink })).body).toEqual({
        message: FRESH,
        starts_afresh: true,
      });
      const notice = await removalNotice(email, before);
      expect(notice.headers.subject).toBe('Your email is confirmed: another sign-up with it was removed');
      expect(notice.text).toContain('An account made with this address on ');
      expect(notice.text).toContain('never confirmed, was removed with everything in it');
      expect(notice.text).not.toContain('Not The Owner'); // no stranger's name on a mail to the owner
      expect(notice.headers.to).toBe(email);
      // the stranger's account is gone, with its mail; the owner's account holds the address
      expect(await db.query(`SELECT id FROM users WHERE email = $1`, [email])).toEqual([{ id: owner.userId }]);
      await expectNoAccount(squatted.stranger.userId);
      expect((await t.http.post('/api/auth/sign-in').send({ email, password: STRANGERS_PASSWORD })).status).toBe(401);
      // removing the stranger's account scrubbed their ticket, not what the owner sent with the same address
      expect(
        await db.query(`SELECT name, message FROM support_inquiries WHERE subject = 'Owner question' AND email = $1`, [email]),
      ).toEqual([{ name: 'Olive Owner', message: 'Words of the owner' }]);
      // whoever opened the link chooses the password through the notice
      expect((await t.http.post('/api/auth/sign-in').send({ email, password: PASSWORD })).status).toBe(401);
      const { token } = linkTo(notice, '/reset-password');
      await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD }).expect(200);
      const back = await signIn(t.http, email, NEW_PASSWORD);
      expect(back.res.body.user).toMatchObject({ id: owner.userId, email_verified: true, two_factor_enabled: false });
    });

    it("opening the stranger's link (the newest mail) gives its account to whoever opened it: nothing of the stranger's stays", async () => {
      const email = uniqueEmail('newest-link');
      const owner = await signUp(t.http, { email, full_name: 'Olive Owner', verified: false });
      await mailedLink(email, 'verify-email', '/verify-email');
      const seen = outboxFiles(outbox);
      const squatted = await squat(email, { fromBefore: true });
      const { token: strangersLink, mail: strangersMail } = await mailedLink(email, 'verify-email', '/verify-email', seen);

      const before = outboxFiles(outbox);
      expect((await t.http.post('/api/auth/verify-email').send({ token: strangersLink })).body).toEqual({
        message: FRESH,
        starts_afresh: true,
      });
      const notice = await removalNotice(email, before);
      // the owner's own sign-up went, and the address was told
      await expectNoAccount(owner.userId);
      expect((await t.http.post('/api/auth/sign-in').send({ email, password: PASSWORD })).status).toBe(401);
      // the account the link was for holds the address, without the stranger's password, factor or anything else
      const { token } = linkTo(notice, '/reset-password');
      await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD }).expect(200);
      const signedIn = await t.http.post('/api/auth/sign-in').send({ email, password: NEW_PASSWORD }).expect(200);
      expect(signedIn.body.user).toMatchObject({ id: squatted.stranger.userId, two_factor_enabled: false });
      await expectNothingOfTheStranger(squatted.stranger.userId, squatted, signedIn.body.access_token);
      // the outbox keeps the owner's mailbox: the link they opened and the notice stay
      expect(outboxFiles(outbox)).toEqual(expect.arrayContaining([strangersMail.file, notice.file]));
    });

    it("an ADMIN_EMAILS address confirmed through a stranger's link makes no admin of the stranger", async () => {
      const email = listedSecond;
      await signUp(t.http, { email, full_name: 'Listed Owner', verified: false });
      await mailedLink(email, 'verify-email', '/verify-email');
      const seen = outboxFiles(outbox);
      const stranger = await signUpFromBefore(t.app, { email, full_name: 'Not The Owner', password: STRANGERS_PASSWORD });
      await turnOnTwoFactor(t.http, stranger.accessToken);
      const { token: strangersLink } = await mailedLink(email, 'verify-email', '/verify-email', seen);
      const before = outboxFiles(outbox);
      expect((await t.http.post('/api/auth/verify-email').send({ token: strangersLink })).body).toEqual({
        message: FRESH,
        starts_afresh: true,
      });
      // the stranger's password, sessions and factor are gone: they never see the console
      expect((await t.http.post('/api/auth/sign-in').send({ email, password: STRANGERS_PASSWORD })).status).toBe(401);
      expect((await t.http.get('/api/auth/is-admin').set(bearer(stranger.accessToken))).status).toBe(401);
      // the owner, through the notice, is the admin, with no factor but the one they will set
      const notice = await removalNotice(email, before);
      await t.http
        .post('/api/auth/password/reset')
        .send({ token: linkTo(notice, '/reset-password').token, password: NEW_PASSWORD })
        .expect(200);
      const owner = await t.http.post('/api/auth/sign-in').send({ email, password: NEW_PASSWORD }).expect(200);
      expect(owner.body.user).toMatchObject({ id: stranger.userId, role: 'admin', two_factor_enabled: false });
    });

    it('the only sign-up of an address is confirmed as it is, and the address is told of nothing', async () => {
      const person = await signUp(t.http, { full_name: 'Only One', verified: false });
      const { token } = await mailedLink(person.email, 'verify-email', '/verify-email');
      const before = outboxFiles(outbox);
      expect((await t.http.post('/api/auth/verify-email').send({ token })).body).toEqual({
        message: 'Your email address is confirmed.',
        starts_afresh: false,
      });
      expect((await signIn(t.http, person.email, PASSWORD)).res.body.user).toMatchObject({ full_name: 'Only One', email_verified: true });
      await waitForIdleQueues(t.app);
      expect(readOutbox(outbox).filter((m: OutboxMail) => !before.includes(m.file) && m.headers.to === person.email)).toEqual([]);
    });

    it('a sign-up of an address whose sign-ups wait from before makes none: the address gets a link that proves it', async () => {
      const email = uniqueEmail('waiting');
      const waiting = await signUpFromBefore(t.app, { email, full_name: 'First' });
      await signUpFromBefore(t.app, { email });
      const seen = outboxFiles(outbox);
      const res = await t.http
        .post('/api/auth/sign-up')
        .send({ full_name: 'Third', email, password: 'third-unusual-pass-55', age_confirmed: true })
        .expect(202);
      expect(res.body).toEqual({ message: `We've sent a link to ${email}. Please check your inbox to continue.`, check_email: true });
      expect(await db.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email])).toEqual([{ n: 2 }]);
      const { token } = await mailedLink(email, 'sign-up-attempt', '/reset-password', seen);
      // the link proves the address: the newest sign-up is taken over, the other removed
      await t.http.post('/api/auth/password/reset').send({ token, password: NEW_PASSWORD }).expect(200);
      await expectNoAccount(waiting.userId);
      expect((await signIn(t.http, email, NEW_PASSWORD)).res.body.user).toMatchObject({ email_verified: true, full_name: '' });
    });
  });

  async function expectNoAccount(id: string) {
    expect(await db.query(`SELECT count(*)::int AS n FROM users WHERE id = $1`, [id])).toEqual([{ n: 0 }]);
  }
});
