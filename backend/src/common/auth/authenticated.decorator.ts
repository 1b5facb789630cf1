import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorMessages } from '../errors/error-catalogue';
import { ErrorResponseDto } from '../errors/error-response.dto';
import type { UserRole } from '../../modules/users/user.entity';

export const AUTHENTICATED_KEY = 'fr:authenticated';
export const READS_PROFILE_KEY = 'fr:reads-profile';

/**
 * On an @Authenticated() route that answers the caller's profile: the guard reads the profile and
 * the credit balances with the session, in one statement, and puts them in `AuthUser.profile`.
 */
export const ReadsProfile = (): MethodDecorator => SetMetadata(READS_PROFILE_KEY, true);

/**
 * The security schemes of the OpenAPI document (declared in bootstrap/openapi.ts): the bearer access
 * token, the refresh cookie of /api/auth, and the access token in the query of the event stream.
 */
export const SecurityScheme = {
  Bearer: 'bearer',
  RefreshCookie: 'refreshCookie',
  AccessTokenQuery: 'accessTokenQuery',
} as const;

/** The access token in the query (`?access_token=`): only routes with `queryToken` accept it. */
export const ACCESS_TOKEN_QUERY = 'access_token';

export interface AuthenticatedOptions {
  /** roles allowed; any signed-in user when omitted */
  roles?: readonly (UserRole | `${UserRole}`)[];
  /**
   * The route stays public, but a valid bearer token identifies the caller (@CurrentUser() is then
   * set); a missing or invalid token leaves the caller anonymous instead of answering 401.
   */
  optional?: boolean;
  /**
   * The caller must have verified their email address and confirmed being 18 or older (403
   * EMAIL_NOT_VERIFIED / AGE_NOT_CONFIRMED): uploading photos and generating.
   */
  verifiedAdult?: boolean;
  /**
   * Also accept the access token as `?access_token=` when no valid bearer header comes: for an
   * EventSource, which cannot send headers (the event stream of a generation, and only it).
   */
  queryToken?: boolean;
}

/**
 * The one access rule of a route: without this decorator a route is public. With it the global
 * AuthGuard requires a valid `Authorization: Bearer <access token>` of a live session (401
 * AUTH_ERROR otherwise) and, with `roles`, one of those roles (403 FORBIDDEN otherwise).
 * The OpenAPI document follows: `security` is the bearer scheme, or the access token in the
 * query as an alternative (`queryToken`), plus `{}` (anonymous) on an optional route; a route
 * without the decorator gets `security: []` (bootstrap/openapi.ts).
 */
export function Authenticated(options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator {
  const decorators: Array<MethodDecorator & ClassDecorator> = [SetMetadata(AUTHENTICATED_KEY, options), ApiSecurity(SecurityScheme.Bearer)];
  if (options.queryToken) decorators.push(ApiSecurity(SecurityScheme.AccessTokenQuery));
  if (options.optional) decorators.push(ApiSecurity({}));
  if (!options.optional) {
    decorators.push(ApiUnauthorizedResponse({ description: ErrorMessages.auth, type: ErrorResponseDto }));
  }
  if (options.roles?.length) {
    decorators.push(
      ApiForbiddenResponse({
        description: `${ErrorMessages.permissionDenied} (roles: ${options.roles.join(', ')}); TWO_FACTOR_REQUIRED for staff without two-factor when AUTH_REQUIRE_STAFF_2FA is on`,
        type: ErrorResponseDto,
      }),
    );
  }
  if (options.verifiedAdult) {
    decorators.push(
      ApiForbiddenResponse({
        description: 'EMAIL_NOT_VERIFIED until the mailed link is opened; AGE_NOT_CONFIRMED until the 18+ confirmation',
        type: ErrorResponseDto,
      }),
    );
  }
  return applyDecorators(...decorators);
}
