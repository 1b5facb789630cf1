import Redis from 'ioredis';
import { PASSWORD, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp, testRedisUrl } from '../helpers/test-app';

const RATE_LIMITED = { statusCode: 429, code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.' };
const LIMITS = { AUTH_RATE_LIMIT_WINDOW_SECONDS: '60', AUTH_RATE_LIMIT_IP_MAX: '5', AUTH_RATE_LIMIT_EMAIL_MAX: '3', AUTH_RATE_LIMIT_REFRESH_MAX: '2' };

// Addresses from TEST-NET-3 (documentation only) in X-Forwarded-For: the app trusts its loopback proxy.
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

  const signIn = (email: string, ip: string) => t.http.post('/api/auth/sign-in').set('X-Forwarded-For', ip).send({ email, password: 'wrong-password-1' });

  it('limits sign-in attempts per email, whatever the IP, answering 429 in the catalogue shape with Retry-After', async () => {
    const victim = uniqueEmail('victim');
    for (let i = 0; i < 3; i++) expect((await signIn(victim, freshIp())).status).toBe(401);
    const limited = await signIn(victim.toUpperCase(), freshIp());
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(RATE_LIMITED);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // the right password does not get through either while limited
    expect((await t.http.post('/api/auth/sign-in').set('X-Forwarded-For', freshIp()).send({ email: victim, password: PASSWORD })).status).toBe(429);
    // another email is not affected
    expect((await signIn(uniqueEmail('other'), freshIp())).status).toBe(401);
    if (storage.REDIS_URL) {
      // the counters really live in Redis (shared by every API process), under the queue prefix
      const redis = new Redis(storage.REDIS_URL);
      try {
        const keys = await redis.keys(`${t.config.queue.prefix}:rl:auth-email:*`);
        expect(keys.length).toBeGreaterThan(0);
        expect(await redis.pttl(keys[0])).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    }
  });

  it('limits sign-in attempts per IP, whatever the email', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await signIn(uniqueEmail('spray'), ip)).status).toBe(401);
    const limited = await signIn(uniqueEmail('spray'), ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(RATE_LIMITED);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(uniqueEmail('spray'), freshIp())).status).toBe(401);
  });

  it('limits sign-ups per email', async () => {
    const email = uniqueEmail('signup-flood');
    const attempt = () =>
      t.http.post('/api/auth/sign-up').set('X-Forwarded-For', freshIp()).send({ full_name: 'F', email, password: 'short', age_confirmed: true });
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
    for (let i = 0; i < 8; i++) expect((await t.http.get('/api/me').set('X-Forwarded-For', ip)).status).toBe(401);
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
