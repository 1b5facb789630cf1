import * as path from 'node:path';
import { stripeSettings, type StripeSettings } from '../modules/billing/stripe.config';
import { dashScopeSettings, type DashScopeSettings } from '../modules/generations/providers/dashscope.config';
import { falSettings, type FalSettings } from '../modules/generations/providers/fal.config';
import { fashnSettings, type FashnSettings } from '../modules/generations/providers/fashn.config';
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

export interface AiConfig {
  provider: 'preview' | 'dashscope' | 'fashn' | 'fal';
  requestTimeoutMs: number;
  /** the wait before a generation's first status check; each later wait is x1.5 (generation-schedule.ts) */
  pollIntervalMs: number;
  /** the longest wait between two status checks (5 x pollIntervalMs unless set; never less than it) */
  pollMaxIntervalMs: number;
  /** AI_IMAGE_DEADLINE_SECONDS, AI_VIDEO_DEADLINE_SECONDS: a generation's budget, stored on it as `deadline_at` when it starts */
  deadlineSeconds: { image: number; video: number };
  previewDelayMs: number;
  sweepIntervalMs: number;
  /** first wait before trying a vendor call again (doubled each time, or Retry-After when longer); absent: 2000 */
  retryBaseMs: number;
  /**
   * PROVIDER_INPUTS: how input images reach the vendor. `auto` sends them inline (data URIs) when our
   * file links are not reachable from the internet and the vendor accepts it, links otherwise.
   * Optional for hand-built test configurations (absent: auto).
   */
  inputs?: 'auto' | 'url' | 'inline';
}

export type DashScopeConfig = DashScopeSettings;

export type FashnConfig = FashnSettings;

export type FalConfig = FalSettings;

export interface AlertsConfig {
  /** this many failed generations within the window raise one notification */
  failedGenerationsThreshold: number;
  failedGenerationsWindowMin: number;
  /** jobs waiting in the queue above this raise a notification (at most once an hour) */
  queueBacklogThreshold: number;
  queueBacklogCheckEveryMin: number;
}

