import { AuthMessages, GoogleAuthError } from '@fitting-room/shared';

/**
 * What the API's Google sign-in error codes (GoogleAuthError, the API's own file) mean, in words for
 * the user. A refused account gets the API's very message (AuthMessages.accountSuspended), as a
 * password sign-in does.
 */
const googleErrorMessages: Record<GoogleAuthError, string> = {
  [GoogleAuthError.Unavailable]: 'Google sign-in is not available right now. Please use your email and password.',
  [GoogleAuthError.Denied]: 'Google sign-in was cancelled.',
  [GoogleAuthError.StateInvalid]: 'Google sign-in could not be completed. Please try again.',
  [GoogleAuthError.EmailUnverified]: 'Your Google account’s email address is not verified, so it cannot be used to sign in.',
  [GoogleAuthError.Suspended]: AuthMessages.accountSuspended,
  [GoogleAuthError.Failed]: 'Google sign-in failed. Please try again.',
};

/** The message of a failed Google sign-in (`/?auth_error=<code>`); part of the dialog's lazy chunk. */
export function googleErrorMessage(code: string | null): string | null {
  if (!code) return null;
  // own keys only: `?auth_error=constructor` is no message
  return Object.hasOwn(googleErrorMessages, code)
    ? googleErrorMessages[code as GoogleAuthError]
    : googleErrorMessages[GoogleAuthError.Failed];
}

/**
 * The code step was opened without a sign-in waiting for it (a reload, or a link kept too long):
 * the token lived only in memory (or in the address's fragment, removed once read).
 */
export const SIGN_IN_AGAIN_MESSAGE = 'Please sign in again: your sign-in was not finished in time.';
