import { DeveloperErrorCode, DeveloperMessages } from '@fitting-room/shared/error-catalogue';
import { Inject, Injectable } from '@nestjs/common';
import { type AuthenticatedOptions, type AuthUser } from '../../common/auth';
import { AppError, AuthError, RateLimitError } from '../../common/errors';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { AuthMessages } from '../auth/auth-messages';
import { AUTH_RATE_LIMIT_STORAGE } from '../auth/rate-limit/auth-rate-limit';
import { type RateLimitStore } from '../auth/rate-limit/redis-throttler.storage';
import { ApiTokensService } from './api-tokens.service';
import type { Request, Response } from 'express';

/** 403 API_TOKEN_NOT_ALLOWED: the route takes a signed-in session only. */
export class ApiTokenNotAllowedError extends AppError {
  constructor() {
    super(DeveloperErrorCode.API_TOKEN_NOT_ALLOWED, DeveloperMessages.apiTokenNotAllowed, 403);
  }
}

/** 403 INSUFFICIENT_SCOPE: the token lacks the scope the route needs. */
export class InsufficientScopeError extends AppError {
  constructor(scope: string) {
    super(DeveloperErrorCode.INSUFFICIENT_SCOPE, DeveloperMessages.insufficientScope(scope), 403);
  }
}

function isConsolePath(req: Request): boolean {
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0];
  return path === '/api/admin' || path.startsWith('/api/admin/');
}

/**
 * The guard's side of personal API tokens: who the token stands for (401 when it is unknown,
 * revoked or expired, whatever the route), then the token's rate limit (API_TOKEN_RATE_LIMIT_*, in
 * the rate-limit store every API process shares), then whether the route takes tokens at all (only
 * routes that declare `scopes`; never a staff route nor anything under /api/admin) and with which
 * scope. A public route that takes no token, or whose scope the token lacks, serves it as anonymous.
 */
@Injectable()
export class ApiTokenGate {
  constructor(
    private readonly tokens: ApiTokensService,
    @Inject(AUTH_RATE_LIMIT_STORAGE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The caller of a route for this token, or undefined (anonymous) on a public route that does not take it. */
  async admit(token: string, options: AuthenticatedOptions, req: Request, res: Response): Promise<AuthUser | undefined> {
    const check = await this.tokens.authenticate(token);
    if (check === 'suspended') throw new AuthError(AuthMessages.accountSuspended);
    if (!check) throw new AuthError();
    res.setHeader('Cache-Control', 'no-store');
    await this.countRequest(check.tokenId, res);
    const accepts = !!options.scopes?.length && !options.roles?.length && !isConsolePath(req);
    const missing = options.scopes?.find((scope) => !check.scopes.includes(scope));
    if (!accepts || missing) {
      if (options.optional) return undefined;
      throw accepts && missing ? new InsufficientScopeError(missing) : new ApiTokenNotAllowedError();
    }
    return check.user;
  }

  private async countRequest(tokenId: string, res: Response): Promise<void> {
    const { windowSeconds, max } = this.config.developer.apiTokenRateLimit;
    const { count, msLeft } = await this.store.hit(`api-token:${tokenId}`, windowSeconds * 1000);
    res.setHeader('RateLimit-Limit', String(max));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, max - count)));
    res.setHeader('RateLimit-Reset', String(Math.max(1, Math.ceil(msLeft / 1000))));
    if (count > max) throw new RateLimitError(undefined, Math.max(1, Math.ceil(msLeft / 1000)));
  }
}
