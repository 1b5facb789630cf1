/**
 * Personal API tokens (docs/api.md) against the real app: made in Settings and shown once, kept as
 * a hash, scoped per route, never reaching the console or the account's security, revoked at once
 * (by the owner, an admin, a password reset, a take-over), rate limited per token, audited with no
 * token in the trail, and every route of the API either names the scope it needs or refuses them.
 */
import { randomUUID } from 'node:crypto';
import { API_TOKEN_SCOPE_NAMES } from '@fitting-room/shared/developer-api';
import { DataSource } from 'typeorm';
import { bearer, PASSWORD, signIn, signUp, type SignedIn, uniqueEmail } from '../helpers/auth';
import { linkTo, outboxFiles, waitForMail } from '../helpers/mail';
import { createTestApp, type TestApp } from '../helpers/test-app';

const ALL_SCOPES = [...API_TOKEN_SCOPE_NAMES];

async function makeToken(t: TestApp, who: SignedIn, body: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const res = await t.http
    .post('/api/me/tokens')
    .set(bearer(who.accessToken))
    .send({ name: 'test token', scopes: ALL_SCOPES, ...body });
  if (res.status !== 201) throw new Error(`token creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.token };
}

describe('personal API tokens', () => {
  let t: TestApp;
  let db: DataSource;
  const adminEmail = uniqueEmail('tokens-admin');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: adminEmail, API_TOKEN_RATE_LIMIT_MAX: '1000' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => t?.close());

  it('are shown once, listed by their first characters, and kept only as a hash', async () => {
    const who = await signUp(t.http);
    const created = await t.http
      .post('/api/me/tokens')
      .set(bearer(who.accessToken))
      .send({ name: '  Nightly export  ', scopes: ['generations:read', 'account:read'], expires_at: '2099-01-01T00:00:00Z' })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Nightly export',
      prefix: created.body.token.slice(0, 8),
      scopes: ['generations:read', 'account:read'],
      created_at: expect.any(String),
      expires_at: '2099-01-01T00:00:00.000Z',
      last_used_at: null,
      token: expect.stringMatching(/^frk_[0-9A-Za-z]{36}$/),
    });
    const list = await t.http.get('/api/me/tokens').set(bearer(who.accessToken)).expect(200);
    const { token: _shownOnce, ...listed } = created.body;
    expect(list.body).toEqual([listed]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    // nothing stored holds the token: only its SHA-256
    const [row] = await db.query(`SELECT row_to_json(t)::text AS row FROM api_tokens t WHERE id = $1`, [created.body.id]);
    expect(row.row).not.toContain(created.body.token);
    expect(row.row).not.toContain(created.body.token.slice(8));
  });

  it('stand for their owner on the routes that name their scope, and record when they were last used (once a minute)', async () => {
    const who = await signUp(t.http);
    const { id, token } = await makeToken(t, who, { scopes: ['account:read'] });
    const me = await t.http.get('/api/me').set(bearer(token)).expect(200);
    expect(me.body).toMatchObject({ id: who.userId, email: who.email });
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.headers['ratelimit-limit']).toBe('1000');
    const [first] = await db.query(`SELECT last_used_at FROM api_tokens WHERE id = $1`, [id]);
    expect(first.last_used_at).not.toBeNull();
    await t.http.get('/api/me/stats').set(bearer(token)).expect(200);
    const [second] = await db.query(`SELECT last_used_at FROM api_tokens WHERE id = $1`, [id]);
    expect(second.last_used_at).toEqual(first.last_used_at); // within the minute: not written again
    const listed = await t.http.get('/api/me/tokens').set(bearer(who.accessToken)).expect(200);
    expect(listed.body[0].last_used_at).toBe(new Date(first.last_used_at).toISOString());
  });

  it('answer 403 INSUFFICIENT_SCOPE, naming the scope, on a route their scopes do not cover, changing nothing', async () => {
    const who = await signUp(t.http);
    const { token } = await makeToken(t, who, { scopes: ['generations:read'] });
    const res = await t.http.delete(`/api/uploads/${randomUUID()}`).set(bearer(token));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      statusCode: 403,
      code: 'INSUFFICIENT_SCOPE',
      message: 'This API token does not have the scope uploads:write.',
    });
    expect((await t.http.get('/api/generations').set(bearer(token))).status).toBe(200);
  });

  it('never change the password, the email, two-factor, tokens, webhooks or the account, nor delete it', async () => {
    const who = await signUp(t.http);
    const { token } = await makeToken(t, who);
    const attempts: Array<[string, string, object?]> = [
      ['post', '/api/me/password', { current_password: PASSWORD, new_password: 'another-unusual-pass-77' }],
      ['patch', '/api/me', { full_name: 'Changed By Token' }],
      ['post', '/api/me/2fa/setup'],
      ['post', '/api/me/2fa/disable', { code: '000000' }],
      ['get', '/api/me/tokens'],
      ['post', '/api/me/tokens', { name: 'child', scopes: ALL_SCOPES }],
      ['delete', `/api/me/tokens/${randomUUID()}`],
      ['get', '/api/me/webhooks'],
      ['post', '/api/me/webhooks', { url: 'http://127.0.0.1:9/x', events: ['generation.completed'] }],
      ['put', '/api/me/settings', { email_notifications: false, generation_notifications: false, marketing_emails: true }],
      ['delete', '/api/me', { confirm: 'DELETE' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.http[method as 'post'](path)
        .set(bearer(token))
        .send(body ?? {});
      expect({ route: `${method} ${path}`, status: res.status, body: res.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: { statusCode: 403, code: 'API_TOKEN_NOT_ALLOWED', message: 'API tokens cannot be used for this request: sign in to do it.' },
      });
    }
    // everything as it was: the password signs in, the name and the account are there, no other token or endpoint
    await signIn(t.http, who.email, PASSWORD);
    const me = await t.http.get('/api/me').set(bearer(who.accessToken)).expect(200);
    expect(me.body.full_name).toBe('Test Person');
    expect((await t.http.get('/api/me/tokens').set(bearer(who.accessToken))).body).toHaveLength(1);
    expect((await t.http.get('/api/me/webhooks').set(bearer(who.accessToken))).body).toEqual([]);
  });

  it("never reach the console, even an admin's token with every scope", async () => {
    const admin = await signUp(t.http, { email: adminEmail });
    expect((await t.http.get('/api/admin/users').set(bearer(admin.accessToken))).status).toBe(200);
    const { token } = await makeToken(t, admin);
    for (const path of ['/api/admin/users', '/api/admin/stats', `/api/admin/users/${admin.userId}`, '/api/admin/audit-log']) {
      const res = await t.http.get(path).set(bearer(token));
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 403, code: 'API_TOKEN_NOT_ALLOWED' });
    }
    const adjust = await t.http
      .post(`/api/admin/users/${admin.userId}/credits`)
      .set(bearer(token))
      .send({ mode: 'add', amount: 5, reason: 'token' });
    expect(adjust.status).toBe(403);
  });

  it('answer 401 once revoked, expired, malformed or unknown, and say so when the account is suspended', async () => {
    const who = await signUp(t.http);
    const revoked = await makeToken(t, who);
    await t.http.get('/api/me').set(bearer(revoked.token)).expect(200);
    await t.http.delete(`/api/me/tokens/${revoked.id}`).set(bearer(who.accessToken)).expect(204);
    const expired = await makeToken(t, who);
    await db.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const typo = revoked.token.slice(0, -1) + (revoked.token.endsWith('a') ? 'b' : 'a');
    for (const token of [revoked.token, expired.token, typo, 'frk_nope', `frk_${'0'.repeat(36)}`]) {
      const res = await t.http.get('/api/me').set(bearer(token));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_ERROR');
      // a public route does not serve a broken token as anonymous either: the script hears that its token stopped working
      expect((await t.http.get('/api/catalog').set(bearer(token))).status).toBe(401);
    }
    expect((await t.http.get('/api/me/tokens').set(bearer(who.accessToken))).body).toEqual([]);
    const live = await makeToken(t, who);
    await db.query(`UPDATE users SET suspended_at = now() WHERE id = $1`, [who.userId]);
    const suspended = await t.http.get('/api/me').set(bearer(live.token));
    expect(suspended.status).toBe(401);
    expect(suspended.body.message).toMatch(/suspended/i);
  });

  it("cannot revoke another person's token, and an admin can (from the user's console page), audited without the token", async () => {
    const owner = await signUp(t.http);
    const stranger = await signUp(t.http);
    const admin = await signIn(t.http, adminEmail).catch(async () => signUp(t.http, { email: adminEmail }));
    const { id, token } = await makeToken(t, owner);
    expect((await t.http.delete(`/api/me/tokens/${id}`).set(bearer(stranger.accessToken))).status).toBe(404);
    await t.http.get('/api/me').set(bearer(token)).expect(200);

    const listed = await t.http.get(`/api/admin/users/${owner.userId}/api-tokens`).set(bearer(admin.accessToken)).expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ id, name: 'test token', revoked_at: null, revoke_reason: null })]);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    await t.http.delete(`/api/admin/users/${stranger.userId}/api-tokens/${id}`).set(bearer(admin.accessToken)).expect(404);
    await t.http.delete(`/api/admin/users/${owner.userId}/api-tokens/${id}`).set(bearer(admin.accessToken)).expect(204);
    expect((await t.http.get('/api/me').set(bearer(token))).status).toBe(401);
    const after = await t.http.get(`/api/admin/users/${owner.userId}/api-tokens`).set(bearer(admin.accessToken)).expect(200);
    expect(after.body[0]).toMatchObject({ id, revoked_at: expect.any(String), revoke_reason: 'admin' });

    const audit: { action: string; actor_id: string; target_user_id: string; row: string }[] = await db.query(
      `SELECT action, actor_id, target_user_id, row_to_json(a)::text AS row FROM audit_log a WHERE target_id = $1 ORDER BY created_at`,
      [id],
    );
    expect(audit.map((a) => [a.action, a.actor_id, a.target_user_id])).toEqual([
      ['api_token.create', owner.userId, owner.userId],
      ['api_token.admin_revoke', admin.userId, owner.userId],
    ]);
    for (const a of audit) {
      expect(a.row).not.toContain(token);
      expect(a.row).not.toContain(token.slice(4, 12));
    }
  });

  it('all end with a password reset', async () => {
    const who = await signUp(t.http);
    const a = await makeToken(t, who);
    const b = await makeToken(t, who, { scopes: ['account:read'] });
    const seen = outboxFiles(t.config.mail.outboxDir);
    await t.http.post('/api/auth/password/forgot').send({ email: who.email }).expect(202);
    const { token: link } = linkTo(
      await waitForMail(t.config.mail.outboxDir, { to: who.email, template: 'password-reset', after: seen }),
      '/reset-password',
    );
    await t.http.post('/api/auth/password/reset').send({ token: link, password: 'a-brand-new-pass-4412' }).expect(200);
    for (const token of [a.token, b.token]) expect((await t.http.get('/api/me').set(bearer(token))).status).toBe(401);
    const rows = await db.query(`SELECT revoke_reason FROM api_tokens WHERE user_id = $1`, [who.userId]);
    expect(rows.map((r: { revoke_reason: string }) => r.revoke_reason)).toEqual(['password_reset', 'password_reset']);
  });

  it("end, with the webhook endpoints, when the address's owner takes an account a stranger made over (reset link)", async () => {
    const email = uniqueEmail('taken-over');
    const stranger = await signUp(t.http, { email, verified: false });
    const { token } = await makeToken(t, stranger);
    await t.http
      .post('/api/me/webhooks')
      .set(bearer(stranger.accessToken))
      .send({ url: 'http://127.0.0.1:9/stranger', events: ['generation.completed'] })
      .expect(201);
    await t.http.get('/api/me').set(bearer(token)).expect(200);
    const seen = outboxFiles(t.config.mail.outboxDir);
    await t.http.post('/api/auth/password/forgot').send({ email }).expect(202);
    const { token: link } = linkTo(
      await waitForMail(t.config.mail.outboxDir, { to: email, template: 'password-reset', after: seen }),
      '/reset-password',
    );
    await t.http.post('/api/auth/password/reset').send({ token: link, password: 'the-owners-own-pass-5521' }).expect(200);
    expect((await t.http.get('/api/me').set(bearer(token))).status).toBe(401);
    const [left] = await db.query(
      `SELECT (SELECT count(*)::int FROM developer_webhook_endpoints WHERE user_id = $1) AS endpoints,
              (SELECT count(*)::int FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL) AS tokens`,
      [stranger.userId],
    );
    expect(left).toEqual({ endpoints: 0, tokens: 0 });
  });

  it('go with the account when it is deleted', async () => {
    const who = await signUp(t.http);
    const { token } = await makeToken(t, who);
    await t.http.delete('/api/me').set(bearer(who.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    expect((await t.http.get('/api/me').set(bearer(token))).status).toBe(401);
    expect((await db.query(`SELECT count(*)::int AS n FROM api_tokens WHERE user_id = $1`, [who.userId]))[0].n).toBe(0);
  });

  it('refuse a creation without a name or scopes, with an unknown scope or an expiry in the past, changing nothing', async () => {
    const who = await signUp(t.http);
    for (const body of [
      { scopes: ['account:read'] },
      { name: '   ', scopes: ['account:read'] },
      { name: 'x'.repeat(101), scopes: ['account:read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin:all'] },
      { name: 'x', scopes: ['account:read', 'account:read'] },
      { name: 'x', scopes: ['account:read'], expires_at: '2001-01-01T00:00:00Z' },
      { name: 'x', scopes: ['account:read'], expires_at: 'tomorrow' },
      { name: 'x', scopes: ['account:read'], user_id: randomUUID() },
    ]) {
      const res = await t.http.post('/api/me/tokens').set(bearer(who.accessToken)).send(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await t.http.get('/api/me/tokens').set(bearer(who.accessToken))).body).toEqual([]);
  });

  it('every route names the scope a token needs, or refuses tokens (and the OpenAPI document says which)', async () => {
    const admin = await signIn(t.http, adminEmail).catch(async () => signUp(t.http, { email: adminEmail }));
    const { token } = await makeToken(t, admin);
    const doc = (await t.http.get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const accepted: string[] = [];
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const security = op.security ?? [];
        const scopes = security.find((s) => 'apiToken' in s)?.apiToken;
        const session = security.some((s) => 'bearer' in s);
        const anonymous = security.some((s) => Object.keys(s).length === 0);
        if (!session || path.startsWith('/api/auth/')) continue; // public routes, and the auth routes (their own credentials)
        const concrete = path.replace(/\{[^}]+\}/g, randomUUID());
        const res = await t.http[method as 'get'](concrete).set(bearer(token)).send({});
        const route = `${method.toUpperCase()} ${path}`;
        if (scopes) {
          accepted.push(`${route} ${scopes.join(' ')}`);
          if (path.startsWith('/api/admin')) problems.push(`${route} takes tokens under /api/admin`);
          if (res.status === 401 || res.body.code === 'API_TOKEN_NOT_ALLOWED' || res.body.code === 'INSUFFICIENT_SCOPE')
            problems.push(`${route} is documented for tokens but answered ${res.status} ${res.body.code}`);
        } else if (!anonymous && !(res.status === 403 && res.body.code === 'API_TOKEN_NOT_ALLOWED')) {
          problems.push(`${route} takes no token but answered ${res.status} ${res.body.code}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // the routes a token reaches, on purpose: any new one is a decision to make here
    expect(accepted.sort()).toEqual(
      [
        'DELETE /api/generations/{id} generations:write',
        'DELETE /api/uploads/{id} uploads:write',
        'GET /api/catalog account:read',
        'GET /api/generations generations:read',
        'GET /api/generations/{id} generations:read',
        'GET /api/generations/{id}/download generations:read',
        'GET /api/generations/{id}/events generations:read',
        'GET /api/me account:read',
        'GET /api/me/stats account:read',
        'GET /api/uploads/usage uploads:read',
        'GET /api/uploads/{id} uploads:read',
        'POST /api/generations generations:write',
        'POST /api/generations/check generations:write',
        'POST /api/generations/custom-pose/check generations:write',
        'POST /api/generations/{id}/cancel generations:write',
        'POST /api/uploads uploads:write',
      ].sort(),
    );
  });
});

describe('personal API tokens: the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ API_TOKEN_RATE_LIMIT_MAX: '5', API_TOKEN_RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(async () => t?.close());

  it('stops a token after API_TOKEN_RATE_LIMIT_MAX requests a window (429, Retry-After), not its owner nor another token', async () => {
    const who = await signUp(t.http);
    const busy = await makeToken(t, who);
    const other = await makeToken(t, who);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.http.get('/api/me').set(bearer(busy.token))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await t.http.get('/api/me').set(bearer(busy.token));
    expect(refused.body).toEqual({ statusCode: 429, code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect((await t.http.get('/api/me').set(bearer(other.token))).status).toBe(200);
    expect((await t.http.get('/api/me').set(bearer(who.accessToken))).status).toBe(200);
  });
});
