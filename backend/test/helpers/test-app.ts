import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { createApiApp } from '../../src/bootstrap/api';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** The database created for this run by test/global-setup.js (migrations run when the app boots). */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DB_URL;
  if (!url)
    throw new Error('TEST_DB_URL is not set: run the tests through Jest (backend/jest.config.js), whose global setup creates the database');
  return url;
}

export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';
}

/** A unique prefix for Redis keys and names, so parallel runs never collide. */
export function uniqueId(label = 't'): string {
  return `${label}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Builds a validated configuration for tests through the same loader as production. */
export function testConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: testDatabaseUrl(),
    FILES_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef0123',
    AUTH_JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789',
    // generous, so tests that sign many people up never trip them; rate-limit tests lower them
    AUTH_RATE_LIMIT_IP_MAX: '10000',
    AUTH_RATE_LIMIT_EMAIL_MAX: '10000',
    AUTH_RATE_LIMIT_REFRESH_MAX: '10000',
    SUPPORT_RATE_LIMIT_MAX: '10000',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SERVE_UI: 'false',
    QUEUE_PREFIX: uniqueId('q'),
    APP_URL: 'http://127.0.0.1:3000',
    ...overrides,
  });
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  http: TestAgent;
  close(): Promise<void>;
}

/** Boots the real AppModule (real PostgreSQL, real queue driver) with the real pipes, guards and filter. */
export async function createTestApp(overrides: Record<string, string | undefined> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const app = await createApiApp(config, { logger: false });
  await app.init();
  return {
    app,
    config,
    http: request(app.getHttpServer()),
    close: async () => {
      await app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
