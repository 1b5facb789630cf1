import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { bearer, PASSWORD, signIn, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';
import type { Response } from 'supertest';

/**
 * Walks every route the API has, as anonymous, user A, user B, support and admin, and checks each
 * answer against the table below. A route without a row fails the test: add its row when you add
 * a route (and rows for routes that no longer exist fail it too).
 */
const PERSONAS = ['anonymous', 'userA', 'userB', 'support', 'admin'] as const;
type Persona = (typeof PERSONAS)[number];
type Expected = Record<Persona, number>;

interface Context {
  t: TestApp;
  people: Record<Exclude<Persona, 'anonymous'>, SignedIn>;
}

interface Request {
  /** the concrete path, for routes with parameters */
  path?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** a different bearer token than the persona's (e.g. a throwaway session) */
  token?: string | null;
}

interface Row {
  expect: Expected;
  request?: (persona: Persona, ctx: Context) => Promise<Request> | Request;
  /** further checks of a successful answer */
  check?: (res: Response, persona: Persona, ctx: Context) => void;
}

const everyone = (status: number): Expected => ({ anonymous: status, userA: status, userB: status, support: status, admin: status });
const adminOnly = (status: number): Expected => ({ anonymous: 401, userA: 403, userB: 403, support: 403, admin: status });
const signedIn = (status: number): Expected => ({ anonymous: 401, userA: status, userB: status, support: status, admin: status });

const ownId = (res: Response, persona: Persona, ctx: Context) => {
  if (persona !== 'anonymous') expect(res.body.id).toBe(ctx.people[persona].userId);
};

const SETTINGS_OF: Record<Persona, { email_notifications: boolean; generation_notifications: boolean; marketing_emails: boolean }> = {
  anonymous: { email_notifications: true, generation_notifications: true, marketing_emails: true },
  userA: { email_notifications: false, generation_notifications: true, marketing_emails: false },
  userB: { email_notifications: true, generation_notifications: false, marketing_emails: true },
  support: { email_notifications: false, generation_notifications: false, marketing_emails: false },
  admin: { email_notifications: true, generation_notifications: true, marketing_emails: true },
};

const NO_SUCH_GENERATION = '00000000-0000-4000-8000-000000000000';

/** A fresh photo of user A (for the rows of the routes that read or delete one). */
async function uploadOfUserA(ctx: Context): Promise<string> {
  const jpeg = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
  const res = await ctx.t.http
    .post('/api/uploads')
    .set(bearer(ctx.people.userA.accessToken))
    .field('confirm_own_photos', 'true')
    .attach('files', jpeg, { filename: 'a.jpg', contentType: 'image/jpeg' });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.uploads[0].id as string;
}

/** A fresh ticket from the public contact form (for the rows of the support desk). */
async function supportTicket(ctx: Context): Promise<string> {
  const res = await ctx.t.http
    .post('/api/support/inquiries')
    .send({ name: 'Matrix Person', email: 'matrix@example.com', subject: 'Matrix', message: 'Hello' });
  if (res.status !== 201) throw new Error(`contact form answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** A fresh personal API token of a person, made through Settings' route; answers its id. */
async function tokenOf(ctx: Context, who: 'userA' | 'userB'): Promise<string> {
  const res = await ctx.t.http
    .post('/api/me/tokens')
    .set(bearer(ctx.people[who].accessToken))
    .send({ name: 'matrix', scopes: ['account:read'] });
  if (res.status !== 201) throw new Error(`token creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** A fresh webhook endpoint of user A (nothing listens at the port: its test event fails, harmlessly); answers its id. */
async function endpointOfUserA(ctx: Context): Promise<string> {
  const res = await ctx.t.http
    .post('/api/me/webhooks')
    .set(bearer(ctx.people.userA.accessToken))
    .send({ url: 'http://127.0.0.1:9/matrix', events: ['generation.completed'] });
  if (res.status !== 201) throw new Error(`webhook creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

const tested = new WeakMap<Context, Promise<string>>();
/** One endpoint of user A for every caller's test event (an account has at most 10 endpoints). */
function testedEndpoint(ctx: Context): Promise<string> {
  if (!tested.has(ctx)) tested.set(ctx, endpointOfUserA(ctx));
  return tested.get(ctx)!;
}

const supportDesk = (status: number): Expected => ({ anonymous: 401, userA: 403, userB: 403, support: status, admin: status });

/** Keys are `METHOD path` with Express's path syntax, as the router lists them. */
const MATRIX: Record<string, Row> = {
  'GET /api/health': { expect: everyone(200) },
  'GET /api/health/live': { expect: everyone(200) },
  'GET /api/health/ready': { expect: everyone(200) },

  // Swagger UI and the OpenAPI document
  'GET /api/docs': { expect: everyone(200) },
  'GET /api/docs/': { expect: everyone(200) },
  'GET /api/docs/index.html': { expect: everyone(200) },
  'GET /api/docs/swagger-ui-init.js': { expect: everyone(200) },
  'GET /api/docs/docs/swagger-ui-init.js': { expect: everyone(200) },
  'GET /api/docs/LICENSE': { expect: everyone(404) }, // registered by @nestjs/swagger; the file is not shipped
  'GET /api/docs-json': { expect: everyone(200) },
  'GET /api/docs-yaml': { expect: everyone(200) },

  // the catalogue: public; a signed-in caller's tier decides `locked`
  'GET /api/catalog': { expect: everyone(200) },
  'GET /api/catalog/artwork/:id.svg': { expect: everyone(200), request: () => ({ path: '/api/catalog/artwork/bikini-yellow.svg' }) },
  'GET /api/catalog/artwork/:id.webp': { expect: everyone(200), request: () => ({ path: '/api/catalog/artwork/bikini-yellow.webp' }) },
  // public; a template without an uploaded thumbnail has none (test/catalog covers one that has)
  'GET /api/catalog/artwork/:id.jpg': { expect: everyone(404), request: () => ({ path: '/api/catalog/artwork/bikini-yellow.jpg' }) },

  // signed links of the local storage: the signature decides, not the caller
  'GET /api/files/*key': { expect: everyone(403), request: () => ({ path: '/api/files/users/someone/uploads/a.jpg?exp=1&sig=x' }) },

  // auth
  'POST /api/auth/sign-up': {
    expect: everyone(201),
    request: (persona) => ({
      body: { full_name: `New ${persona}`, email: uniqueEmail(`new-${persona}`), password: PASSWORD, age_confirmed: true },
    }),
    check: (res) => expect(res.body.user.role).toBe('user'),
  },
  'POST /api/auth/sign-in': {
    expect: everyone(200),
    request: (_persona, ctx) => ({ body: { email: ctx.people.userA.email, password: PASSWORD } }),
    check: (res, _persona, ctx) => expect(res.body.user.id).toBe(ctx.people.userA.userId),
  },
  'POST /api/auth/refresh': { expect: everyone(401) }, // the refresh cookie, never the bearer token, identifies the session
  'POST /api/auth/sign-out': {
    expect: everyone(204),
    // a throwaway session of the same person, so the persona stays signed in for the other rows
    request: async (persona, ctx) => ({
      token: persona === 'anonymous' ? null : (await signIn(ctx.t.http, ctx.people[persona].email)).accessToken,
    }),
  },
  // the second step of a two-factor sign-in: the challenge token decides, not the caller
  'POST /api/auth/sign-in/2fa': { expect: everyone(401), request: () => ({ body: { mfa_token: 'not.a-challenge', code: '123456' } }) },
  // mailed links: the token decides; asking for a mail answers the same to everyone
  'POST /api/auth/verify-email': { expect: everyone(400), request: () => ({ body: { token: 'not.a-token' } }) },
  'POST /api/auth/verify-email/resend': {
    expect: everyone(202),
    request: (persona) => ({ body: persona === 'anonymous' ? { email: uniqueEmail('resend') } : {} }),
  },
  'POST /api/auth/password/forgot': { expect: everyone(202), request: () => ({ body: { email: uniqueEmail('forgot') } }) },
  'POST /api/auth/password/reset': {
    expect: everyone(400),
    request: () => ({ body: { token: 'not.a-token', password: 'a-new-unusual-pass-5' } }),
  },
  'POST /api/mail/unsubscribe': { expect: everyone(400), request: () => ({ body: { token: 'not-a-token' } }) },
  'GET /api/auth/google': { expect: everyone(302) },
  'GET /api/auth/google/callback': { expect: everyone(302) },
  'GET /api/auth/is-admin': {
    expect: signedIn(200),
    check: (res, persona) => expect(res.body).toEqual({ is_admin: persona === 'admin' }),
  },

  // my account: always the caller's own
  'GET /api/me': { expect: signedIn(200), check: ownId },
  'PATCH /api/me': {
    expect: signedIn(200),
    request: (persona) => ({ body: { full_name: `Renamed by ${persona}` } }),
    check: (res, persona, ctx) => {
      ownId(res, persona, ctx);
      expect(res.body.full_name).toBe(`Renamed by ${persona}`);
    },
  },
  'GET /api/me/settings': { expect: signedIn(200) },
  'PUT /api/me/settings': {
    expect: signedIn(200),
    request: (persona) => ({ body: SETTINGS_OF[persona] }),
    check: (res, persona) => expect(res.body).toEqual(SETTINGS_OF[persona]),
  },
  'GET /api/me/stats': { expect: signedIn(200) },
  // security settings: the caller's own account; a wrong current password is a 400
  'POST /api/me/password': {
    expect: signedIn(400),
    request: () => ({ body: { current_password: 'not-my-password-1', new_password: 'a-new-unusual-pass-5' } }),
  },
  'POST /api/me/2fa/setup': { expect: signedIn(200), check: (res) => expect(res.body.otpauth_url).toMatch(/^otpauth:\/\/totp\//) },
  'POST /api/me/2fa/enable': {
    expect: signedIn(400),
    request: async (persona, ctx) => {
      if (persona !== 'anonymous') await ctx.t.http.post('/api/me/2fa/setup').set(bearer(ctx.people[persona].accessToken)).expect(200);
      return { body: { code: '000000' } };
    },
  },
  'POST /api/me/2fa/disable': { expect: signedIn(409), request: () => ({ body: { code: '000000' } }) },
  'DELETE /api/me': {
    expect: signedIn(204),
    // a throwaway account, so the persona itself lives on for the other rows
    request: async (persona, ctx) => ({
      token: persona === 'anonymous' ? null : (await signUp(ctx.t.http, { full_name: `Leaving ${persona}` })).accessToken,
      body: { confirm: 'DELETE', password: PASSWORD },
    }),
  },
  'GET /api/me/2fa/recovery-codes': {
    expect: signedIn(200),
    check: (res) => expect(res.body).toEqual({ remaining: null, total: 10 }),
  },
  'POST /api/me/2fa/recovery-codes': { expect: signedIn(409), request: () => ({ body: { code: '000000' } }) },
  'GET /api/me/export': { expect: signedIn(200), check: (res) => expect(res.headers['content-type']).toBe('application/zip') },
  'GET /api/me/tickets': { expect: signedIn(200), check: (res) => expect(res.body).toEqual({ tickets: [], total: 0 }) },
  // nobody has ticket 1 (numbers start at 1001): the same 404 as another person's ticket
  'GET /api/me/tickets/:number': { expect: signedIn(404), request: () => ({ path: '/api/me/tickets/1' }) },
  'POST /api/me/tickets/:number/messages': {
    expect: signedIn(404),
    request: () => ({ path: '/api/me/tickets/1/messages', body: { message: 'Hello' } }),
  },

  // personal API tokens and webhooks (docs/api.md): the caller's own only; test/developer covers what a token may reach
  'GET /api/me/tokens': { expect: signedIn(200) },
  'POST /api/me/tokens': {
    expect: signedIn(201),
    request: () => ({ body: { name: 'matrix', scopes: ['account:read'] } }),
    check: (res) => expect(res.body.token).toMatch(/^frk_/),
  },
  'DELETE /api/me/tokens/:id': {
    // a fresh token of user A each time: only A revokes it, anyone else is told there is no such token
    expect: { anonymous: 401, userA: 204, userB: 404, support: 404, admin: 404 },
    request: async (_persona, ctx) => ({ path: `/api/me/tokens/${await tokenOf(ctx, 'userA')}` }),
  },
  'GET /api/me/webhooks': { expect: signedIn(200) },
  'POST /api/me/webhooks': {
    expect: signedIn(201),
    request: () => ({ body: { url: 'http://127.0.0.1:9/matrix', events: ['generation.completed'] } }),
    check: (res) => expect(res.body.secret).toMatch(/^whsec_/),
  },
  'DELETE /api/me/webhooks/:id': {
    expect: { anonymous: 401, userA: 204, userB: 404, support: 404, admin: 404 },
    request: async (_persona, ctx) => ({ path: `/api/me/webhooks/${await endpointOfUserA(ctx)}` }),
  },
  'POST /api/me/webhooks/:id/test': {
    expect: { anonymous: 401, userA: 202, userB: 404, support: 404, admin: 404 },
    request: async (_persona, ctx) => ({ path: `/api/me/webhooks/${await testedEndpoint(ctx)}/test` }),
  },

  // photos: the caller's own only (test/uploads covers the files themselves)
  'POST /api/uploads': { expect: signedIn(400) }, // no file: VALIDATION_ERROR
  'GET /api/uploads/usage': { expect: signedIn(200) }, // each caller's own figures
  'GET /api/uploads/:id': {
    expect: { anonymous: 401, userA: 200, userB: 404, support: 404, admin: 404 },
    request: async (_persona, ctx) => ({ path: `/api/uploads/${await uploadOfUserA(ctx)}` }),
    check: (res) => expect(res.body.url).toContain('/api/files/users/'),
  },
  'DELETE /api/uploads/:id': {
    expect: { anonymous: 401, userA: 204, userB: 404, support: 404, admin: 404 },
    request: async (_persona, ctx) => ({ path: `/api/uploads/${await uploadOfUserA(ctx)}` }),
  },

  // generations: the owner's only (test/generations proves each route against another user's generation)
  'POST /api/generations': { expect: signedIn(400), request: () => ({ body: {} }) },
  // the help as one types: nothing recorded, but only for the signed-in (it is the generate panel's)
  'POST /api/generations/custom-pose/check': {
    expect: signedIn(200),
    request: () => ({ body: { text: 'walking on the beach at sunset' } }),
  },
  'GET /api/generations/custom-pose/building-blocks': { expect: everyone(200) },
  'POST /api/generations/check': {
    expect: signedIn(200),
    request: () => ({ body: { type: 'image', category: 'bikini', template_id: 'bikini-yellow', scene_id: 'beach-standing' } }),
    check: (res) => expect(res.body).toMatchObject({ cost: 1 }),
  },
  'GET /api/generations': { expect: signedIn(200), check: (res) => expect(res.body).toMatchObject({ items: [], total: 0 }) },
  'GET /api/generations/:id': { expect: signedIn(404), request: () => ({ path: `/api/generations/${NO_SUCH_GENERATION}` }) },
  'GET /api/generations/:id/events': { expect: signedIn(404), request: () => ({ path: `/api/generations/${NO_SUCH_GENERATION}/events` }) },
  'POST /api/generations/:id/cancel': { expect: signedIn(404), request: () => ({ path: `/api/generations/${NO_SUCH_GENERATION}/cancel` }) },
  'DELETE /api/generations/:id': { expect: signedIn(404), request: () => ({ path: `/api/generations/${NO_SUCH_GENERATION}` }) },
  'GET /api/generations/:id/download': {
    expect: signedIn(404),
    request: () => ({ path: `/api/generations/${NO_SUCH_GENERATION}/download` }),
  },
  // "Only you": one's own consent and live selfie (the face checks are off in this suite: the selfie answers so)
  'GET /api/faces/status': { expect: signedIn(200), check: (res) => expect(res.body).toMatchObject({ checks: false }) },
  'POST /api/faces/consent': { expect: signedIn(400), request: () => ({ body: { version: 'not-the-current-one' } }) },
  'POST /api/faces/selfie/challenges': { expect: signedIn(400) },
  'POST /api/faces/selfie': { expect: signedIn(400) },

  // the AI vendor's callback: the provider verifies it; `preview` (the tests' provider) has none
  'POST /api/webhooks/ai/:provider': {
    expect: everyone(404),
    request: () => ({ path: '/api/webhooks/ai/preview', body: { id: 'x', status: 'completed' } }),
  },

  // the console (common/auth/access-policy.ts): admin everything; support a read-only user lookup
  'GET /api/admin/stats': { expect: adminOnly(200) },
  'GET /api/admin/users': {
    expect: { anonymous: 401, userA: 403, userB: 403, support: 200, admin: 200 },
    check: (res) => expect(res.headers['content-range']).toMatch(/^users \d+-\d+\/\d+$/),
  },
  'GET /api/admin/users/:id': {
    expect: { anonymous: 401, userA: 403, userB: 403, support: 200, admin: 200 },
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}` }),
    check: (res, _persona, ctx) => expect(res.body.id).toBe(ctx.people.userB.userId),
  },
  'PATCH /api/admin/users/:id': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}`, body: { tier: 'free' } }),
  },
  'PUT /api/admin/users/:id': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}`, body: { tier: 'free' } }),
  },
  // the tier change's confirmation: admins only, and it changes nothing
  'GET /api/admin/users/:id/tier-change': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}/tier-change?tier=starter` }),
    check: (res) => expect(res.body).toMatchObject({ from_tier: 'free', to_tier: 'starter', unchanged: false }),
  },
  // roles: admins only; user B keeps the role it has (nothing changes)
  'PUT /api/admin/users/:id/role': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}/role`, body: { role: 'user' } }),
    check: (res) => expect(res.body.role).toBe('user'),
  },
  // suspending: admins only; lifting a suspension that is not there changes nothing
  'POST /api/admin/users/:id/suspension': {
    expect: adminOnly(200),
    request: async (_persona, ctx) => ({
      path: `/api/admin/users/${(await signUp(ctx.t.http, { full_name: 'To Suspend' })).userId}/suspension`,
      body: { reason: 'matrix' },
    }),
  },
  'DELETE /api/admin/users/:id/suspension': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}/suspension` }),
  },
  'POST /api/admin/users/:id/credits': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({
      path: `/api/admin/users/${ctx.people.userB.userId}/credits`,
      body: { mode: 'add', amount: 1, reason: 'matrix' },
    }),
  },
  'GET /api/admin/users/:id/api-tokens': {
    expect: adminOnly(200),
    request: (_persona, ctx) => ({ path: `/api/admin/users/${ctx.people.userB.userId}/api-tokens` }),
  },
  'DELETE /api/admin/users/:id/api-tokens/:tokenId': {
    expect: adminOnly(204),
    request: async (_persona, ctx) => ({
      path: `/api/admin/users/${ctx.people.userB.userId}/api-tokens/${await tokenOf(ctx, 'userB')}`,
    }),
  },
  'GET /api/admin/generations': { expect: adminOnly(200) },
  'GET /api/admin/generations/:id': {
    expect: adminOnly(404),
    request: () => ({ path: `/api/admin/generations/${NO_SUCH_GENERATION}` }),
  },
  // a blank subject: nobody's mail is sent, and the roles still decide first
  'POST /api/admin/announcements': { expect: adminOnly(400), request: () => ({ body: { subject: '', body: 'x' } }) },
  'DELETE /api/admin/generations/:id': {
    expect: adminOnly(404),
    request: () => ({ path: `/api/admin/generations/${NO_SUCH_GENERATION}` }),
  },
  'GET /api/admin/audit-log': { expect: adminOnly(200) },
  // money is for admins: support staff see neither payments nor revenue
  'GET /api/admin/payments': {
    expect: adminOnly(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^payments (\d+-\d+|\*)\/\d+$/),
  },
  'GET /api/admin/stripe-events': {
    expect: adminOnly(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^stripe-events (\d+-\d+|\*)\/\d+$/),
  },
  // no such event was received: support staff and users never learn whether one was
  'GET /api/admin/stripe-events/:id': {
    expect: adminOnly(404),
    request: () => ({ path: '/api/admin/stripe-events/evt_1Pgc76B7WZ01zgkWwyRHS12y' }),
  },
  'POST /api/admin/stripe-events/:id/replay': {
    expect: adminOnly(404),
    request: () => ({ path: '/api/admin/stripe-events/evt_1Pgc76B7WZ01zgkWwyRHS12y/replay' }),
  },
  'GET /api/admin/revenue': { expect: adminOnly(200), check: (res) => expect(res.body).toMatchObject({ mrr: expect.any(Number) }) },
  'GET /api/admin/queues': { expect: adminOnly(200) },
  // the outbox of mail written without SMTP (test/auth/email-verification and others read it)
  'GET /api/admin/outbox': {
    expect: adminOnly(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^outbox (\d+-\d+|\*)\/\d+$/),
  },
  'GET /api/admin/outbox/:id': {
    expect: adminOnly(404),
    request: () => ({ path: '/api/admin/outbox/20260101T000000000Z-0001abcdef-nothing.eml' }),
  },
  // in-process driver here: no Bull Board, so an admin's 404 (test/admin/admin-queues covers the board with Redis)
  'POST /api/admin/queue-board/session': { expect: adminOnly(404) },

  // notifications: admins only (test/notifications covers them)
  'GET /api/admin/notifications': {
    expect: adminOnly(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^notifications (\d+-\d+|\*)\/\d+$/),
  },
  'GET /api/admin/notifications/:id': {
    expect: adminOnly(404),
    request: () => ({ path: `/api/admin/notifications/${NO_SUCH_GENERATION}` }),
  },
  'PATCH /api/admin/notifications/:id': {
    expect: adminOnly(404),
    request: () => ({ path: `/api/admin/notifications/${NO_SUCH_GENERATION}`, body: { read: true } }),
  },
  'PUT /api/admin/notifications/:id': {
    expect: adminOnly(404),
    request: () => ({ path: `/api/admin/notifications/${NO_SUCH_GENERATION}`, body: { read: true } }),
  },

  // the managed catalogue: admins only (test/catalog covers the edits); nothing here changes it
  'GET /api/admin/templates': {
    expect: adminOnly(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^templates \d+-\d+\/\d+$/),
  },
  'POST /api/admin/templates': { expect: adminOnly(400), request: () => ({ body: {} }) },
  'GET /api/admin/templates/:id': { expect: adminOnly(404), request: () => ({ path: '/api/admin/templates/no-such-template' }) },
  'PATCH /api/admin/templates/:id': {
    expect: adminOnly(404),
    request: () => ({ path: '/api/admin/templates/no-such-template', body: { name: 'Nothing' } }),
  },
  'PUT /api/admin/templates/:id/garment': {
    expect: adminOnly(400),
    request: () => ({ path: '/api/admin/templates/bikini-yellow/garment' }),
  },
  'PUT /api/admin/templates/:id/thumbnail': {
    expect: adminOnly(400),
    request: () => ({ path: '/api/admin/templates/bikini-yellow/thumbnail' }),
  },
  'GET /api/admin/scenes': {
    expect: adminOnly(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^scenes \d+-\d+\/\d+$/),
  },
  'POST /api/admin/scenes': { expect: adminOnly(400), request: () => ({ body: {} }) },
  'GET /api/admin/scenes/:id': { expect: adminOnly(404), request: () => ({ path: '/api/admin/scenes/no-such-scene' }) },
  'PATCH /api/admin/scenes/:id': {
    expect: adminOnly(404),
    request: () => ({ path: '/api/admin/scenes/no-such-scene', body: { name: 'Nothing' } }),
  },
  'PUT /api/admin/scenes/:id/garment': { expect: adminOnly(400), request: () => ({ path: '/api/admin/scenes/beach-standing/garment' }) },

  // payments: no Stripe key in these tests, so the product's "coming soon" (test/billing covers Stripe)
  'POST /api/billing/checkout': { expect: signedIn(501), request: () => ({ body: { plan: 'starter' } }) },
  'POST /api/billing/portal': { expect: signedIn(501) },
  'POST /api/webhooks/stripe': { expect: everyone(501), request: () => ({ body: { id: 'evt_x', type: 'invoice.paid' } }) },

  // support: the public contact form; the desk for support and admins (test/support covers them)
  'POST /api/support/inquiries': {
    expect: everyone(201),
    request: (persona) => ({ body: { name: `Sender ${persona}`, email: 'sender@example.com', subject: 'Hello', message: 'A question' } }),
    check: (res) => expect(res.body).toMatchObject({ status: 'open', kind: 'question' }),
  },
  'GET /api/admin/support-inquiries': {
    expect: supportDesk(200),
    check: (res) => expect(res.headers['content-range']).toMatch(/^support-inquiries (\d+-\d+|\*)\/\d+$/),
  },
  'GET /api/admin/support-inquiries/:id': {
    expect: supportDesk(200),
    request: async (_persona, ctx) => ({ path: `/api/admin/support-inquiries/${await supportTicket(ctx)}` }),
    check: (res) => expect(res.body).toMatchObject({ status: 'open', messages: [] }),
  },
  'PATCH /api/admin/support-inquiries/:id': {
    expect: supportDesk(200),
    request: async (_persona, ctx) => ({
      path: `/api/admin/support-inquiries/${await supportTicket(ctx)}`,
      body: { status: 'in_progress' },
    }),
    check: (res) => expect(res.body.status).toBe('in_progress'),
  },
  'PUT /api/admin/support-inquiries/:id': {
    expect: supportDesk(200),
    request: async (_persona, ctx) => ({ path: `/api/admin/support-inquiries/${await supportTicket(ctx)}`, body: { priority: 'urgent' } }),
    check: (res) => expect(res.body.priority).toBe('urgent'),
  },
  'POST /api/admin/support-inquiries/:id/messages': {
    expect: supportDesk(201),
    request: async (_persona, ctx) => ({
      path: `/api/admin/support-inquiries/${await supportTicket(ctx)}/messages`,
      body: { kind: 'note', body: 'internal' },
    }),
    check: (res) => expect(res.body).toMatchObject({ kind: 'note', delivered: null }),
  },
  // admins only; a question has no candidates to choose from: 400
  'POST /api/admin/support-inquiries/:id/match': {
    expect: adminOnly(400),
    request: async (_persona, ctx) => ({
      path: `/api/admin/support-inquiries/${await supportTicket(ctx)}/match`,
      body: { generation_id: null },
    }),
  },
  // admins only; a question names no generation: 400
  'POST /api/admin/support-inquiries/:id/remove-generation': {
    expect: adminOnly(400),
    request: async (_persona, ctx) => ({ path: `/api/admin/support-inquiries/${await supportTicket(ctx)}/remove-generation` }),
  },
};

/** Every route of the live Express router under /api (Nest's controllers, Swagger's routes, anything else). */
function liveRoutes(t: TestApp): string[] {
  const server = t.app.getHttpAdapter().getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
  const stack = (server.router ?? server._router)!.stack as Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
  const routes = new Set<string>();
  for (const layer of stack) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all');
    if (methods.length > 8) continue; // middleware mounted for every method (logging), not a route
    for (const method of methods) routes.add(`${method.toUpperCase()} ${layer.route.path}`);
  }
  return [...routes].filter((r) => r.split(' ')[1].startsWith('/api')).sort();
}

describe('authorization matrix: every route, as every kind of caller', () => {
  let t: TestApp;
  let ctx: Context;
  const adminEmail = uniqueEmail('matrix-admin');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: adminEmail });
    const [userA, userB, support, admin] = [
      await signUp(t.http, { full_name: 'User A' }),
      await signUp(t.http, { full_name: 'User B' }),
      await signUp(t.http, { full_name: 'Support Person' }),
      await signUp(t.http, { email: adminEmail, full_name: 'Admin Person' }),
    ];
    await t.app.get(DataSource).query(`UPDATE users SET role = 'support' WHERE id = $1`, [support.userId]);
    ctx = { t, people: { userA, userB, support, admin } };
  });
  afterAll(async () => t?.close());

  it('has a row for every route, and no row for a route that does not exist', () => {
    const live = liveRoutes(t);
    expect(live.length).toBeGreaterThan(10);
    expect({
      routesWithoutRow: live.filter((r) => !MATRIX[r]),
      rowsWithoutRoute: Object.keys(MATRIX).filter((r) => !live.includes(r)),
    }).toEqual({
      routesWithoutRow: [],
      rowsWithoutRoute: [],
    });
  });

  it('answers each caller as the table says', async () => {
    const mismatches: string[] = [];
    for (const [route, row] of Object.entries(MATRIX)) {
      const [method, routePath] = route.split(' ');
      for (const persona of PERSONAS) {
        const request = (await row.request?.(persona, ctx)) ?? {};
        const token = request.token !== undefined ? request.token : persona === 'anonymous' ? null : ctx.people[persona].accessToken;
        let req = t.http[method.toLowerCase() as 'get'](request.path ?? routePath);
        if (token) req = req.set(bearer(token));
        for (const [name, value] of Object.entries(request.headers ?? {})) req = req.set(name, value);
        if (request.body !== undefined) req = req.send(request.body as object);
        const res = await req;
        if (res.status !== row.expect[persona]) {
          mismatches.push(
            `${route} as ${persona}: expected ${row.expect[persona]}, got ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
          );
          continue;
        }
        // the two-factor step's own 401 (its challenge ended) is not about the caller's session
        if (res.status === 401 && routePath !== '/api/auth/sign-in/2fa')
          expect(res.body).toEqual({ statusCode: 401, code: 'AUTH_ERROR', message: 'Authentication error. Please sign in again.' });
        if (res.status === 403 && !routePath.startsWith('/api/files'))
          expect(res.body).toEqual({ statusCode: 403, code: 'FORBIDDEN', message: 'Permission denied.' });
        if (res.status < 300) row.check?.(res, persona, ctx);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('user B never reads or changes user A: after everyone edited their own profile and settings, A has exactly what A set', async () => {
    const { userA, userB } = ctx.people;
    await t.http.patch('/api/me').set(bearer(userA.accessToken)).send({ full_name: 'Only A decides this' }).expect(200);
    await t.http.put('/api/me/settings').set(bearer(userA.accessToken)).send(SETTINGS_OF.userA).expect(200);
    await t.http.patch('/api/me').set(bearer(userB.accessToken)).send({ full_name: 'B was here' }).expect(200);
    await t.http.put('/api/me/settings').set(bearer(userB.accessToken)).send(SETTINGS_OF.userB).expect(200);

    const a = await t.http.get('/api/me').set(bearer(userA.accessToken)).expect(200);
    expect(a.body).toMatchObject({ id: userA.userId, email: userA.email, full_name: 'Only A decides this' });
    expect((await t.http.get('/api/me/settings').set(bearer(userA.accessToken))).body).toEqual(SETTINGS_OF.userA);
    const b = await t.http.get('/api/me').set(bearer(userB.accessToken)).expect(200);
    expect(b.body).toMatchObject({ id: userB.userId, full_name: 'B was here' });
    expect(JSON.stringify(b.body)).not.toContain(userA.email);
    // nothing in the API accepts another user's id on these routes: they are scoped to the token
    const sneaky = await t.http.patch('/api/me').set(bearer(userB.accessToken)).send({ id: userA.userId, full_name: 'Hijack' });
    expect(sneaky.status).toBe(400);
    expect((await t.http.get('/api/me').set(bearer(userA.accessToken))).body.full_name).toBe('Only A decides this');
  });

  it('documents bearer auth in the OpenAPI document on every route that needs a signed-in caller', async () => {
    const doc = (await t.http.get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const problems: string[] = [];
    for (const [route, row] of Object.entries(MATRIX)) {
      const [method, routePath] = route.split(' ');
      const op = doc.paths[routePath.replace(/\*(\w+)/g, '{$1}').replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      if (!op) continue; // Swagger's own routes are not in the document
      const documented = JSON.stringify(op.security ?? []).includes('bearer');
      const bearerDecides = row.expect.anonymous === 401 && row.expect.userA !== 401;
      if (bearerDecides && !documented) problems.push(`${route} refuses anonymous callers but has no bearer security`);
    }
    expect(problems).toEqual([]);
  });
});
