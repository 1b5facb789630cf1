import * as path from 'node:path';
import { envSchema } from './env.schema';

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

/** Typed, validated configuration. Built once per process from the environment. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  appName: string;
  port: number;
  host: string;
  appUrl: string;
  corsOrigins: string[];
  log: { level: string; pretty: boolean };
  database: { url: string; poolSize: number; runMigrations: boolean };
  queue: {
    driver: 'bullmq' | 'in-process';
    redisUrl?: string;
    prefix: string;
    consumeInApi: boolean;
    concurrency: number;
    shutdownTimeoutMs: number;
  };
  storage: {
    driver: 's3' | 'local';
    localDir: string;
    signingSecret: string;
    signedUrlTtlSeconds: number;
    s3?: { bucket: string; endpoint?: string; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean };
  };
  dataDir: string;
  embedded: boolean;
  serveUi: boolean;
}

/** Validates `env` and returns the configuration, or throws ConfigurationError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = i.path.length ? i.path.join('.') : '(environment)';
      const message = i.code === 'invalid_type' && i.input === undefined ? 'is required' : i.message;
      return `${name} ${message}`;
    });
    throw new ConfigurationError(problems);
  }
  const e = parsed.data;
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    appName: e.APP_NAME,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    corsOrigins: (e.CORS_ORIGINS ?? new URL(appUrl).origin)
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY },
    database: { url: e.DATABASE_URL, poolSize: e.DB_POOL_SIZE, runMigrations: e.DB_MIGRATIONS_RUN },
    queue: {
      driver: e.REDIS_URL ? 'bullmq' : 'in-process',
      redisUrl: e.REDIS_URL,
      prefix: e.QUEUE_PREFIX,
      consumeInApi: e.REDIS_URL ? e.QUEUE_CONSUME_IN_API : true,
      concurrency: e.QUEUE_CONCURRENCY,
      shutdownTimeoutMs: e.QUEUE_SHUTDOWN_TIMEOUT_MS,
    },
    storage: {
      driver: e.S3_BUCKET ? 's3' : 'local',
      localDir: path.resolve(e.STORAGE_LOCAL_DIR ?? path.join(dataDir, 'files')),
      signingSecret: e.FILES_SIGNING_SECRET,
      signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    },
    dataDir,
    embedded: e.EMBEDDED,
    serveUi: e.SERVE_UI,
  };
}
