import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { DataSource } from 'typeorm';
import { bearer, cookieMaxAge, cookieValue, PASSWORD, refreshWith, setCookieLine, signIn, signUp } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';

const AUTH_ERROR = { statusCode: 401, code: 'AUTH_ERROR', message: 'Authentication error. Please sign in again.' };
const REVOKED = {
  statusCode: 401,
  code: 'SESSION_REVOKED',
  message: 'You were signed out for your safety: your sign-in was used from another place after it had been renewed. Please sign in again.',
};
const DAY = 24 * 3600;

describe('sessions: access tokens, refresh rotation, reuse detection, absolute lifetime, sign-out', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => t?.close());

  async function sessionRow(id: string) {
    const [row] = await db.query(
      `SELECT token_hash, expires_at, revoked_at, revoke_reason, last_used_at, refresh_count FROM sessions WHERE id = $1`,
      [id],
    );
    return row as {
      token_hash: string;
      expires_at: Date;
      revoked_at: Date | null;
      revoke_reason: string | null;
      last_used_at: Date | null;
      refresh_count: number;
    };
  }
  const sessionIdOf = (refreshToken: string) => refreshToken.split('.')[0];
  /** The grace window of the token the last refresh replaced (AUTH_REFRESH_REUSE_GRACE_SECONDS) is over. */
  const windowPassed = (refreshToken: string) =>
    db.query(`UPDATE sessions SET rotated_at = now() - interval '1 hour' WHERE id = $1`, [sessionIdOf(refreshToken)]);

  it('answers a Session and sets the refresh token only as an httpOnly, SameSite=Lax cookie on /api/auth for the absolute lifetime', async () => {
    const a = await signUp(t.http);
    expect(Object.keys(a.res.body).sort()).toEqual(['access_token', 'expires_at', 'user']);
    const now = Date.now() / 1000;
    expect(a.res.body.expires_at).toBeGreaterThan(now + 900 - 30);
    expect(a.res.body.expires_at).toBeLessThanOrEqual(Math.ceil(now) + 900);
    expect(JSON.stringify(a.res.body)).not.toContain(a.refreshToken.split('.')[1]);
    expect(a.refreshToken).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    const line = setCookieLine(a.res, 'fr_refresh')!;
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Lax/i);
    expect(line).toMatch(/; Path=\/api\/auth(;|$)/);
    expect(line).not.toMatch(/; Secure/i); // not in production; see the production case below
    expect(cookieMaxAge(a.res, 'fr_refresh')).toBeGreaterThan(30 * DAY - 10);
    expect(cookieMaxAge(a.res, 'fr_refresh')).toBeLessThanOrEqual(30 * DAY);
    expect(a.res.headers['cache-control']).toBe('no-store');
    // only the SHA-256 of the secret is stored
    const row = await sessionRow(sessionIdOf(a.refreshToken));
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(a.refreshToken.split('.')[1]);
  });

  it('rotates the refresh token on every refresh; the new access token works; the absolute end does not move', async () => {
    const a = await signUp(t.http);
    const id = sessionIdOf(a.refreshToken);
    const before = await sessionRow(id);

    const r1 = await refreshWith(t.http, a.refreshToken).expect(200);
    const second = cookieValue(r1, 'fr_refresh')!;
    expect(second).not.toBe(a.refreshToken);
    expect(sessionIdOf(second)).toBe(id);
    expect(r1.body.user).toEqual(a.res.body.user);
    expect(typeof r1.body.access_token).toBe('string');
    await t.http.get('/api/me').set(bearer(r1.body.access_token)).expect(200);

    const after = await sessionRow(id);
    expect(after.token_hash).not.toBe(before.token_hash);
    expect(new Date(after.expires_at).getTime()).toBe(new Date(before.expires_at).getTime());
    expect(after.last_used_at).not.toBeNull();

    const r2 = await refreshWith(t.http, second).expect(200);
    expect(cookieValue(r2, 'fr_refresh')).not.toBe(second);
    expect(cookieMaxAge(r2, 'fr_refresh')).toBeLessThanOrEqual(cookieMaxAge(a.res, 'fr_refresh')!);
  });

  it('revokes the whole session when an already-rotated refresh token is presented again (reuse detection)', async () => {
    const a = await signUp(t.http);
    const r1 = await refreshWith(t.http, a.refreshToken).expect(200);
    const current = cookieValue(r1, 'fr_refresh')!;

    await windowPassed(a.refreshToken);
    const replay = await refreshWith(t.http, a.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(REVOKED);
    expect(cookieValue(replay, 'fr_refresh')).toBe(''); // the cookie is cleared

    const row = await sessionRow(sessionIdOf(a.refreshToken));
    expect(row.revoked_at).not.toBeNull();
    expect(row.revoke_reason).toBe('refresh_token_reuse');
    // the legitimate holder's newest tokens stop working too
    expect((await refreshWith(t.http, current)).body).toEqual(REVOKED);
    expect((await t.http.get('/api/me').set(bearer(r1.body.access_token))).body).toEqual(REVOKED);
    expect((await t.http.get('/api/me').set(bearer(a.accessToken))).status).toBe(401);
    // other sessions of the same person are not affected
    const other = await signIn(t.http, a.email);
    await t.http.get('/api/me').set(bearer(other.accessToken)).expect(200);
  });

  it('a refresh whose answer was lost is made again: the token it replaced answers the current one within the grace window, then ends the session', async () => {
    const a = await signUp(t.http);
    // the refresh reaches the server, its answer never reaches the browser
    const lost = await refreshWith(t.http, a.refreshToken).expect(200);
    const current = cookieValue(lost, 'fr_refresh')!;
    // the browser, still holding the old cookie, tries again, twice (two tabs): the same current token each time
    const again = await refreshWith(t.http, a.refreshToken).expect(200);
    expect(cookieValue(again, 'fr_refresh')).toBe(current);
    const third = await refreshWith(t.http, a.refreshToken).expect(200);
    expect(cookieValue(third, 'fr_refresh')).toBe(current);
    await t.http.get('/api/me').set(bearer(again.body.access_token)).expect(200);
    expect((await sessionRow(sessionIdOf(a.refreshToken))).refresh_count).toBe(1);
    // the current token goes on rotating as usual
    const next = await refreshWith(t.http, current).expect(200);
    // the token two replacements old is a replay at once; so would be the last one after the window
    const replay = await refreshWith(t.http, a.refreshToken);
    expect(replay.body).toEqual(REVOKED);
    expect((await refreshWith(t.http, cookieValue(next, 'fr_refresh')!)).body).toEqual(REVOKED);
  });

  it('a session ended by a password change on another device says so to its holder, on a call and on a refresh', async () => {
    const laptop = await signUp(t.http, { password: PASSWORD });
    const phone = await signIn(t.http, laptop.email);
    await t.http
      .post('/api/me/password')
      .set(bearer(phone.accessToken))
      .send({ current_password: PASSWORD, new_password: 'a-brand-new-password-77' })
      .expect(200);
    const changed = {
      statusCode: 401,
      code: 'PASSWORD_CHANGED',
      message: 'You were signed out because your password was changed. Please sign in with your new password.',
    };
    expect((await t.http.get('/api/me').set(bearer(laptop.accessToken))).body).toEqual(changed);
    expect((await refreshWith(t.http, laptop.refreshToken)).body).toEqual(changed);
    // the phone that changed it stays signed in
    await t.http.get('/api/me').set(bearer(phone.accessToken)).expect(200);
  });

  it('ends the session when any token it replaced comes back, also after a thief refreshed a stolen one twice', async () => {
    const owner = await signUp(t.http);
    const stolen = owner.refreshToken;
    // the thief refreshes first, twice: the owner's token is now two replacements old
    const t1 = await refreshWith(t.http, stolen).expect(200);
    const t2 = await refreshWith(t.http, cookieValue(t1, 'fr_refresh')!).expect(200);
    const thiefToken = cookieValue(t2, 'fr_refresh')!;
    expect((await sessionRow(sessionIdOf(stolen))).refresh_count).toBe(2);

    // the owner comes back with the token they had: the session ends, and with it the thief's tokens
    // (two replacements old: no grace window applies, whenever it comes back)
    const back = await refreshWith(t.http, stolen);
    expect(back.status).toBe(401);
    expect(back.body).toEqual(REVOKED);
    expect((await sessionRow(sessionIdOf(stolen))).revoke_reason).toBe('refresh_token_reuse');
    expect((await refreshWith(t.http, thiefToken)).status).toBe(401);
    expect((await t.http.get('/api/me').set(bearer(t2.body.access_token))).status).toBe(401);
  });

  it('keeps the sessions signed in before tokens were numbered: their token refreshes, and its replay ends the session', async () => {
    const a = await signUp(t.http);
    const id = sessionIdOf(a.refreshToken);
    // a session of the earlier kind: a random secret, its hash kept, no number
    const legacy = randomBytes(32).toString('base64url');
    await db.query(`UPDATE sessions SET token_hash = encode(sha256($2::bytea), 'hex'), refresh_count = 0 WHERE id = $1`, [
      id,
      Buffer.from(legacy),
    ]);
    const r1 = await refreshWith(t.http, `${id}.${legacy}`).expect(200);
    expect((await sessionRow(id)).refresh_count).toBe(1);
    await t.http.get('/api/me').set(bearer(r1.body.access_token)).expect(200);
    // the replaced token presented again after the grace window: a replay, recognised by its hash
    await windowPassed(a.refreshToken);
    expect((await refreshWith(t.http, `${id}.${legacy}`)).status).toBe(401);
    expect((await sessionRow(id)).revoke_reason).toBe('refresh_token_reuse');
    expect((await refreshWith(t.http, cookieValue(r1, 'fr_refresh')!)).status).toBe(401);
  });

  it('refuses a forged refresh token made from a session id read off an access token, and leaves that session alone', async () => {
    const a = await signUp(t.http);
    // the session id is readable in any access token (its `sid` claim)
    const sid = JSON.parse(Buffer.from(a.accessToken.split('.')[1], 'base64url').toString()).sid as string;
    const forged = await refreshWith(t.http, `${sid}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect((await sessionRow(sid)).revoked_at).toBeNull();
    await t.http.get('/api/me').set(bearer(a.accessToken)).expect(200);
    await refreshWith(t.http, a.refreshToken).expect(200);
    // nor does signing out with such a cookie end it
    await t.http
      .post('/api/auth/sign-out')
      .set('Cookie', `fr_refresh=${sid}.${'B'.repeat(43)}`)
      .expect(204);
    expect((await sessionRow(sid)).revoked_at).toBeNull();
  });

  it('refuses a missing, malformed or unknown refresh token with 401', async () => {
    expect((await t.http.post('/api/auth/refresh')).body).toEqual(AUTH_ERROR);
    for (const token of ['nope', `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.${'A'.repeat(43)}`, 'a.b.c']) {
      const res = await refreshWith(t.http, token);
      expect({ token, status: res.status, body: res.body }).toEqual({ token, status: 401, body: AUTH_ERROR });
    }
  });

  it('ends a session at its absolute lifetime, whatever the refreshes', async () => {
    const a = await signUp(t.http);
    const id = sessionIdOf(a.refreshToken);
    await db.query(`UPDATE sessions SET expires_at = now() + interval '20 seconds' WHERE id = $1`, [id]);
    const r1 = await refreshWith(t.http, a.refreshToken).expect(200);
    // refreshing did not extend the session: the cookie and the access token end with it
    expect(cookieMaxAge(r1, 'fr_refresh')).toBeLessThanOrEqual(20);
    expect(r1.body.expires_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 20);
    expect(new Date((await sessionRow(id)).expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 20_000);

    await db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const late = await refreshWith(t.http, cookieValue(r1, 'fr_refresh')!);
    const expired = { statusCode: 401, code: 'SESSION_EXPIRED', message: 'Your session has expired. Please sign in again.' };
    expect(late.body).toEqual(expired);
    expect((await t.http.get('/api/me').set(bearer(r1.body.access_token))).body).toEqual(expired);
  });

  it('sign-out revokes the session on the server: its access and refresh tokens are refused afterwards', async () => {
    const a = await signUp(t.http);
    const elsewhere = await signIn(t.http, a.email);
    const res = await t.http.post('/api/auth/sign-out').set(bearer(a.accessToken)).set('Cookie', `fr_refresh=${a.refreshToken}`);
    expect(res.status).toBe(204);
    expect(cookieValue(res, 'fr_refresh')).toBe('');
    expect(setCookieLine(res, 'fr_refresh')).toMatch(/Path=\/api\/auth/);

    expect((await t.http.get('/api/me').set(bearer(a.accessToken))).body).toEqual(AUTH_ERROR);
    expect((await refreshWith(t.http, a.refreshToken)).status).toBe(401);
    const row = await sessionRow(sessionIdOf(a.refreshToken));
    expect(row.revoke_reason).toBe('sign_out');
    // signing out on one device leaves the others signed in
    await t.http.get('/api/me').set(bearer(elsewhere.accessToken)).expect(200);

    const [activity] = await db.query(
      `SELECT count(*)::int AS n FROM user_activity_logs WHERE user_id = $1 AND activity_type = 'sign_out'`,
      [a.userId],
    );
    const [event] = await db.query(`SELECT count(*)::int AS n FROM analytics_events WHERE user_id = $1 AND event = 'user_signout'`, [
      a.userId,
    ]);
    expect([activity.n, event.n]).toEqual([1, 1]);
  });

  it('sign-out works with only the cookie or only the bearer token, and without any session', async () => {
    const a = await signUp(t.http);
    await t.http.post('/api/auth/sign-out').set('Cookie', `fr_refresh=${a.refreshToken}`).expect(204);
    expect((await t.http.get('/api/me').set(bearer(a.accessToken))).status).toBe(401);

    const b = await signUp(t.http);
    await t.http.post('/api/auth/sign-out').set(bearer(b.accessToken)).expect(204);
    expect((await refreshWith(t.http, b.refreshToken)).status).toBe(401);

    const anonymous = await t.http.post('/api/auth/sign-out').expect(204);
    expect(cookieValue(anonymous, 'fr_refresh')).toBe('');
  });

  it('refuses forged, expired, malformed and wrong-algorithm access tokens with 401', async () => {
    const a = await signUp(t.http);
    const jwt = t.app.get(JwtService);
    const sid = a.refreshToken.split('.')[0];
    const now = Math.floor(Date.now() / 1000);
    const forged = await jwt.signAsync(
      { sub: a.userId, sid, role: 'admin', exp: now + 600 },
      { secret: 'another-secret-0123456789abcdef0123456789', algorithm: 'HS256' },
    );
    const expired = await jwt.signAsync(
      { sub: a.userId, sid, role: 'user', exp: now - 5 },
      { secret: t.config.auth.jwtSecret, algorithm: 'HS256' },
    );
    const notUuid = await jwt.signAsync(
      { sub: 'x', sid: 'y', role: 'user', exp: now + 600 },
      { secret: t.config.auth.jwtSecret, algorithm: 'HS256' },
    );
    const [header, payload] = a.accessToken.split('.');
    const algNone = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: a.userId, sid, role: 'admin', exp: now + 600 })).toString('base64url')}.${a.accessToken.split('.')[2]}`;
    // rightly signed, for a live session, but without an expiry: it would never end
    const noExpiry = await jwt.signAsync({ sub: a.userId, sid, role: 'user' }, { secret: t.config.auth.jwtSecret, algorithm: 'HS256' });
    const stringExpiry = await jwt
      .signAsync({ sub: a.userId, sid, role: 'user', exp: `${now + 600}` }, { secret: t.config.auth.jwtSecret, algorithm: 'HS256' })
      .catch(() => 'x.y.z');
    for (const [label, token] of Object.entries({ forged, expired, notUuid, algNone, tampered, noExpiry, stringExpiry, garbage: 'abc' })) {
      const res = await t.http.get('/api/auth/is-admin').set(bearer(token));
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 401, body: AUTH_ERROR });
    }
    const basic = await t.http.get('/api/me').set('Authorization', `Basic ${Buffer.from(`${a.email}:${PASSWORD}`).toString('base64')}`);
    expect(basic.status).toBe(401);
  });

  it('tells caches never to keep what a signed-in caller receives (Cache-Control: no-store)', async () => {
    const a = await signUp(t.http);
    for (const path of ['/api/me', '/api/me/settings', '/api/me/stats', '/api/generations', '/api/catalog', '/api/auth/is-admin']) {
      const res = await t.http.get(path).set(bearer(a.accessToken));
      expect({ path, status: res.status, cacheControl: res.headers['cache-control'] }).toEqual({
        path,
        status: 200,
        cacheControl: 'no-store',
      });
    }
    expect((await t.http.post('/api/auth/sign-in').send({ email: a.email, password: PASSWORD })).headers['cache-control']).toBe('no-store');
  });

  it('reads the role from the database on every request, so a promotion applies to a live token at once', async () => {
    const a = await signUp(t.http);
    expect((await t.http.get('/api/auth/is-admin').set(bearer(a.accessToken))).body).toEqual({ is_admin: false });
    await db.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [a.userId]);
    expect((await t.http.get('/api/auth/is-admin').set(bearer(a.accessToken))).body).toEqual({ is_admin: true });
  });
});

describe('sessions in production', () => {
  it('marks the refresh cookie Secure', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      FILES_SIGNING_SECRET: 'Zr9mQ2vX7pL4kT8wN1bY6cH3jF5dG0aS',
      AUTH_JWT_SECRET: 'Hq3nW8eR1tY6uI9oP2aS5dF7gJ0kL4zX',
    });
    try {
      const a = await signUp(t.http);
      expect(setCookieLine(a.res, 'fr_refresh')).toMatch(/; Secure/i);
    } finally {
      await t.close();
    }
  });
});
