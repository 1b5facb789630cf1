/**
 * The auth feature's words for people, and the codes of a failed Google sign-in. This file depends
 * on nothing so that the user app can import it too (frontend/vite.config.ts alias
 * `@api/auth-messages`): the log-in dialog shows these very strings.
 */
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
  /** why a session ended, said to whoever held it (docs/accounts.md "Sessions") */
  sessionExpired: 'Your session has expired. Please sign in again.',
  signedOutPasswordChanged: 'You were signed out because your password was changed. Please sign in with your new password.',
  signedOutForSafety:
    'You were signed out for your safety: your sign-in was used from another place after it had been renewed. Please sign in again.',
  /** deleting a Google-only account (GOOGLE_REAUTH_MINUTES in the API) */
  reauthWithGoogle: 'For your safety, sign in with Google again, then delete your account within 5 minutes.',
  noPassword: 'Your account signs in with Google and has no password yet. Use “Forgot password?” on the sign-in dialog to set one.',
  /** the same answer whether or not the address has an account */
  resetRequested: 'If an account uses that email address, we have sent it a link to choose a new password. The link works for 1 hour.',
  verificationSent: 'We have sent a new confirmation link. Please check your inbox.',
  /** the answer to every sign-up, a new address or one that has an account already (docs/accounts.md) */
  signUpLinkSent: (email: string) => `We've sent a link to ${email}. Please check your inbox to continue.`,
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