/** Typed, validated configuration. Built once per process from the environment. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  appName: string;
  /**
   * Public contact addresses shown on the user app's pages (footer, legal pages): SUPPORT_EMAIL and
   * BUSINESS_EMAIL, by default support@ and business@ the host of APP_URL. Optional only so
   * hand-built test configurations need not list it.
   */
  contact: { supportEmail: string; businessEmail: string };
  port: number;
  host: string;
  appUrl: string;
  /** Express's `trust proxy`: false (TRUST_PROXY unset), a hop count, or a list of trusted proxy addresses */
  trustProxy: false | number | string[];
  corsOrigins: string[];
  log: { level: string; pretty: boolean };
  /** Prometheus metrics: served on `port` (none when unset), behind `token` when set (docs/operations.md#metrics) */
  metrics: { port?: number; token?: string };
  /** OpenTelemetry traces: exported over OTLP/HTTP when `endpoint` is set, nothing otherwise */
  tracing: { endpoint?: string; headers: Record<string, string>; serviceName?: string; sampleRatio: number };
  database: { url: string; poolSize: number; runMigrations: boolean };
  queue: {
    driver: 'bullmq' | 'in-process';
    redisUrl?: string;
    prefix: string;
    consumeInApi: boolean;
    /** jobs run at once per process, per queue */
    concurrency: number;
    /** the generations queue's own (its jobs wait on the vendor) */
    generationsConcurrency: number;
    shutdownTimeoutMs: number;
  };
  storage: {
    driver: 's3' | 'local';
    localDir: string;
    signingSecret: string;
    signedUrlTtlSeconds: number;
    s3?: {
      bucket: string;
      /** where the app itself talks to the bucket (S3_ENDPOINT; AWS when absent) */
      endpoint?: string;
      /** the origin presigned URLs name, for browsers and vendors (S3_PUBLIC_ENDPOINT; `endpoint` when absent) */
      publicEndpoint?: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
    };
  };
  dataDir: string;
  embedded: boolean;
  serveUi: boolean;
  /**
   * Privacy: uploaded photos not used by a generation for `uploadRetentionDays` days
   * (UPLOAD_RETENTION_DAYS, default 30) are deleted. Set by loadConfig(); optional only so
   * hand-built test configurations need not list it (absent means 30).
   */
  privacy: { uploadRetentionDays: number };
  /**
   * "Report an image": the copy a report uploaded is kept for the console until
   * `copyRetentionDays` (REPORTED_IMAGE_RETENTION_DAYS, default 30) after its ticket is resolved.
   */
  reports: { copyRetentionDays: number };
  /**
   * Upload quotas per account (UPLOAD_QUOTA_*) and the bound on image work per process
   * (IMAGE_WORK_*). Optional for hand-built test configurations (absent: the defaults).
   */
  uploads: { photosPerHour: number; bytesPerHour: number; bytesKept: number; imageWorkConcurrency: number; imageWorkQueue: number };
  /**
   * The face checks (FACE_CHECKS, docs/safety.md "Only you"): a face in each photo, one person per
   * generation, the live selfie before lingerie, spicy and video, the likeness guard on results. On
   * unless FACE_CHECKS=off; off by default under NODE_ENV=test (the suite's synthetic photos show no
   * face). Optional only so hand-built test configurations need not list it (absent: off).
   */
  faces?: { checks: boolean };
  /**
   * Product switches (FEATURE_*): the Spicy category, video generation, analytics events. Always
   * set by loadConfig(); optional only so hand-built test configurations need not list it
   * (absent means all on).
   */
  features: { spicy: boolean; video: boolean; analytics: boolean };
  /** FFMPEG_PATH: the ffmpeg binary to run; absent: `ffmpeg` on PATH, else the bundled build (rendering/ffmpeg.ts) */
  media: { ffmpegPath?: string };
  /**
   * The AI pipeline (AI_*): which provider renders generations, the request timeout of each vendor
   * call (start, status, result download), how often and how many times a running generation is
   * polled, the preview provider's artificial delay, and how often stalled generations are looked for.
   * Optional only so hand-built test configurations need not list it (absent means the defaults).
   */
  ai: AiConfig;
  /** DASHSCOPE_*: set by loadConfig(); optional only for hand-built test configurations. */
  dashscope: DashScopeConfig;
  /** FASHN_*: set by loadConfig(); optional only for hand-built test configurations. */
  fashn: FashnConfig;
  /** FAL_*: fal.ai's queue, models and webhooks */
  fal: FalConfig;
  /** STRIPE_*: payments are on only with a secret key */
  stripe: StripeSettings;
  /**
   * Outgoing mail (SMTP_*): set only when SMTP_HOST is configured; without it every message is
   * written as an .eml file under `mail.outboxDir`. `from` defaults to `APP_NAME <support address>`.
   */
  smtp?: { host: string; port: number; secure: boolean; user?: string; password?: string; from: string };
  /** Where mail goes without SMTP ($DATA_DIR/mail) and who it is from. Optional for hand-built test configurations. */
  mail: { outboxDir: string; from: string };
  /** The public contact form's rate limit (SUPPORT_RATE_LIMIT_*). Optional for hand-built test configurations. */
  support: { rateLimit: { windowSeconds: number; max: number } };
  /** Thresholds of the admin notifications (ALERT_*). Optional for hand-built test configurations (absent: the defaults). */
  alerts: AlertsConfig;
  /** The developer API (docs/api.md): personal API tokens' rate limit, and where developers' webhooks may go. */
  developer: {
    apiTokenRateLimit: { windowSeconds: number; max: number };
    /** WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: loopback and private addresses (and http://localhost) allowed; false in production */
    webhooksAllowPrivate: boolean;
  };
  auth: {
    jwtSecret: string;
    accessTokenTtlSeconds: number;
    sessionTtlDays: number;
    /** a refresh token just replaced by a refresh still works this many seconds (a lost response); 0: never */
    refreshReuseGraceSeconds: number;
    /** lower-cased; an account with one of these emails is an admin */
    adminEmails: string[];
    /** set only when both the client id and secret are configured */
    google?: { clientId: string; clientSecret: string; authorizationUrl: string; tokenUrl: string; userInfoUrl: string };
    rateLimit: { windowSeconds: number; ipMax: number; emailMax: number; emailUntrustedMax: number; refreshMax: number };
    /** staff accounts (admin, support) must have two-factor on to use staff routes (AUTH_REQUIRE_STAFF_2FA) */
    requireStaffTwoFactor: boolean;
    /** key of secrets stored encrypted (TOTP): AUTH_ENCRYPTION_KEY, else derived from the JWT secret */
    encryptionKey?: string;
  };
}

