import * as path from 'node:path';
import { envSchema } from './env.schema';

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

/** Google's endpoints (from its OpenID discovery document); AUTH_GOOGLE_*_URL override them (tests use a local fake). */
export const GOOGLE_OAUTH_DEFAULTS = {
  authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  userInfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
} as const;

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
  /**
   * Product switches (FEATURE_*): the Spicy category, video generation, analytics events. Always
   * set by loadConfig(); optional only so hand-built test configurations need not list it
   * (absent means all on).
   */
  features?: { spicy: boolean; video: boolean; analytics: boolean };
  auth: {
    jwtSecret: string;
    accessTokenTtlSeconds: number;
    sessionTtlDays: number;
    /** lower-cased; an account with one of these emails is an admin */
    adminEmails: string[];
    /** set only when both the client id and secret are configured */
    google?: { clientId: string; clientSecret: string; authorizationUrl: string; tokenUrl: string; userInfoUrl: string };
    rateLimit: { windowSeconds: number; ipMax: number; emailMax: number; refreshMax: number };
  };
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
    features: { spicy: e.FEATURE_SPICY, video: e.FEATURE_VIDEO, analytics: e.FEATURE_ANALYTICS },
    auth: {
      jwtSecret: e.AUTH_JWT_SECRET,
      accessTokenTtlSeconds: e.AUTH_ACCESS_TOKEN_TTL_SECONDS,
      sessionTtlDays: e.AUTH_SESSION_TTL_DAYS,
      adminEmails: [...new Set((e.ADMIN_EMAILS ?? '').split(',').map((m) => m.trim().toLowerCase()).filter(Boolean))],
      google:
        e.AUTH_GOOGLE_CLIENT_ID && e.AUTH_GOOGLE_CLIENT_SECRET
          ? {
              clientId: e.AUTH_GOOGLE_CLIENT_ID,
              clientSecret: e.AUTH_GOOGLE_CLIENT_SECRET,
              authorizationUrl: e.AUTH_GOOGLE_AUTHORIZATION_URL ?? GOOGLE_OAUTH_DEFAULTS.authorizationUrl,
              tokenUrl: e.AUTH_GOOGLE_TOKEN_URL ?? GOOGLE_OAUTH_DEFAULTS.tokenUrl,
              userInfoUrl: e.AUTH_GOOGLE_USERINFO_URL ?? GOOGLE_OAUTH_DEFAULTS.userInfoUrl,
            }
          : undefined,
      rateLimit: {
        windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_SECONDS,
        ipMax: e.AUTH_RATE_LIMIT_IP_MAX,
        emailMax: e.AUTH_RATE_LIMIT_EMAIL_MAX,
        refreshMax: e.AUTH_RATE_LIMIT_REFRESH_MAX,
      },
    },
  };
}
