import { applyDecorators, ExecutionContext, Injectable, Module, UseGuards } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { SkipThrottle, ThrottlerGuard, ThrottlerLimitDetail, ThrottlerModule } from '@nestjs/throttler';
import { ErrorMessages, RateLimitError } from '../../../common/errors';
import { ErrorResponseDto } from '../../../common/errors/error-response.dto';
import { RETRY_AFTER_HEADER } from '../../../common/response-headers';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { normalizeEmail } from '../../users/users.service';
import { MemoryRateLimitStore, type RateLimitStore, RedisThrottlerStorage } from './redis-throttler.storage';
import type { Response } from 'express';

/** The named throttlers of the auth routes. */
export const AuthThrottler = {
  /** the auth routes (sign-in, sign-up, the two-factor step, links), per client IP */
  Ip: 'auth-ip',
  /** sign-up, "Forgot password?" and "Resend", per email address (whatever the IP); sign-in failures are counted by SignInThrottle */
  Email: 'auth-email',
  /** refresh, per client IP */
  Refresh: 'auth-refresh',
  /** the public contact form (POST /api/support/inquiries), per client IP */
  Support: 'support-inquiry',
  /** Stripe's webhook (POST /api/webhooks/stripe), anonymous until its signature is checked, per client IP */
  StripeWebhook: 'stripe-webhook',
} as const;

/** Every named throttler but `kept`: the ones a route skips (each route counts against its own throttlers only). */
function skipAllBut(...kept: string[]): Record<string, boolean> {
  return Object.fromEntries(Object.values(AuthThrottler).map((name) => [name, !kept.includes(name)]));
}

function bodyEmail(context: ExecutionContext): string | undefined {
  const email = (context.switchToHttp().getRequest<{ body?: { email?: unknown } }>().body ?? {}).email;
  return typeof email === 'string' && email.trim() ? normalizeEmail(email) : undefined;
}

/** The throttler guard of the auth routes: a 429 in the catalogue's shape with Retry-After (seconds). */
@Injectable()
export class AuthThrottlerGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    context
      .switchToHttp()
      .getResponse<Response>()
      .setHeader('Retry-After', String(Math.max(1, detail.timeToBlockExpire)));
    throw new RateLimitError();
  }
}

/**
 * Rate limits of an auth route: `email` (per IP and per email address of the body: sign-up, forgot,
 * resend), `ip` (per IP only: sign-in, whose failures SignInThrottle counts per account and client;
 * the two-factor step; the links) or `refresh` (per IP, its own budget).
 */
export function AuthRateLimit(kind: 'email' | 'ip' | 'refresh'): MethodDecorator {
  const skip: Record<string, Record<string, boolean>> = {
    email: skipAllBut(AuthThrottler.Ip, AuthThrottler.Email),
    ip: skipAllBut(AuthThrottler.Ip),
    refresh: skipAllBut(AuthThrottler.Refresh),
  };
  return applyDecorators(
    UseGuards(AuthThrottlerGuard),
    SkipThrottle(skip[kind]),
    ApiTooManyRequestsResponse({
      type: ErrorResponseDto,
      description: `${ErrorMessages.rateLimited} (with Retry-After)`,
      headers: RETRY_AFTER_HEADER,
    }),
  );
}

/** The rate limit of the public contact form: SUPPORT_RATE_LIMIT_MAX per client IP per SUPPORT_RATE_LIMIT_WINDOW_SECONDS. */
export function SupportRateLimit(): MethodDecorator {
  return applyDecorators(
    UseGuards(AuthThrottlerGuard),
    SkipThrottle(skipAllBut(AuthThrottler.Support)),
    ApiTooManyRequestsResponse({
      type: ErrorResponseDto,
      description: `${ErrorMessages.rateLimited} (with Retry-After)`,
      headers: RETRY_AFTER_HEADER,
    }),
  );
}

/**
 * The rate limit of Stripe's webhook: STRIPE_WEBHOOK_RATE_LIMIT_MAX calls per client IP per
 * STRIPE_WEBHOOK_RATE_LIMIT_WINDOW_SECONDS. Stripe sends from a few addresses and retries a 429 with
 * backoff for days, so a burst beyond it is delayed, not lost; a flood of forged calls is cut short.
 */
export function StripeWebhookRateLimit(): MethodDecorator {
  return applyDecorators(
    UseGuards(AuthThrottlerGuard),
    SkipThrottle(skipAllBut(AuthThrottler.StripeWebhook)),
    ApiTooManyRequestsResponse({
      type: ErrorResponseDto,
      description: `${ErrorMessages.rateLimited} (with Retry-After)`,
      headers: RETRY_AFTER_HEADER,
    }),
  );
}

export const AUTH_RATE_LIMIT_STORAGE = Symbol('AUTH_RATE_LIMIT_STORAGE');

/** Redis when REDIS_URL is set (limits shared by every API process), in memory otherwise. */
@Module({
  providers: [
    {
      provide: AUTH_RATE_LIMIT_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RateLimitStore =>
        config.queue.redisUrl ? new RedisThrottlerStorage(config.queue.redisUrl, `${config.queue.prefix}:rl`) : new MemoryRateLimitStore(),
    },
  ],
  exports: [AUTH_RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}

/** @nestjs/throttler configured from AUTH_RATE_LIMIT_*, SUPPORT_RATE_LIMIT_* and STRIPE_WEBHOOK_RATE_LIMIT_*; limits apply only where a decorator above is used. */
export const AuthRateLimitModule = ThrottlerModule.forRootAsync({
  imports: [RateLimitStorageModule],
  inject: [APP_CONFIG, AUTH_RATE_LIMIT_STORAGE],
  useFactory: (config: AppConfig, storage: RateLimitStore) => {
    const { windowSeconds, ipMax, emailMax, refreshMax } = config.auth.rateLimit;
    const ttl = windowSeconds * 1000;
    return {
      storage,
      setHeaders: false,
      throttlers: [
        { name: AuthThrottler.Ip, ttl, limit: ipMax },
        {
          name: AuthThrottler.Email,
          ttl,
          limit: emailMax,
          getTracker: (_req, context) => bodyEmail(context) ?? '',
          skipIf: (context) => !bodyEmail(context),
        },
        { name: AuthThrottler.Refresh, ttl, limit: refreshMax },
        { name: AuthThrottler.Support, ttl: config.support.rateLimit.windowSeconds * 1000, limit: config.support.rateLimit.max },
        {
          name: AuthThrottler.StripeWebhook,
          ttl: config.stripe.webhookRateLimit.windowSeconds * 1000,
          limit: config.stripe.webhookRateLimit.max,
        },
      ],
    };
  },
});
