import Redis from 'ioredis';
import request from 'supertest';
import { DEVICE_COOKIE } from '../../src/modules/auth/rate-limit/device-cookie';
import { cookieValue, PASSWORD, signUp, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

const RATE_LIMITED = { statusCode: 429, code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.' };
const LIMITS = {
  AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
  AUTH_RATE_LIMIT_IP_MAX: '12',
  AUTH_RATE_LIMIT_EMAIL_MAX: '3',
  AUTH_RATE_LIMIT_EMAIL_UNTRUSTED_MAX: '10',
  AUTH_RATE_LIMIT_REFRESH_MAX: '2',
  // the tests stand behind a loopback proxy that names the client in X-Forwarded-For
  TRUST_PROXY: 'loopback',
};

// Addresses from TEST-NET-3 (documentation only) in X-Forwarded-For.
let next = 1;
const freshIp = () => `203.0.113.${next++ % 250}`;

describe.each([
  ['in-memory storage', {}],
  ['Redis storage', { REDIS_URL: testRedisUrl() }],
])('auth rate limits with the %s', (_label, storage: Record<string, string>) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ...LIMITS, ...storage });
  });
  afterAll(async () => t?.close());

  const signIn = (email: string, ip: string, password = 'wrong-password-1', cookie?: string) => {
    const req = t.http.post('/api/auth/sign-in').set('X-Forwarded-For', ip);
    if (cookie) req.set('Cookie', cookie);
    return req.send({ email, password });
  };

  it('limits wrong passwords for an account from one client, answering 429 in the catalogue shape with Retry-After', async () => {
    const victim = await signUp(t.http, { email: uniqueEmail('victim') });
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await signIn(victim.email, ip)).status).toBe(401);
    const limited = await signIn(victim.email.toUpperCase(), ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(RATE_LIMITED);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // that client's right password waits too: guessing is what the limit stops
    expect((await signIn(victim.email, ip, PASSWORD)).status).toBe(429);
    // another account from the same client is not affected
    expect((await signIn(uniqueEmail('other'), ip)).status).toBe(401);
    if (storage.REDIS_URL) {
      // the counters really live in Redis (shared by every API process), under the queue prefix
      const redis = new Redis(storage.REDIS_URL);
      try {
        const keys = await redis.keys(`${t.config.queue.prefix}:rl:c:signin:*`);
        expect(keys.length).toBeGreaterThan(0);
        expect(await redis.pttl(keys[0])).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    }
  });

  it('never lets strangers lock the owner out of a device they signed in on before', async () => {
    const owner = await signUp(t.http, { email: uniqueEmail('owner') });
    // the owner's browser: it signed in once and keeps its device cookie
    const first = await signIn(owner.email, freshIp(), PASSWORD).expect(200);
    const device = `${DEVICE_COOKIE}=${cookieValue(first, DEVICE_COOKIE)}`;
    expect(cookieValue(first, DEVICE_COOKIE)).toBeTruthy();
    // ten strangers, from ten addresses, then more: every untrusted client is now refused
    for (let i = 0; i < 10; i++) expect((await signIn(owner.email, freshIp())).status).toBe(401);
    expect((await signIn(owner.email, freshIp())).status).toBe(429);
    expect((await signIn(owner.email, freshIp(), PASSWORD)).status).toBe(429);
    // the owner's device still signs in, from wherever it is now
    const again = await signIn(owner.email, freshIp(), PASSWORD, device);
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(owner.userId);
  });

  it("counts a device's own failures against that device only", async () => {
    const owner = await signUp(t.http, { email: uniqueEmail('forgetful') });
    const ip = freshIp();
    const first = await signIn(owner.email, ip, PASSWORD).expect(200);
    const device = `${DEVICE_COOKIE}=${cookieValue(first, DEVICE_COOKIE)}`;
    for (let i = 0; i < 3; i++) expect((await signIn(owner.email, ip, 'not-it-at-all', device)).status).toBe(401);
    expect((await signIn(owner.email, ip, PASSWORD, device)).status).toBe(429);
    // a forged device cookie is just no cookie: it is counted with the other clients of that address
    expect((await signIn(owner.email, freshIp(), PASSWORD, `${DEVICE_COOKIE}=v1.abc.def.forged`)).status).toBe(200);
  });

  it('limits sign-in attempts per IP, whatever the email', async () => {
    const ip = freshIp();
    for (let i = 0; i < 12; i++) expect((await signIn(uniqueEmail('spray'), ip)).status).toBe(401);
    const limited = await signIn(uniqueEmail('spray'), ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(RATE_LIMITED);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(uniqueEmail('spray'), freshIp())).status).toBe(401);
  });

  it('limits sign-ups per email', async () => {
    const email = uniqueEmail('signup-flood');
    const attempt = () =>
      t.http
        .post('/api/auth/sign-up')
        .set('X-Forwarded-For', freshIp())
        .send({ full_name: 'F', email, password: 'short', age_confirmed: true });
    for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(400);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(RATE_LIMITED);
  });

  it('limits refreshes per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 2; i++) expect((await t.http.post('/api/auth/refresh').set('X-Forwarded-For', ip)).status).toBe(401);
    const limited = await t.http.post('/api/auth/refresh').set('X-Forwarded-For', ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(RATE_LIMITED);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not limit other routes', async () => {
    const ip = freshIp();
    for (let i = 0; i < 14; i++) expect((await t.http.get('/api/me').set('X-Forwarded-For', ip)).status).toBe(401);
  });
});

describe('X-Forwarded-For', () => {
  it('is ignored unless TRUST_PROXY names the proxy: a client cannot dodge the per-IP limit by inventing addresses', async () => {
    const t = await createTestApp({ ...LIMITS, TRUST_PROXY: '' });
    try {
      const attempts = [];
      for (let i = 0; i < 13; i++)
        attempts.push(
          (
            await t.http
              .post('/api/auth/sign-in')
              .set('X-Forwarded-For', freshIp())
              .send({ email: uniqueEmail('dodge'), password: 'wrong-password-1' })
          ).status,
        );
      expect(attempts.slice(0, 12).every((s) => s === 401)).toBe(true);
      expect(attempts[12]).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('is not believed from a client other than the proxy TRUST_PROXY names', async () => {
    const t = await createTestApp({ ...LIMITS, TRUST_PROXY: '10.9.8.7' });
    try {
      // the test client is 127.0.0.1, not the named proxy: its header is not believed either
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 13; i++)
        statuses.push(
          (
            await request(t.app.getHttpServer())
              .post('/api/auth/sign-in')
              .set('X-Forwarded-For', `${ip}, ${freshIp()}`)
              .send({ email: uniqueEmail('proxy'), password: 'wrong-password-1' })
          ).status,
        );
      expect(statuses[12]).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('auth rate limits when Redis does not answer', () => {
  it('lets requests through rather than failing sign-in', async () => {
    const t = await createTestApp({ ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1', QUEUE_CONSUME_IN_API: 'false' });
    try {
      const res = await t.http.post('/api/auth/sign-in').send({ email: uniqueEmail('no-redis'), password: 'wrong-password-1' });
      expect(res.status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
