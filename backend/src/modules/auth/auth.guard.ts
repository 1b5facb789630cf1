import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AUTHENTICATED_KEY, AuthenticatedOptions, RequestWithUser } from '../../common/auth';
import { AuthError, ForbiddenError } from '../../common/errors';
import { SessionsService } from './sessions.service';

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The global guard (APP_GUARD). Routes without @Authenticated() are public. Otherwise the bearer
 * access token must be valid and its session live (checked in the database on every request, so a
 * sign-out or a revocation takes effect at once), and the caller's role among `roles` when given.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const options = this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTHENTICATED_KEY, [context.getHandler(), context.getClass()]);
    if (!options) return true;
    const req = context.switchToHttp().getRequest<Request & RequestWithUser>();
    const token = bearerToken(req);
    const user = token ? await this.sessions.authenticate(token) : null;
    if (!user) {
      if (options.optional) return true;
      throw new AuthError();
    }
    if (options.roles?.length && !options.roles.includes(user.role)) throw new ForbiddenError();
    req.user = user;
    return true;
  }
}
