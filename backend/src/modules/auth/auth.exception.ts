import { AppError, AuthErrorCode } from '../../common/errors';
import { AuthMessages } from './auth-messages';

export { AuthMessages, GoogleAuthError } from './auth-messages';

/** The auth feature's codes live in the one catalogue (common/errors/error-catalogue.ts). */
export { AuthErrorCode };

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

  /** 401: a session ended by a suspension, said to its holder (sign-in itself answers 403) */
  static sessionSuspended(): AuthException {
    return new AuthException(AuthErrorCode.ACCOUNT_SUSPENDED, AuthMessages.accountSuspended, 401);
  }

  static sessionExpired(): AuthException {
    return new AuthException(AuthErrorCode.SESSION_EXPIRED, AuthMessages.sessionExpired, 401);
  }

  static passwordChanged(): AuthException {
    return new AuthException(AuthErrorCode.PASSWORD_CHANGED, AuthMessages.signedOutPasswordChanged, 401);
  }

  static sessionRevoked(): AuthException {
    return new AuthException(AuthErrorCode.SESSION_REVOKED, AuthMessages.signedOutForSafety, 401);
  }

  /** 403: deleting a Google-only account needs a fresh Google sign-in */
  static reauthRequired(): AuthException {
    return new AuthException(AuthErrorCode.REAUTH_REQUIRED, AuthMessages.reauthWithGoogle, 403);
  }

  static noPassword(): AuthException {
    return new AuthException(AuthErrorCode.NO_PASSWORD, AuthMessages.noPassword, 400);
  }
}
