import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorMessages } from '../errors/error-catalogue';
import { ErrorResponseDto } from '../errors/error-response.dto';
import type { AccessRole } from '@fitting-room/shared';
import type { ApiTokenScope } from '@fitting-room/shared/developer-api';

export const AUTHENTICATED_KEY = 'fr:authenticated';
export const READS_PROFILE_KEY = 'fr:reads-profile';

/**
 * On an @Authenticated() route that answers the caller's profile: the guard reads the profile and
 * the credit balances with the session, in one statement, and puts them in `AuthUser.profile`.
 */
export const ReadsProfile = (): MethodDecorator => SetMetadata(READS_PROFILE_KEY, true);

/**
 * The security schemes of the OpenAPI document (declared in bootstrap/openapi.ts): the bearer access
 * token, the refresh cookie of /api/auth, the access token in the query of the event stream, and a
 * personal API token (docs/api.md) with the scope a route needs.
 */
export const SecurityScheme = {
  Bearer: 'bearer',
  RefreshCookie: 'refreshCookie',
  AccessTokenQuery: 'accessTokenQuery',
  ApiToken: 'apiToken',
} as const;

/** The access token in the query (`?access_token=`): only routes with `queryToken` accept it. */
export const ACCESS_TOKEN_QUERY = 'access_token';

export interface AuthenticatedOptions {
  /** roles allowed; any signed-in user when omitted */
  roles?: readonly AccessRole[];
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
  /**
   * A personal API token (`Authorization: Bearer frk_...`, docs/api.md) is accepted when it carries
   * these scopes (all of them). Without `scopes` a route takes a session only and answers a token
   * 403 API_TOKEN_NOT_ALLOWED: staff routes (`roles`) never declare any.
   */
  scopes?: readonly ApiTokenScope[];
}

/**
 * The one access rule of a route: without this decorator a route is public. With it the global
 * AuthGuard requires a valid `Authorization: Bearer <access token>` of a live session (401
 * AUTH_ERROR otherwise) and, with `roles`, one of those roles (403 FORBIDDEN otherwise).
 * The OpenAPI document follows: `security` is the bearer scheme, or a personal API token with the
 * route's `scopes`, or the access token in the query as an alternative (`queryToken`), plus `{}`
 * (anonymous) on an optional route; a route without the decorator gets `security: []`
 * (bootstrap/openapi.ts).
 */
export function Authenticated(options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator {
  if (options.scopes?.length && options.roles?.length) throw new Error('A staff route (roles) never takes an API token (scopes)');
  const decorators: Array<MethodDecorator & ClassDecorator> = [SetMetadata(AUTHENTICATED_KEY, options), ApiSecurity(SecurityScheme.Bearer)];
  if (options.scopes?.length) decorators.push(ApiSecurity(SecurityScheme.ApiToken, [...options.scopes]));
  if (options.queryToken) decorators.push(ApiSecurity(SecurityScheme.AccessTokenQuery));
  if (options.optional) decorators.push(ApiSecurity({}));
  if (!options.optional) {
    decorators.push(ApiUnauthorizedResponse({ description: ErrorMessages.auth, type: ErrorResponseDto }));
  }
  if (options.scopes?.length) {
    decorators.push(
      ApiForbiddenResponse({
        description: `INSUFFICIENT_SCOPE: an API token without the scope ${options.scopes.join(' and ')}`,
        type: ErrorResponseDto,
      }),
    );
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
