import { DataSource } from 'typeorm';
import { bearer, cookieValue, PASSWORD, refreshWith, setCookieLine, signIn, signUp, turnOnTwoFactor, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp, uniqueId } from '../helpers/test-app';
import { FakeGoogleIdentity, FakeGoogleServer } from './fake-google.server';

describe('Google sign-in against a local fake Google', () => {
  const google = new FakeGoogleServer();
  const adminEmail = uniqueEmail('google-admin');
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    await google.start();
    t = await createTestApp({ ...google.env(), ADMIN_EMAILS: adminEmail });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
    await google.stop();
  });

  function identity(overrides: Partial<FakeGoogleIdentity> = {}): FakeGoogleIdentity {
    return { sub: uniqueId('sub'), email: uniqueEmail('g'), email_verified: true, name: 'Grace Google', ...overrides };
  }

  /** GET /api/auth/google: answers the consent URL and the state cookie. */
  async function start() {
    const res = await t.http.get('/api/auth/google');
    expect(res.status).toBe(302);
    return { authorize: new URL(res.headers.location), stateCookie: cookieValue(res, 'fr_oauth_state')!, res };
  }

  /** The browser at Google: consent, and Google's redirect back to our callback. */
  async function consent(authorize: URL): Promise<URL> {
    const res = await fetch(authorize, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  function callback(url: URL, stateCookie?: string) {
    const req = t.http.get(`${url.pathname}${url.search}`);
    return stateCookie === undefined ? req : req.set('Cookie', `fr_oauth_state=${stateCookie}`);
  }

  async function fullFlow(who: FakeGoogleIdentity) {
    google.nextIdentity = who;
    const { authorize, stateCookie } = await start();
    const res = await callback(await consent(authorize), stateCookie);
    return res;
  }

  async function sessionFrom(res: { headers: Record<string, unknown> }) {
    const refresh = cookieValue(res as never, 'fr_refresh');
    expect(refresh).toBeTruthy();
    return (await refreshWith(t.http, refresh!).expect(200)).body;
  }

  it('signs a new person up: consent, state and PKCE checked, session cookie set, lands on /try; 18+ still to confirm', async () => {
    const who = identity();
    google.nextIdentity = who;
    const { authorize, stateCookie, res: startRes } = await start();
    expect(authorize.origin).toBe(google.baseUrl);
    expect(authorize.pathname).toBe('/authorize');
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: google.clientId,
      redirect_uri: `${t.config.appUrl}/api/auth/google/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    const stateLine = setCookieLine(startRes, 'fr_oauth_state')!;
    expect(stateLine).toMatch(/HttpOnly/i);
    expect(stateLine).toMatch(/SameSite=Lax/i);
    expect(stateLine).toMatch(/Path=\/api\/auth\/google/);
    expect(stateLine).toMatch(/Max-Age=600/);
    expect(stateCookie).not.toContain(authorize.searchParams.get('code_challenge')!);

    const done = await callback(await consent(authorize), stateCookie);
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe(`${t.config.appUrl}/try`);
    expect(cookieValue(done, 'fr_oauth_state')).toBe(''); // single use
    expect(setCookieLine(done, 'fr_refresh')).toMatch(/HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i);

    const session = await sessionFrom(done);
    expect(session.user).toMatchObject({
      email: who.email,
      full_name: 'Grace Google',
      tier: 'free',
      credits: 3,
      role: 'user',
      age_confirmed: false,
    });
    const [row] = await db.query(`SELECT google_sub, password_hash, age_confirmed_at FROM users WHERE id = $1`, [session.user.id]);
    expect(row).toEqual({ google_sub: who.sub, password_hash: null, age_confirmed_at: null });
    expect(await db.query(`SELECT activity_type, metadata FROM user_activity_logs WHERE user_id = $1`, [session.user.id])).toEqual([
      { activity_type: 'sign_up', metadata: { method: 'google' } },
    ]);
    expect(await db.query(`SELECT event, properties FROM analytics_events WHERE user_id = $1`, [session.user.id])).toEqual([
      { event: 'user_signup', properties: { email: who.email, full_name: 'Grace Google', method: 'google' } },
    ]);
    // a Google account has no password: the password sign-in fails like any other
    expect((await t.http.post('/api/auth/sign-in').send({ email: who.email, password: PASSWORD })).status).toBe(401);
  });

  it('signs a returning person into the same account by Google id, even after their Google email changed', async () => {
    const who = identity();
    const first = await sessionFrom(await fullFlow(who));
    const again = await sessionFrom(await fullFlow({ ...who, email: uniqueEmail('renamed') }));
    expect(again.user.id).toBe(first.user.id);
    expect(again.user.email).toBe(who.email);
  });

  it('signs into the existing account whose email Google has verified, and links it', async () => {
    const existing = await signUp(t.http, { full_name: 'Pat Password' });
    const who = identity({ email: existing.email.toUpperCase() });
    const session = await sessionFrom(await fullFlow(who));
    expect(session.user).toMatchObject({ id: existing.userId, full_name: 'Pat Password', age_confirmed: true });
    const [row] = await db.query(`SELECT google_sub FROM users WHERE id = $1`, [existing.userId]);
    expect(row.google_sub).toBe(who.sub);
    const [count] = await db.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = $1`, [existing.email]);
    expect(count.n).toBe(1);
    await signIn(t.http, existing.email); // the password still works
  });

  it('takes over cleanly an unverified account a stranger made with the address: the stranger is out, and keeps nothing of theirs in it', async () => {
    // the stranger signs up first with the owner's address and a password of their choosing
    const ownerEmail = uniqueEmail('pre-registered');
    const stranger = await signUp(t.http, {
      email: ownerEmail,
      full_name: 'Not The Owner',
      password: 'strangers-own-pass-81',
      verified: false,
    });
    await t.http
      .put('/api/me/settings')
      .set(bearer(stranger.accessToken))
      .send({ email_notifications: true, generation_notifications: true, marketing_emails: true })
      .expect(200);
    // the owner arrives through Google, which vouches for the address
    const session = await sessionFrom(await fullFlow(identity({ email: ownerEmail, name: 'The Real Owner' })));
    expect(session.user).toMatchObject({
      email: ownerEmail,
      full_name: 'The Real Owner',
      email_verified: true,
      has_password: false,
      age_confirmed: false,
    });
    // the stranger's password no longer signs in, and their sessions are over (access and refresh)
    expect((await t.http.post('/api/auth/sign-in').send({ email: ownerEmail, password: 'strangers-own-pass-81' })).status).toBe(401);
    expect((await t.http.get('/api/me').set(bearer(stranger.accessToken))).status).toBe(401);
    expect((await refreshWith(t.http, stranger.refreshToken)).status).toBe(401);
    // nothing the stranger set survives: settings back to the defaults, their activity gone
    const me = await t.http.get('/api/me/settings').set(bearer(session.access_token)).expect(200);
    expect(me.body).toEqual({ email_notifications: true, generation_notifications: true, marketing_emails: false });
    const activity = await db.query(`SELECT activity_type FROM user_activity_logs WHERE user_id = $1 ORDER BY created_at`, [
      session.user.id,
    ]);
    expect(activity.map((a: { activity_type: string }) => a.activity_type)).toEqual(['sign_in']);
    // one account holds the address now
    const rows = await db.query(`SELECT id, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1`, [ownerEmail]);
    expect(rows).toEqual([{ id: session.user.id, verified: true }]);
    // by the one path a reset or a confirmation link takes too (test/auth/address-owner.int-spec.ts), in the audit trail
    expect(
      await db.query(`SELECT after FROM audit_log WHERE target_user_id = $1 AND action = 'account.claimed'`, [session.user.id]),
    ).toEqual([{ after: { proof: 'google', removed_sign_ups: 0 } }]);
  });

  it('signs into the verified owner: signing up again with the address made no second account to sign into', async () => {
    const owner = await signUp(t.http, { full_name: 'Verified Owner' });
    const again = await t.http
      .post('/api/auth/sign-up')
      .send({ email: owner.email, full_name: 'Squatter', password: 'strangers-own-pass-82', age_confirmed: true });
    expect(again.body.access_token).toBeUndefined();
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`, [owner.email]);
    expect(n).toBe(1);
    const session = await sessionFrom(await fullFlow(identity({ email: owner.email })));
    expect(session.user.id).toBe(owner.userId);
  });

  it('does not sign into an existing account when Google has not verified the email', async () => {
    const existing = await signUp(t.http);
    const res = await fullFlow(identity({ email: existing.email, email_verified: false }));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${t.config.appUrl}/?auth_error=google_email_unverified`);
    expect(cookieValue(res, 'fr_refresh')).toBeUndefined();
    const [row] = await db.query(`SELECT google_sub FROM users WHERE id = $1`, [existing.userId]);
    expect(row.google_sub).toBeNull();
  });

  describe('refuses a bad or missing state, before any token is exchanged', () => {
    async function attempt(mangle: (callbackUrl: URL, stateCookie: string, other: string) => { url: URL; cookie?: string }) {
      google.nextIdentity = identity();
      const other = (await start()).stateCookie; // a state cookie of another sign-in attempt
      const { authorize, stateCookie } = await start();
      const back = await consent(authorize);
      const tokenCalls = google.calls.token;
      const { url, cookie } = mangle(back, stateCookie, other);
      const res = await callback(url, cookie);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`${t.config.appUrl}/?auth_error=google_state_invalid`);
      expect(cookieValue(res, 'fr_refresh')).toBeUndefined();
      expect(google.calls.token).toBe(tokenCalls);
    }

    it('a tampered state parameter', () =>
      attempt((url, cookie) => {
        url.searchParams.set('state', `${url.searchParams.get('state')!.slice(0, -2)}xx`);
        return { url, cookie };
      }));
    it('no state parameter', () =>
      attempt((url, cookie) => {
        url.searchParams.delete('state');
        return { url, cookie };
      }));
    it('no state cookie', () => attempt((url) => ({ url })));
    it('the state cookie of another attempt', () => attempt((url, _cookie, other) => ({ url, cookie: other })));
    it('a state cookie with a forged signature', () =>
      attempt((url, cookie) => {
        const parts = cookie.split('.');
        parts[3] = Buffer.from('forged-signature-forged-signature!').toString('base64url');
        return { url, cookie: parts.join('.') };
      }));
    it('a replay of a callback that already succeeded', async () => {
      google.nextIdentity = identity();
      const { authorize, stateCookie } = await start();
      const back = await consent(authorize);
      expect((await callback(back, stateCookie)).headers.location).toBe(`${t.config.appUrl}/try`);
      const replay = await callback(back);
      expect(replay.headers.location).toBe(`${t.config.appUrl}/?auth_error=google_state_invalid`);
    });
  });

  it('sends the person back to the landing page when they refuse consent', async () => {
    google.nextIdentity = undefined;
    const { authorize, stateCookie } = await start();
    const res = await callback(await consent(authorize), stateCookie);
    expect(res.headers.location).toBe(`${t.config.appUrl}/?auth_error=google_denied`);
    expect(cookieValue(res, 'fr_refresh')).toBeUndefined();
  });

  it('sends the person back to the landing page when Google fails to exchange the code', async () => {
    google.failTokenExchange = true;
    try {
      const res = await fullFlow(identity());
      expect(res.headers.location).toBe(`${t.config.appUrl}/?auth_error=google_failed`);
      expect(cookieValue(res, 'fr_refresh')).toBeUndefined();
    } finally {
      google.failTokenExchange = false;
    }
  });

  it('makes an account whose email ADMIN_EMAILS lists an admin (Google proved the address)', async () => {
    const session = await sessionFrom(await fullFlow(identity({ email: adminEmail })));
    expect(session.user.role).toBe('admin');
  });

  it('asks for the two-factor code after Google when the account has two-factor on', async () => {
    const who = identity();
    const first = await sessionFrom(await fullFlow(who));
    await turnOnTwoFactor(t.http, first.access_token);
    const res = await fullFlow(who);
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(new RegExp(`^${t.config.appUrl}/\\?auth=2fa#mfa_token=`));
    expect(cookieValue(res, 'fr_refresh')).toBeUndefined();
  });
});

describe('Google sign-in when it is not configured', () => {
  it('redirects both routes to the landing page with google_unavailable', async () => {
    const t = await createTestApp();
    try {
      for (const path of ['/api/auth/google', '/api/auth/google/callback?code=x&state=y']) {
        const res = await t.http.get(path);
        expect({ path, status: res.status, location: res.headers.location }).toEqual({
          path,
          status: 302,
          location: `${t.config.appUrl}/?auth_error=google_unavailable`,
        });
      }
    } finally {
      await t.close();
    }
  });
});
