import { AppError, AuthErrorCode } from '../../common/errors';

/** The auth feature's codes live in the one catalogue (common/errors/error-catalogue.ts). */
export { AuthErrorCode };

export const AuthMessages = {
  /** the one sign-in failure, whatever its cause (unknown email, wrong password, Google-only account) */
  invalidCredentials: 'Invalid email or password',
  /** docs/product.md: the authentication layer's wording for a missing email or password */
  credentialsRequired: 'You must provide either an email or phone number and a password',
  ageConfirmation: 'You must confirm that you are 18 or older',
  invalidLink: 'This link is invalid or has expired. Please ask for a new one.',
  invalidCode: 'That code is not right. Please check your authenticator app and try again.',
  mfaExpired: 'Your sign-in took too long or had too many wrong codes. Please sign in again.',
  emailNotVerified: 'Please confirm your email address first: open the link we emailed you, or ask for a new one.',
  ageNotConfirmed: 'Please confirm that you are 18 or older first.',
  twoFactorRequired: 'Staff accounts must turn on two-factor authentication. Turn it on in Settings, then come back.',
  wrongPassword: 'Your current password is not right.',
  accountSuspended: 'This account is suspended. If you think this is a mistake, please contact support.',
  noPassword: 'Your account signs in with Google and has no password yet. Use “Forgot password?” on the sign-in dialog to set one.',
  /** the same answer whether or not the address has an account */
  resetRequested: 'If an account uses that email address, we have sent it a link to choose a new password. The link works for 1 hour.',
  verificationSent: 'We have sent a new confirmation link. Please check your inbox.',
  emailVerified: 'Your email address is confirmed.',
  passwordReset: 'Your password was changed. Please sign in with your new password.',
} as const;

/** Error codes the Google callback puts in `/?auth_error=<code>` for the user app to show. */
export enum GoogleAuthError {
  Unavailable = 'google_unavailable',
  Denied = 'google_denied',
  StateInvalid = 'google_state_invalid',
  EmailUnverified = 'google_email_unverified',
  Suspended = 'account_suspended',
  Failed = 'google_failed',
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
