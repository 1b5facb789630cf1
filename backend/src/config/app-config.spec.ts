import { ConfigurationError, loadConfig } from './app-config';

const valid = {
  DATABASE_URL: 'postgres://u:p@db:5432/app',
  FILES_SIGNING_SECRET: 'a-long-random-secret-value-of-32-chars!',
  AUTH_JWT_SECRET: 'another-long-random-value-for-jwt-0123',
};

function problems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
  throw new Error('expected loadConfig to refuse this environment');
}

describe('loadConfig', () => {
  it('accepts a minimal environment and applies the documented defaults', () => {
    const config = loadConfig(valid);
    expect(config.port).toBe(3000);
    expect(config.appName).toBe('Fitting Room');
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.corsOrigins).toEqual(['http://localhost:3000']);
    expect(config.queue.driver).toBe('in-process');
    expect(config.queue.consumeInApi).toBe(true);
    expect(config.storage.driver).toBe('local');
    expect(config.storage.signedUrlTtlSeconds).toBe(900);
  });

  it('runs the face checks unless FACE_CHECKS=off, and not under NODE_ENV=test unless FACE_CHECKS=on', () => {
    expect(loadConfig(valid).faces).toEqual({ checks: true });
    expect(loadConfig({ ...valid, NODE_ENV: 'development', FACE_CHECKS: '' }).faces).toEqual({ checks: true });
    expect(loadConfig({ ...valid, FACE_CHECKS: 'off' }).faces).toEqual({ checks: false });
    expect(loadConfig({ ...valid, NODE_ENV: 'test' }).faces).toEqual({ checks: false });
    expect(loadConfig({ ...valid, NODE_ENV: 'test', FACE_CHECKS: 'on' }).faces).toEqual({ checks: true });
  });

  it('derives the contact addresses from APP_URL unless SUPPORT_EMAIL / BUSINESS_EMAIL are set', () => {
    expect(loadConfig(valid).contact).toEqual({ supportEmail: 'support@localhost', businessEmail: 'business@localhost' });
    expect(loadConfig({ ...valid, APP_URL: 'https://www.shop.example' }).contact).toEqual({
      supportEmail: 'support@shop.example',
      businessEmail: 'business@shop.example',
    });
    expect(loadConfig({ ...valid, SUPPORT_EMAIL: 'help@a.example', BUSINESS_EMAIL: 'deals@a.example' }).contact).toEqual({
      supportEmail: 'help@a.example',
      businessEmail: 'deals@a.example',
    });
    expect(problems({ ...valid, SUPPORT_EMAIL: 'not-an-address' })).toEqual(['SUPPORT_EMAIL must be an email address']);
  });

  it('chooses BullMQ with REDIS_URL and S3 with S3_BUCKET', () => {
    const config = loadConfig({
      ...valid,
      REDIS_URL: 'redis://r:6379',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      QUEUE_CONSUME_IN_API: 'false',
    });
    expect(config.queue.driver).toBe('bullmq');
    expect(config.queue.consumeInApi).toBe(false);
    expect(config.storage.driver).toBe('s3');
    expect(config.storage.s3).toMatchObject({ bucket: 'b', accessKeyId: 'k', region: 'us-east-1' });
    expect(config.storage.s3?.publicEndpoint).toBeUndefined();
  });

  it('keeps S3_PUBLIC_ENDPOINT apart from S3_ENDPOINT, as an origin', () => {
    const s3 = { ...valid, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_ENDPOINT: 'http://minio:9000' };
    expect(loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'https://files.shop.example/' }).storage.s3).toMatchObject({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'https://files.shop.example',
    });
    expect(loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: '' }).storage.s3?.publicEndpoint).toBeUndefined();
    for (const bad of [
      'localhost:9000',
      'ftp://files.example',
      'https://files.example/minio',
      'https://k:s@files.example',
      'https://files.example?x=1',
    ]) {
      expect(problems({ ...s3, S3_PUBLIC_ENDPOINT: bad })).toEqual([expect.stringMatching(/^S3_PUBLIC_ENDPOINT must be/)]);
    }
  });

  it('names a missing required variable', () => {
    expect(problems({ ...valid, DATABASE_URL: undefined })).toEqual([expect.stringMatching(/^DATABASE_URL is required/)]);
    expect(problems({ ...valid, FILES_SIGNING_SECRET: undefined })).toEqual([expect.stringMatching(/^FILES_SIGNING_SECRET is required/)]);
    expect(problems({ ...valid, AUTH_JWT_SECRET: undefined })).toEqual([expect.stringMatching(/^AUTH_JWT_SECRET is required/)]);
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a whole number/],
    [{ PORT: '70000' }, /^PORT must be between 1 and 65535/],
    [{ DATABASE_URL: 'mysql://x@y/z' }, /^DATABASE_URL must be a URL starting with postgres:/],
    [{ REDIS_URL: 'http://localhost' }, /^REDIS_URL must be a URL starting with redis:/],
    [{ NODE_ENV: 'staging' }, /^NODE_ENV /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
    [{ FILES_SIGNING_SECRET: 'short' }, /^FILES_SIGNING_SECRET must be at least 32 characters/],
    [{ SIGNED_URL_TTL_SECONDS: '1' }, /^SIGNED_URL_TTL_SECONDS must be between/],
    [{ LOG_PRETTY: 'maybe' }, /^LOG_PRETTY /],
    [{ S3_BUCKET: 'bucket' }, /^S3_ACCESS_KEY_ID is required when S3_BUCKET is set/],
    [{ NODE_ENV: 'production', FILES_SIGNING_SECRET: 'change-me-change-me-change-me-change-me' }, /^FILES_SIGNING_SECRET is a placeholder/],
    [
      {
        NODE_ENV: 'production',
        FILES_SIGNING_SECRET: 'Zr9mQ2vX7pL4kT8wN1bY6cH3jF5dG0aS',
        AUTH_JWT_SECRET: 'please-change-me-please-change-me-0000',
      },
      /^AUTH_JWT_SECRET is a placeholder/,
    ],
    [{ AUTH_JWT_SECRET: 'too-short' }, /^AUTH_JWT_SECRET must be at least 32 characters/],
    [{ AUTH_ACCESS_TOKEN_TTL_SECONDS: '5' }, /^AUTH_ACCESS_TOKEN_TTL_SECONDS must be between/],
    [{ AUTH_SESSION_TTL_DAYS: '0' }, /^AUTH_SESSION_TTL_DAYS must be between/],
    [{ AUTH_GOOGLE_CLIENT_ID: 'id-only' }, /^AUTH_GOOGLE_CLIENT_SECRET is required when AUTH_GOOGLE_CLIENT_ID is set/],
    [{ AUTH_GOOGLE_CLIENT_SECRET: 'secret-only' }, /^AUTH_GOOGLE_CLIENT_ID is required when AUTH_GOOGLE_CLIENT_SECRET is set/],
    [{ AUTH_GOOGLE_TOKEN_URL: 'ftp://x' }, /^AUTH_GOOGLE_TOKEN_URL must be a URL starting with http:/],
    [{ ADMIN_EMAILS: 'a@b.co, not an email' }, /^ADMIN_EMAILS must be a comma-separated list of email addresses/],
    [{ AUTH_RATE_LIMIT_EMAIL_MAX: '0' }, /^AUTH_RATE_LIMIT_EMAIL_MAX must be between/],
  ])('refuses %p and names the variable', (override, expected) => {
    expect(problems({ ...valid, ...override })).toEqual([expect.stringMatching(expected)]);
  });

  it('lists every bad variable at once', () => {
    expect(
      problems({ PORT: 'x', REDIS_URL: 'nope' })
        .map((p) => p.split(' ')[0])
        .sort(),
    ).toEqual(['AUTH_JWT_SECRET', 'DATABASE_URL', 'FILES_SIGNING_SECRET', 'PORT', 'REDIS_URL'].sort());
  });

  it('reads the auth settings: token lifetimes, admin emails (lower-cased), rate limits, Google only with id and secret', () => {
    const config = loadConfig(valid);
    expect(config.auth).toEqual({
      jwtSecret: valid.AUTH_JWT_SECRET,
      accessTokenTtlSeconds: 900,
      sessionTtlDays: 30,
      refreshReuseGraceSeconds: 20,
      adminEmails: [],
      google: undefined,
      rateLimit: { windowSeconds: 60, ipMax: 30, emailMax: 10, emailUntrustedMax: 100, refreshMax: 60 },
      requireStaffTwoFactor: false,
      encryptionKey: undefined,
    });
    const production = { ...valid, NODE_ENV: 'production', FILES_SIGNING_SECRET: 'q'.repeat(40), AUTH_JWT_SECRET: 'z'.repeat(40) };
    expect(loadConfig(production).auth.requireStaffTwoFactor).toBe(true);
    expect(loadConfig({ ...production, AUTH_REQUIRE_STAFF_2FA: 'false' }).auth.requireStaffTwoFactor).toBe(false);
    const custom = loadConfig({
      ...valid,
      ADMIN_EMAILS: ' Boss@Example.com ,ops@example.com,, boss@example.com',
      AUTH_GOOGLE_CLIENT_ID: 'client',
      AUTH_GOOGLE_CLIENT_SECRET: 'secret-value',
      AUTH_GOOGLE_USERINFO_URL: 'http://127.0.0.1:9999/userinfo',
      AUTH_ACCESS_TOKEN_TTL_SECONDS: '300',
      AUTH_SESSION_TTL_DAYS: '7',
    });
    expect(custom.auth.adminEmails).toEqual(['boss@example.com', 'ops@example.com']);
    expect(custom.auth.google).toEqual({
      clientId: 'client',
      clientSecret: 'secret-value',
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      userInfoUrl: 'http://127.0.0.1:9999/userinfo',
    });
    expect([custom.auth.accessTokenTtlSeconds, custom.auth.sessionTtlDays]).toEqual([300, 7]);
  });

  it('trusts X-Forwarded-For from no proxy unless TRUST_PROXY names them', () => {
    expect(loadConfig(valid).trustProxy).toBe(false);
    expect(loadConfig({ ...valid, TRUST_PROXY: 'none' }).trustProxy).toBe(false);
    expect(loadConfig({ ...valid, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...valid, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => loadConfig({ ...valid, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...valid, TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('reads SMTP only with SMTP_HOST (secure on 465, sender from APP_NAME and SUPPORT_EMAIL) and refuses half an SMTP login', () => {
    expect(loadConfig(valid).smtp).toBeUndefined();
    expect(loadConfig({ ...valid, SMTP_HOST: 'mail.example', SUPPORT_EMAIL: 'help@shop.example' }).smtp).toEqual({
      host: 'mail.example',
      port: 587,
      secure: false,
      user: undefined,
      password: undefined,
      from: 'Fitting Room <help@shop.example>',
    });
    expect(
      loadConfig({
        ...valid,
        SMTP_HOST: 'mail.example',
        SMTP_PORT: '465',
        SMTP_USER: 'u',
        SMTP_PASSWORD: 'p',
        SMTP_FROM: 'Desk <desk@shop.example>',
      }).smtp,
    ).toMatchObject({
      port: 465,
      secure: true,
      user: 'u',
      password: 'p',
      from: 'Desk <desk@shop.example>',
    });
    expect(problems({ ...valid, SMTP_HOST: 'mail.example', SMTP_USER: 'u' })).toEqual([
      'SMTP_PASSWORD is required when SMTP_USER is set (SMTP authentication needs both)',
    ]);
    expect(problems({ ...valid, SMTP_FROM: 'desk@shop.example' })).toEqual(['SMTP_HOST is required when SMTP_USER or SMTP_FROM is set']);
    expect(problems({ ...valid, SMTP_HOST: 'mail.example', SMTP_FROM: 'not an address' })).toEqual([
      'SMTP_FROM must be an email address, optionally as "Name <address>"',
    ]);
    expect(problems({ ...valid, SMTP_PORT: '70000' })).toEqual(['SMTP_PORT must be between 1 and 65535, got 70000']);
    expect(loadConfig({ ...valid, ALERT_FAILED_GENERATIONS_THRESHOLD: '3' }).alerts).toEqual({
      failedGenerationsThreshold: 3,
      failedGenerationsWindowMin: 10,
      queueBacklogThreshold: 100,
      queueBacklogCheckEveryMin: 5,
    });
  });

  it('turns payments on only with a Stripe secret key, which needs the webhook secret', () => {
    expect(loadConfig(valid).stripe).toEqual({
      secretKey: undefined,
      webhookSecret: undefined,
      publishableKey: undefined,
      apiUrl: undefined,
      eventAttempts: 8,
      eventRetryMs: 2000,
      webhookRateLimit: { max: 300, windowSeconds: 60 },
    });
    expect(problems({ ...valid, STRIPE_SECRET_KEY: 'sk_test_123' })).toEqual([expect.stringMatching(/^STRIPE_WEBHOOK_SECRET is required/)]);
    expect(problems({ ...valid, STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY must be a secret key/),
    ]);
    const config = loadConfig({
      ...valid,
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_API_URL: 'http://127.0.0.1:12111/',
    });
    expect(config.stripe).toMatchObject({ secretKey: 'sk_test_123', webhookSecret: 'whsec_1', apiUrl: 'http://127.0.0.1:12111' });
  });
});
