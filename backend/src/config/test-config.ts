import { type AppConfig, loadConfig } from './app-config';

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object | undefined ? DeepPartial<NonNullable<T[K]>> : T[K];
};

/** The smallest environment loadConfig accepts: a database URL and the two secrets. */
export const TEST_ENV: NodeJS.ProcessEnv = {
  NODE_ENV: 'test',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/unused',
  FILES_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef0123',
  AUTH_JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789',
  LOG_LEVEL: 'silent',
};

function merge<T>(base: T, overrides: DeepPartial<T> | undefined): T {
  if (!overrides) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)
        ? merge(current, value as DeepPartial<typeof current>)
        : value;
  }
  return out as T;
}

/**
 * A complete configuration for unit tests, as loadConfig() builds it from a minimal environment
 * (every section present, every default applied), with the test's own values laid over it:
 * `testConfig({ ai: { pollIntervalMs: 100 } })`.
 */
export function testConfig(overrides?: DeepPartial<AppConfig>, env: NodeJS.ProcessEnv = {}): AppConfig {
  return merge(loadConfig({ ...TEST_ENV, ...env }), overrides);
}
