import * as path from 'node:path';
import { z } from 'zod';
import {
  DASHSCOPE_DEFAULTS,
  dashScopeImageModelProblem,
  dashScopeVideoModelProblem,
} from '../modules/generations/providers/dashscope.config';
import { falModelIds, findFalModel } from '../modules/generations/providers/fal.config';
import { FASHN_IMAGE_MODELS, FASHN_MODERATION_LEVELS, FASHN_VIDEO_MODELS } from '../modules/generations/providers/fashn.config';

/**
 * The one place that knows every environment variable the backend reads.
 * docs/configuration.md mirrors this file (a test checks); keep them in step.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^-?\d+$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number, got "${v}"` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be between ${min} and ${max}, got ${n}` });
        return z.NEVER;
      }
      return n;
    });

/** A whole number in [min, max], or undefined when unset (its default derives from another setting). */
const optionalInt = (min: number, max: number) => int(Number.NaN, min, max).transform((n) => (Number.isNaN(n) ? undefined : n));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const urlWithProtocols = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}` },
  );

/** One entry of TRUST_PROXY: a named range, an IPv4 or IPv6 address, optionally with a CIDR prefix. */
const TRUST_PROXY_ENTRY = /^(loopback|linklocal|uniquelocal|(\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?|[0-9a-f:]*:[0-9a-f:.]*(\/\d{1,3})?)$/i;

const PLACEHOLDER_SECRETS = ['change-me', 'changeme', 'secret', 'please-change-me', 'dev-secret'];
const secret = z.string({ error: 'is required (at least 32 characters)' }).min(32, { message: 'must be at least 32 characters long' });

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(3000, 1, 65535),
    HOST: z.string().default('0.0.0.0'),
    APP_NAME: z.string().min(1).default('Fitting Room'),
    APP_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    SUPPORT_EMAIL: optionalString.pipe(
      z
        .string()
        .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
        .optional(),
    ),
    BUSINESS_EMAIL: optionalString.pipe(
      z
        .string()
        .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
        .optional(),
    ),
    CORS_ORIGINS: optionalString,
    // which reverse proxies may set X-Forwarded-For (and so the client IP the rate limits count):
    // none by default; a hop count, or a comma list of addresses, CIDR ranges or loopback/linklocal/uniquelocal
    TRUST_PROXY: optionalString.pipe(
      z
        .string()
        .optional()
        .refine(
          (v) => v === undefined || /^(none|false|\d{1,2})$/i.test(v) || v.split(',').every((p) => TRUST_PROXY_ENTRY.test(p.trim())),
          {
            message:
              'must be none, a number of proxy hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
          },
        ),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_PRETTY: bool(false),
    // Prometheus metrics on a port of their own (never the public one); empty: none served
    METRICS_PORT: optionalInt(1, 65535),
    // when set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters long' }).optional()),
    // OpenTelemetry traces over OTLP/HTTP (JSON) when set, e.g. http://otel-collector:4318; empty: no tracing at all
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    // the OTLP encoding: http/json is the one spoken (every OTLP receiver on port 4318 accepts it)
    OTEL_EXPORTER_OTLP_PROTOCOL: optionalString.pipe(
      z.enum(['http/json'], { error: 'must be http/json (OTLP over HTTP with JSON)' }).optional(),
    ),
    // headers for the OTLP receiver, `name=value` pairs separated by commas (an API key of a hosted backend)
    OTEL_EXPORTER_OTLP_HEADERS: optionalString,
    // the service name on the spans; empty: fitting-room-api or fitting-room-worker
    OTEL_SERVICE_NAME: optionalString,
    // the share of new traces kept (0 to 1); a trace a caller started follows the caller's choice
    OTEL_TRACES_SAMPLER_ARG: optionalString.pipe(
      z
        .string()
        .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a number from 0 to 1')
        .optional(),
    ),

    DATABASE_URL: z
      .string({ error: 'is required (postgres://user:password@host:5432/database); `npm start` provides one' })
      .pipe(urlWithProtocols(['postgres:', 'postgresql:'])),
    DB_POOL_SIZE: int(10, 1, 200),
    DB_MIGRATIONS_RUN: bool(true),

    REDIS_URL: optionalString.pipe(urlWithProtocols(['redis:', 'rediss:']).optional()),
    QUEUE_PREFIX: z
      .string()
      .regex(/^[a-z0-9_-]+$/i, 'must be letters, digits, - or _')
      .default('fr'),
    QUEUE_CONSUME_IN_API: bool(true),
    QUEUE_CONCURRENCY: int(5, 1, 100),
    // generation steps mostly wait on the vendor (a start, a status check, a download); their CPU
    // work is bounded apart (IMAGE_WORK_CONCURRENCY)
    QUEUE_GENERATIONS_CONCURRENCY: int(50, 1, 1000),
    QUEUE_SHUTDOWN_TIMEOUT_MS: int(25_000, 0, 600_000),

    DATA_DIR: z.string().default('.data'),
    STORAGE_LOCAL_DIR: optionalString,
    S3_BUCKET: optionalString,
    S3_ENDPOINT: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    // where browsers and AI vendors reach the bucket, when not at S3_ENDPOINT (docker-compose: the storage
    // is http://storage:9000 inside, http://localhost:9000 outside): presigned URLs are signed for this origin
    S3_PUBLIC_ENDPOINT: optionalString.pipe(
      urlWithProtocols(['http:', 'https:'])
        .refine(
          (v) => {
            let u: URL;
            try {
              u = new URL(v);
            } catch {
              return true; // not a URL: said by the check above
            }
            if (u.protocol !== 'http:' && u.protocol !== 'https:') return true; // said above too
            return u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
          },
          { message: 'must be an origin only (scheme://host[:port]), without a path, query or credentials' },
        )
        .optional(),
    ),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: bool(true),
    FILES_SIGNING_SECRET: secret,
    SIGNED_URL_TTL_SECONDS: int(900, 10, 7 * 24 * 3600),
    // uploaded photos unused (no generation) for this many days are deleted by a job every 6 hours
    UPLOAD_RETENTION_DAYS: int(30, 1, 3650),
    // the copy a report of an image uploaded is deleted this many days after its ticket is resolved (a job every 6 hours)
    REPORTED_IMAGE_RETENTION_DAYS: int(30, 1, 3650),
    // per-account upload quotas, counted on the bytes received: photos and MB an hour, MB kept
    UPLOAD_QUOTA_PHOTOS_PER_HOUR: int(50, 1, 1_000_000),
    UPLOAD_QUOTA_MB_PER_HOUR: int(50, 1, 1_000_000),
    UPLOAD_QUOTA_MB_KEPT: int(1024, 1, 10_000_000),
    // the face checks (docs/safety.md "Only you"): one face a photo, one person a generation, the live selfie,
    // the likeness guard. On unless set to off; off by default under NODE_ENV=test (the suite's synthetic
    // photos show no face; the face checks' own tests turn it on)
    FACE_CHECKS: z.enum(['on', 'off', '']).optional(),
    // image decoding and re-encoding at once per process, and how many may wait their turn (then 503)
    IMAGE_WORK_CONCURRENCY: int(2, 1, 64),
    IMAGE_WORK_QUEUE: int(16, 0, 10_000),
    // the ffmpeg that processes videos (vendors' results, the preview's videos); empty: `ffmpeg` on
    // PATH, else the build bundled with @ffmpeg-installer/ffmpeg (2018), with a warning at start
    FFMPEG_PATH: optionalString.pipe(
      z
        .string()
        .refine((v) => path.isAbsolute(v), { message: 'must be the absolute path of an ffmpeg binary, e.g. /usr/bin/ffmpeg' })
        .optional(),
    ),

    EMBEDDED: bool(false),
    SERVE_UI: bool(true),

    FEATURE_SPICY: bool(true),
    FEATURE_VIDEO: bool(true),
    FEATURE_ANALYTICS: bool(true),

    AI_PROVIDER: z.enum(['preview', 'dashscope', 'fashn', 'fal']).default('preview'),
    AI_REQUEST_TIMEOUT_MS: int(30_000, 100, 600_000),
    // the first status check comes this long after the vendor accepted the job; each wait is then x1.5, up to the max
    // (by default 5 x the first: 15 s)
    AI_POLL_INTERVAL_MS: int(3000, 10, 600_000),
    AI_POLL_MAX_INTERVAL_MS: optionalInt(10, 600_000),
    // a generation's wall-clock budget, stored on it when it starts: past it, one last status check, then the timeout
    AI_IMAGE_DEADLINE_SECONDS: int(300, 1, 24 * 3600),
    AI_VIDEO_DEADLINE_SECONDS: int(900, 1, 24 * 3600),
    AI_PREVIEW_DELAY_MS: int(0, 0, 600_000),
    // first wait before a vendor call is tried again after a 429, 5xx or unreachable vendor; doubled each time, Retry-After wins when longer
    AI_RETRY_BASE_MS: int(2000, 10, 600_000),
    AI_SWEEP_INTERVAL_MS: int(60_000, 1000, 24 * 3600 * 1000),
    // how input images reach the vendor: auto (inline data URIs when our file links are not reachable from the internet), url, inline
    PROVIDER_INPUTS: z.enum(['auto', 'url', 'inline']).default('auto'),

    AUTH_JWT_SECRET: secret,
    AUTH_ACCESS_TOKEN_TTL_SECONDS: int(900, 30, 24 * 3600),
    AUTH_SESSION_TTL_DAYS: int(30, 1, 365),
    // a refresh token just replaced still works this long (its response may have been lost); 0: never
    AUTH_REFRESH_REUSE_GRACE_SECONDS: int(20, 0, 120),
    AUTH_GOOGLE_CLIENT_ID: optionalString,
    AUTH_GOOGLE_CLIENT_SECRET: optionalString,
    AUTH_GOOGLE_AUTHORIZATION_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    AUTH_GOOGLE_TOKEN_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    AUTH_GOOGLE_USERINFO_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    ADMIN_EMAILS: optionalString.pipe(
      z
        .string()
        .optional()
        .refine((v) => v === undefined || v.split(',').every((e) => e.trim() === '' || /^[^\s@]+@[^\s@]+$/.test(e.trim())), {
          message: 'must be a comma-separated list of email addresses',
        }),
    ),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: int(60, 1, 24 * 3600),
    AUTH_RATE_LIMIT_IP_MAX: int(30, 1, 1_000_000),
    AUTH_RATE_LIMIT_EMAIL_MAX: int(10, 1, 1_000_000),
    AUTH_RATE_LIMIT_EMAIL_UNTRUSTED_MAX: int(100, 1, 1_000_000),
    AUTH_RATE_LIMIT_REFRESH_MAX: int(60, 1, 1_000_000),
    // staff (admin, support) must turn on two-factor before using the console; default: on in production
    AUTH_REQUIRE_STAFF_2FA: z
      .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes'].includes(v))),
    // key of the secrets stored encrypted (TOTP); default: derived from AUTH_JWT_SECRET
    AUTH_ENCRYPTION_KEY: optionalString.pipe(z.string().min(32, { message: 'must be at least 32 characters long' }).optional()),

    // personal API tokens (docs/api.md): at most API_TOKEN_RATE_LIMIT_MAX requests per token per window (429 with Retry-After)
    API_TOKEN_RATE_LIMIT_WINDOW_SECONDS: int(60, 1, 24 * 3600),
    API_TOKEN_RATE_LIMIT_MAX: int(600, 1, 1_000_000),
    // developers' webhooks may reach loopback and private addresses (and http://localhost); default: only outside production
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: z
      .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes'].includes(v))),

    // the public contact form (POST /api/support/inquiries): at most SUPPORT_RATE_LIMIT_MAX per client IP per window
    SUPPORT_RATE_LIMIT_WINDOW_SECONDS: int(600, 1, 24 * 3600),
    SUPPORT_RATE_LIMIT_MAX: int(5, 1, 1_000_000),

    // outgoing mail; without SMTP_HOST every message is kept in the outbox (the bucket's outbox/ or $DATA_DIR/mail/)
    SMTP_HOST: optionalString,
    SMTP_PORT: int(587, 1, 65535),
    SMTP_SECURE: z
      .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes'].includes(v))),
    SMTP_USER: optionalString,
    SMTP_PASSWORD: optionalString,
    SMTP_FROM: optionalString.pipe(
      z
        .string()
        .regex(/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an email address, optionally as "Name <address>"')
        .optional(),
    ),

    // admin notifications (system alerts)
    ALERT_FAILED_GENERATIONS_THRESHOLD: int(5, 1, 100_000),
    ALERT_FAILED_GENERATIONS_WINDOW_MIN: int(10, 1, 24 * 60),
    ALERT_QUEUE_BACKLOG_THRESHOLD: int(100, 1, 10_000_000),
    ALERT_QUEUE_BACKLOG_CHECK_EVERY_MIN: int(5, 1, 24 * 60),

    // the real AI providers (AI_PROVIDER=dashscope / fashn / fal) and their keys: docs/ai-providers.md
    DASHSCOPE_API_KEY: optionalString,
    DASHSCOPE_BASE_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    DASHSCOPE_IMAGE_MODEL: optionalString,
    DASHSCOPE_VIDEO_MODEL: optionalString,
    DASHSCOPE_VIDEO_AUDIO: bool(false),
    FASHN_API_KEY: optionalString,
    FASHN_BASE_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    FASHN_IMAGE_MODEL: optionalString.pipe(
      z.enum(FASHN_IMAGE_MODELS, { error: `must be one of ${FASHN_IMAGE_MODELS.join(', ')}` }).optional(),
    ),
    FASHN_VIDEO_MODEL: optionalString.pipe(
      z.enum(FASHN_VIDEO_MODELS, { error: `must be one of ${FASHN_VIDEO_MODELS.join(', ')}` }).optional(),
    ),
    FASHN_WEBHOOK_SECRET: optionalString.pipe(z.string().min(32, { message: 'must be at least 32 characters long' }).optional()),
    FASHN_MODERATION_LEVEL: optionalString.pipe(
      z.enum(FASHN_MODERATION_LEVELS, { error: 'must be conservative or permissive (none would let nudity through)' }).optional(),
    ),
    FAL_KEY: optionalString,
    FAL_QUEUE_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    FAL_IMAGE_MODEL: optionalString,
    FAL_VIDEO_MODEL: optionalString,
    FAL_JWKS_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    FAL_PLATFORM_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    FAL_WEBHOOKS: bool(true),

    // payments through Stripe (docs/payments.md); without STRIPE_SECRET_KEY there are no payments
    STRIPE_SECRET_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^(sk|rk)_/, { message: 'must be a secret key (sk_...) or a restricted key (rk_...)' })
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: optionalString.pipe(
      z
        .string()
        .regex(/^whsec_/, { message: 'must be a webhook signing secret (whsec_...)' })
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: optionalString.pipe(z.string().regex(/^pk_/, { message: 'must be a publishable key (pk_...)' }).optional()),
    STRIPE_API_URL: optionalString.pipe(urlWithProtocols(['http:', 'https:']).optional()),
    // runs of the job that applies a webhook event, and the first retry's wait (doubling), before the event fails for good
    STRIPE_EVENT_ATTEMPTS: int(8, 1, 25),
    STRIPE_EVENT_RETRY_MS: int(2000, 10, 600_000),
    // calls of the webhook route per client IP per window (429 with Retry-After beyond; Stripe retries a 429 with backoff)
    STRIPE_WEBHOOK_RATE_LIMIT_MAX: int(300, 1, 1_000_000),
    STRIPE_WEBHOOK_RATE_LIMIT_WINDOW_SECONDS: int(60, 1, 24 * 3600),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production') {
      if (PLACEHOLDER_SECRETS.some((p) => env.FILES_SIGNING_SECRET.toLowerCase().includes(p))) {
        ctx.addIssue({ code: 'custom', path: ['FILES_SIGNING_SECRET'], message: 'is a placeholder; set a random value in production' });
      }
      if (env.AUTH_ENCRYPTION_KEY && PLACEHOLDER_SECRETS.some((p) => env.AUTH_ENCRYPTION_KEY!.toLowerCase().includes(p))) {
        ctx.addIssue({ code: 'custom', path: ['AUTH_ENCRYPTION_KEY'], message: 'is a placeholder; set a random value in production' });
      }
      if (PLACEHOLDER_SECRETS.some((p) => env.AUTH_JWT_SECRET.toLowerCase().includes(p))) {
        ctx.addIssue({ code: 'custom', path: ['AUTH_JWT_SECRET'], message: 'is a placeholder; set a random value in production' });
      }
      if (env.EMBEDDED) {
        ctx.addIssue({ code: 'custom', path: ['EMBEDDED'], message: 'cannot be true in production (use a real DATABASE_URL)' });
      }
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT: metrics are never served on the public port',
      });
    }
    if (env.S3_BUCKET && (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [!env.S3_ACCESS_KEY_ID ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'],
        message: 'is required when S3_BUCKET is set',
      });
    }
    if (Boolean(env.AUTH_GOOGLE_CLIENT_ID) !== Boolean(env.AUTH_GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.AUTH_GOOGLE_CLIENT_ID ? 'AUTH_GOOGLE_CLIENT_SECRET' : 'AUTH_GOOGLE_CLIENT_ID'],
        message: `is required when ${env.AUTH_GOOGLE_CLIENT_ID ? 'AUTH_GOOGLE_CLIENT_ID' : 'AUTH_GOOGLE_CLIENT_SECRET'} is set (Google sign-in needs both)`,
      });
    }
    if (Boolean(env.SMTP_USER) !== Boolean(env.SMTP_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.SMTP_USER ? 'SMTP_PASSWORD' : 'SMTP_USER'],
        message: `is required when ${env.SMTP_USER ? 'SMTP_USER' : 'SMTP_PASSWORD'} is set (SMTP authentication needs both)`,
      });
    }
    if (!env.SMTP_HOST && (env.SMTP_USER || env.SMTP_FROM)) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_HOST'], message: 'is required when SMTP_USER or SMTP_FROM is set' });
    }
    if (env.AI_PROVIDER === 'dashscope' && !env.DASHSCOPE_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['DASHSCOPE_API_KEY'], message: 'is required when AI_PROVIDER=dashscope' });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'is required when STRIPE_SECRET_KEY is set (payments are applied from signed webhooks)',
      });
    }
    if (env.AI_PROVIDER === 'fashn' && !env.FASHN_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['FASHN_API_KEY'], message: 'is required when AI_PROVIDER=fashn' });
    }
    if (env.AI_PROVIDER === 'fal' && !env.FAL_KEY) {
      ctx.addIssue({ code: 'custom', path: ['FAL_KEY'], message: 'is required when AI_PROVIDER=fal' });
    }
    for (const [name, type] of [
      ['FAL_IMAGE_MODEL', 'image'],
      ['FAL_VIDEO_MODEL', 'video'],
    ] as const) {
      const id = env[name];
      if (id !== undefined && findFalModel(id)?.type !== type) {
        ctx.addIssue({ code: 'custom', path: [name], message: `must be one of ${falModelIds(type).join(', ')}` });
      }
    }
    if (env.DASHSCOPE_IMAGE_MODEL !== undefined) {
      const problem = dashScopeImageModelProblem(env.DASHSCOPE_IMAGE_MODEL, env.DASHSCOPE_BASE_URL ?? DASHSCOPE_DEFAULTS.baseUrl);
      if (problem) ctx.addIssue({ code: 'custom', path: ['DASHSCOPE_IMAGE_MODEL'], message: problem });
    }
    const videoProblem = env.DASHSCOPE_VIDEO_MODEL === undefined ? undefined : dashScopeVideoModelProblem(env.DASHSCOPE_VIDEO_MODEL);
    if (videoProblem) ctx.addIssue({ code: 'custom', path: ['DASHSCOPE_VIDEO_MODEL'], message: videoProblem });
  });

export type RawEnv = z.infer<typeof envSchema>;