/** The mail domain of the public URL: its host without a leading `www.` (`localhost` in development). */
function mailDomain(appUrl: string): string {
  return new URL(appUrl).hostname.replace(/^www\./, '');
}

/** TRUST_PROXY as Express's `trust proxy` value: nothing trusted unless named. */
/** OTEL_EXPORTER_OTLP_HEADERS: `name=value` pairs separated by commas (values URL-encoded, as the OpenTelemetry spec says). */
export function parseHeaderList(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    out[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return out;
}

export function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || /^(none|false)$/i.test(value)) return false;
  if (/^\d+$/.test(value)) return Number(value) || false;
  return value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
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
    contact: {
      supportEmail: e.SUPPORT_EMAIL ?? `support@${mailDomain(appUrl)}`,
      businessEmail: e.BUSINESS_EMAIL ?? `business@${mailDomain(appUrl)}`,
    },
    port: e.PORT,
    host: e.HOST,
    appUrl,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    corsOrigins: (e.CORS_ORIGINS ?? new URL(appUrl).origin)
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY },
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    tracing: {
      endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, ''),
      headers: parseHeaderList(e.OTEL_EXPORTER_OTLP_HEADERS),
      serviceName: e.OTEL_SERVICE_NAME,
      sampleRatio: e.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(e.OTEL_TRACES_SAMPLER_ARG),
    },
    database: { url: e.DATABASE_URL, poolSize: e.DB_POOL_SIZE, runMigrations: e.DB_MIGRATIONS_RUN },
    queue: {
      driver: e.REDIS_URL ? 'bullmq' : 'in-process',
      redisUrl: e.REDIS_URL,
      prefix: e.QUEUE_PREFIX,
      consumeInApi: e.REDIS_URL ? e.QUEUE_CONSUME_IN_API : true,
      concurrency: e.QUEUE_CONCURRENCY,
      generationsConcurrency: e.QUEUE_GENERATIONS_CONCURRENCY,
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
            publicEndpoint: e.S3_PUBLIC_ENDPOINT && new URL(e.S3_PUBLIC_ENDPOINT).origin,
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
    privacy: { uploadRetentionDays: e.UPLOAD_RETENTION_DAYS },
    faces: { checks: e.FACE_CHECKS === 'on' || (e.FACE_CHECKS !== 'off' && e.NODE_ENV !== 'test') },
    reports: { copyRetentionDays: e.REPORTED_IMAGE_RETENTION_DAYS },
    uploads: {
      photosPerHour: e.UPLOAD_QUOTA_PHOTOS_PER_HOUR,
      bytesPerHour: e.UPLOAD_QUOTA_MB_PER_HOUR * 1024 * 1024,
      bytesKept: e.UPLOAD_QUOTA_MB_KEPT * 1024 * 1024,
      imageWorkConcurrency: e.IMAGE_WORK_CONCURRENCY,
      imageWorkQueue: e.IMAGE_WORK_QUEUE,
    },
    features: { spicy: e.FEATURE_SPICY, video: e.FEATURE_VIDEO, analytics: e.FEATURE_ANALYTICS },
    media: { ffmpegPath: e.FFMPEG_PATH },
    ai: {
      provider: e.AI_PROVIDER,
      requestTimeoutMs: e.AI_REQUEST_TIMEOUT_MS,
      pollIntervalMs: e.AI_POLL_INTERVAL_MS,
      pollMaxIntervalMs: Math.max(e.AI_POLL_INTERVAL_MS, e.AI_POLL_MAX_INTERVAL_MS ?? 5 * e.AI_POLL_INTERVAL_MS),
      deadlineSeconds: { image: e.AI_IMAGE_DEADLINE_SECONDS, video: e.AI_VIDEO_DEADLINE_SECONDS },
      previewDelayMs: e.AI_PREVIEW_DELAY_MS,
      sweepIntervalMs: e.AI_SWEEP_INTERVAL_MS,
      retryBaseMs: e.AI_RETRY_BASE_MS,
      inputs: e.PROVIDER_INPUTS,
    },
    dashscope: dashScopeSettings(e),
    fashn: fashnSettings(e),
    fal: falSettings(e),
    stripe: stripeSettings(e),
    smtp: e.SMTP_HOST
      ? {
          host: e.SMTP_HOST,
          port: e.SMTP_PORT,
          secure: e.SMTP_SECURE ?? e.SMTP_PORT === 465,
          user: e.SMTP_USER,
          password: e.SMTP_PASSWORD,
          from: e.SMTP_FROM ?? `${e.APP_NAME} <${e.SUPPORT_EMAIL ?? `support@${mailDomain(appUrl)}`}>`,
        }
      : undefined,
    mail: {
      outboxDir: path.join(dataDir, 'mail'),
      from: e.SMTP_FROM ?? `${e.APP_NAME} <${e.SUPPORT_EMAIL ?? `support@${mailDomain(appUrl)}`}>`,
    },
    support: { rateLimit: { windowSeconds: e.SUPPORT_RATE_LIMIT_WINDOW_SECONDS, max: e.SUPPORT_RATE_LIMIT_MAX } },
    developer: {
      apiTokenRateLimit: { windowSeconds: e.API_TOKEN_RATE_LIMIT_WINDOW_SECONDS, max: e.API_TOKEN_RATE_LIMIT_MAX },
      webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES ?? e.NODE_ENV !== 'production',
    },
    alerts: {
      failedGenerationsThreshold: e.ALERT_FAILED_GENERATIONS_THRESHOLD,
      failedGenerationsWindowMin: e.ALERT_FAILED_GENERATIONS_WINDOW_MIN,
      queueBacklogThreshold: e.ALERT_QUEUE_BACKLOG_THRESHOLD,
      queueBacklogCheckEveryMin: e.ALERT_QUEUE_BACKLOG_CHECK_EVERY_MIN,
    },
    auth: {
      jwtSecret: e.AUTH_JWT_SECRET,
      accessTokenTtlSeconds: e.AUTH_ACCESS_TOKEN_TTL_SECONDS,
      sessionTtlDays: e.AUTH_SESSION_TTL_DAYS,
      refreshReuseGraceSeconds: e.AUTH_REFRESH_REUSE_GRACE_SECONDS,
      adminEmails: [
        ...new Set(
          (e.ADMIN_EMAILS ?? '')
            .split(',')
            .map((m) => m.trim().toLowerCase())
            .filter(Boolean),
        ),
      ],
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
        emailUntrustedMax: e.AUTH_RATE_LIMIT_EMAIL_UNTRUSTED_MAX,
        refreshMax: e.AUTH_RATE_LIMIT_REFRESH_MAX,
      },
      requireStaffTwoFactor: e.AUTH_REQUIRE_STAFF_2FA ?? e.NODE_ENV === 'production',
      encryptionKey: e.AUTH_ENCRYPTION_KEY,
    },
  };
}
