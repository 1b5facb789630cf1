/** What the API's Google sign-in error codes (GoogleAuthError) mean, in words for the user. */
const googleErrorMessages: Record<string, string> = {
  google_unavailable: 'Google sign-in is not available right now. Please use your email and password.',
  google_denied: 'Google sign-in was cancelled.',
  google_state_invalid: 'Google sign-in could not be completed. Please try again.',
  google_email_unverified: 'Your Google account’s email address is not verified, so it cannot be used to sign in.',
  google_failed: 'Google sign-in failed. Please try again.',
};

/** The message of a failed Google sign-in (`/?auth_error=<code>`); part of the dialog's lazy chunk. */
export function googleErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return googleErrorMessages[code] ?? 'Google sign-in failed. Please try again.';
}

/**
 * The code step was opened without a sign-in waiting for it (a reload, or a link kept too long):
 * the token lived only in memory (or in the address's fragment, removed once read).
 */
export const SIGN_IN_AGAIN_MESSAGE = 'Please sign in again: your sign-in was not finished in time.';

