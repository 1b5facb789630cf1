import { ConfigurationError, loadConfig } from './app-config';

const valid = {
  DATABASE_URL: 'postgres://u:p@db:5432/app',
  FILES_SIGNING_SECRET: 'a-long-random-secret-value-of-32-chars!',
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

  it('chooses BullMQ with REDIS_URL and S3 with S3_BUCKET', () => {
    const config = loadConfig({ ...valid, REDIS_URL: 'redis://r:6379', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', QUEUE_CONSUME_IN_API: 'false' });
    expect(config.queue.driver).toBe('bullmq');
    expect(config.queue.consumeInApi).toBe(false);
    expect(config.storage.driver).toBe('s3');
    expect(config.storage.s3).toMatchObject({ bucket: 'b', accessKeyId: 'k', region: 'us-east-1' });
  });

  it('names a missing required variable', () => {
    expect(problems({ FILES_SIGNING_SECRET: valid.FILES_SIGNING_SECRET })).toEqual([expect.stringMatching(/^DATABASE_URL is required/)]);
    expect(problems({ DATABASE_URL: valid.DATABASE_URL })).toEqual([expect.stringMatching(/^FILES_SIGNING_SECRET is required/)]);
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
  ])('refuses %p and names the variable', (override, expected) => {
    expect(problems({ ...valid, ...override })).toEqual([expect.stringMatching(expected)]);
  });

  it('lists every bad variable at once', () => {
    expect(problems({ PORT: 'x', REDIS_URL: 'nope' }).map((p) => p.split(' ')[0]).sort()).toEqual(
      ['DATABASE_URL', 'FILES_SIGNING_SECRET', 'PORT', 'REDIS_URL'].sort(),
    );
  });
});
