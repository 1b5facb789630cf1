import { AppError } from '../../common/errors';
import { AuthMessages } from './auth-messages';

export { AuthMessages, GoogleAuthError } from './auth-messages';

/** Codes of the auth feature, beyond the catalogue's AUTH_ERROR (an invalid or expired session). */
export enum AuthErrorCode {
  INVALID_CREDENTIALS = 'INVALID_CREDENTIALS',
  /** a mailed link (verification, password reset) that is unknown, used, expired or forged */
  INVALID_LINK = 'INVALID_LINK',
  /** a wrong two-factor code or recovery code */
  INVALID_CODE = 'INVALID_CODE',
  /** the second step of a sign-in came too late or after too many wrong codes */
  MFA_EXPIRED = 'MFA_EXPIRED',
  /** uploading and generating need a verified email address */
  EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED',
  /** uploading and generating need the 18+ confirmation */
  AGE_NOT_CONFIRMED = 'AGE_NOT_CONFIRMED',
  /** staff routes need two-factor on (AUTH_REQUIRE_STAFF_2FA) */
  TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED',
  /** change password: the current password is wrong */
  WRONG_PASSWORD = 'WRONG_PASSWORD',
  /** change password on an account that signs in with Google only */
  NO_PASSWORD = 'NO_PASSWORD',
  /** an admin suspended the account */
  ACCOUNT_SUSPENDED = 'ACCOUNT_SUSPENDED',
}

export class AuthException extends AppError {
  static invalidCredentials(): AuthException {
    return new AuthException(AuthErrorCode.INVALID_CREDENTIALS, AuthMessages.invalidCredentials, 401);
  }

  static invalidLink(): AuthException {
    return new AuthException(AuthErrorCode.INVALID_LINK, AuthMessages.invalidLink, 400);
  }

  static invalidCode(): AuthException {
    // 400, not 401: a wrong code is bad input, and a client must not take it for an ended session
    return new AuthException(AuthErrorCode.INVALID_CODE, AuthMessages.invalidCode, 400);
  }

  static mfaExpired(): AuthException {
    return new AuthException(AuthErrorCode.MFA_EXPIRED, AuthMessages.mfaExpired, 401);
  }

  static emailNotVerified(): AuthException {
    return new AuthException(AuthErrorCode.EMAIL_NOT_VERIFIED, AuthMessages.emailNotVerified, 403);
  }

  static ageNotConfirmed(): AuthException {
    return new AuthException(AuthErrorCode.AGE_NOT_CONFIRMED, AuthMessages.ageNotConfirmed, 403);
  }

  static twoFactorRequired(): AuthException {
    return new AuthException(AuthErrorCode.TWO_FACTOR_REQUIRED, AuthMessages.twoFactorRequired, 403);
  }

  static wrongPassword(): AuthException {
    return new AuthException(AuthErrorCode.WRONG_PASSWORD, AuthMessages.wrongPassword, 400);
  }

  static accountSuspended(): AuthException {
    return new AuthException(AuthErrorCode.ACCOUNT_SUSPENDED, AuthMessages.accountSuspended, 403);
  }

  static noPassword(): AuthException {
    return new AuthException(AuthErrorCode.NO_PASSWORD, AuthMessages.noPassword, 400);
  }
}
