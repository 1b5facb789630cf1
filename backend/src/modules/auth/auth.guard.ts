import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ACCESS_TOKEN_QUERY,
  AUTHENTICATED_KEY,
  AuthenticatedOptions,
  type AuthUser,
  READS_PROFILE_KEY,
  RequestWithUser,
} from '../../common/auth';
import { AuthError, ForbiddenError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import { looksLikeApiToken } from '../api-tokens/api-token-format';
import { ApiTokenGate } from '../api-tokens/api-token-gate';
import { UserRole } from '../users/user.entity';
import { AuthException } from './auth.exception';
import { SessionsService } from './sessions.service';
import type { AppConfig } from '../../config/app-config';
import type { Request, Response } from 'express';

const STAFF: readonly string[] = [UserRole.Admin, UserRole.Support];

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function queryToken(req: Request): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.[ACCESS_TOKEN_QUERY];
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * The global guard (APP_GUARD). Routes without @Authenticated() are public. Otherwise the bearer
 * access token must be valid and its session live (checked in the database on every request, so a
 * sign-out or a revocation takes effect at once), and the caller's role among `roles` when given.
 * A staff-only route also needs two-factor on when AUTH_REQUIRE_STAFF_2FA says so; `verifiedAdult`
 * routes need a verified address and the 18+ confirmation. A `queryToken` route also takes the
 * access token as `?access_token=` when the header brings no valid one. A @ReadsProfile() route gets the
 * caller's profile read with the session (AuthUser.profile). Whatever a signed-in caller receives is
 * never stored by a cache (Cache-Control: no-store). A bearer value with the `frk_` prefix is a
 * personal API token: ApiTokenGate checks it, the route's `scopes` and the token's rate limit.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
    @Optional() private readonly apiTokens?: ApiTokenGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const options = this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTHENTICATED_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!options) return true;
    const req = context.switchToHttp().getRequest<Request & RequestWithUser>();
    const token = bearerToken(req);
    const response = context.switchToHttp().getResponse<Response>();
    if (token && looksLikeApiToken(token) && this.apiTokens) {
      // a personal API token: never read as a session's JWT
      const caller = await this.apiTokens.admit(token, options, req, response);
      if (!caller) return true; // a public route that does not take this token: served as anonymous
      this.checkCaller(caller, options);
      req.user = caller;
      return true;
    }
    const read = { profile: this.reflector.get<boolean | undefined>(READS_PROFILE_KEY, context.getHandler()) === true };
    let user = token ? await this.sessions.authenticate(token, read) : null;
    if (!user && options.queryToken) {
      const fromQuery = queryToken(req);
      user = fromQuery ? await this.sessions.authenticate(fromQuery, read) : null;
    }
    if (!user) {
      if (options.optional) return true;
      // a session that ended tells its holder why: suspended, password changed, signed out for safety, expired
      // (a route open to everyone still serves them)
      throw (token && (await this.sessions.whyEnded(token))) || new AuthError();
    }
    response.setHeader('Cache-Control', 'no-store');
    this.checkCaller(user, options);
    req.user = user;
    return true;
  }

  /** The route's rules about who the caller is: its roles, staff two-factor, a verified adult. */
  private checkCaller(user: AuthUser, options: AuthenticatedOptions): void {
    if (options.roles?.length && !options.roles.includes(user.role)) throw new ForbiddenError();
    const staffRoute = !!options.roles?.length && options.roles.every((r) => STAFF.includes(r));
    if (staffRoute && this.config?.auth.requireStaffTwoFactor && !user.twoFactorEnabled) throw AuthException.twoFactorRequired();
    if (options.verifiedAdult) {
      if (!user.emailVerified) throw AuthException.emailNotVerified();
      if (!user.ageConfirmed) throw AuthException.ageNotConfirmed();
    }
  }
}
