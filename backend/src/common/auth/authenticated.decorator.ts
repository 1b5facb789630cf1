import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { UserRole } from '../../modules/users/user.entity';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { ErrorMessages } from '../errors/error-catalogue';

export const AUTHENTICATED_KEY = 'fr:authenticated';

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
}

/**
 * The one access rule of a route: without this decorator a route is public. With it the global
 * AuthGuard requires a valid `Authorization: Bearer <access token>` of a live session (401
 * AUTH_ERROR otherwise) and, with `roles`, one of those roles (403 FORBIDDEN otherwise).
 */
export function Authenticated(options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator {
  const decorators: Array<MethodDecorator & ClassDecorator> = [SetMetadata(AUTHENTICATED_KEY, options), ApiBearerAuth('bearer')];
  if (!options.optional) {
    decorators.push(ApiUnauthorizedResponse({ description: ErrorMessages.auth, type: ErrorResponseDto }));
  }
  if (options.roles?.length) {
    decorators.push(ApiForbiddenResponse({ description: `${ErrorMessages.permissionDenied} (roles: ${options.roles.join(', ')}); TWO_FACTOR_REQUIRED for staff without two-factor when AUTH_REQUIRE_STAFF_2FA is on`, type: ErrorResponseDto }));
  }
  if (options.verifiedAdult) {
    decorators.push(ApiForbiddenResponse({ description: 'EMAIL_NOT_VERIFIED until the mailed link is opened; AGE_NOT_CONFIRMED until the 18+ confirmation', type: ErrorResponseDto }));
  }
  return applyDecorators(...decorators);
}
