import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthUser, RequestWithUser } from './auth-user';

/** The caller of an @Authenticated() route (undefined on a public or optional route without a valid token). */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
  return ctx.switchToHttp().getRequest<RequestWithUser>().user;
});
