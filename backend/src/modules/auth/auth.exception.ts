import { AppError } from '../../common/errors';

/** Codes of the auth feature, beyond the catalogue's AUTH_ERROR (an invalid or expired session). */
export enum AuthErrorCode {
  INVALID_CREDENTIALS = 'INVALID_CREDENTIALS',
  EMAIL_TAKEN = 'EMAIL_TAKEN',
}

export const AuthMessages = {
  /** the one sign-in failure, whatever its cause (unknown email, wrong password, Google-only account) */
  invalidCredentials: 'Invalid email or password',
  /** spec section 5: the authentication layer's wording for a missing email or password */
  credentialsRequired: 'You must provide either an email or phone number and a password',
  emailTaken: 'An account with this email already exists.',
  ageConfirmation: 'You must confirm that you are 18 or older',
} as const;

/** Error codes the Google callback puts in `/?auth_error=<code>` for the user app to show. */
export enum GoogleAuthError {
  Unavailable = 'google_unavailable',
  Denied = 'google_denied',
  StateInvalid = 'google_state_invalid',
  EmailUnverified = 'google_email_unverified',
  Failed = 'google_failed',
}

export class AuthException extends AppError {
  static invalidCredentials(): AuthException {
    return new AuthException(AuthErrorCode.INVALID_CREDENTIALS, AuthMessages.invalidCredentials, 401);
  }

  static emailTaken(): AuthException {
    return new AuthException(AuthErrorCode.EMAIL_TAKEN, AuthMessages.emailTaken, 409);
  }
}
