/** The auth dialog's two modes, as the landing page's `?auth=` search parameter spells them. */
export type AuthDialogMode = 'login' | 'signup';

/** Search parameters of the landing page that drive the dialog. */
export const AUTH_PARAM = 'auth';
/** Set by the API when Google sign-in fails: `/?auth_error=<code>`. */
export const AUTH_ERROR_PARAM = 'auth_error';

export function parseAuthMode(value: string | null): AuthDialogMode | null {
  return value === 'login' || value === 'signup' ? value : null;
}

/** What the API's Google sign-in error codes (GoogleAuthError) mean, in words for the user. */
const googleErrorMessages: Record<string, string> = {
  google_unavailable: 'Google sign-in is not available right now. Please use your email and password.',
  google_denied: 'Google sign-in was cancelled.',
  google_state_invalid: 'Google sign-in could not be completed. Please try again.',
  google_email_unverified: 'Your Google account’s email address is not verified, so it cannot be used to sign in.',
  google_failed: 'Google sign-in failed. Please try again.',
};

export function googleErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return googleErrorMessages[code] ?? 'Google sign-in failed. Please try again.';
}
