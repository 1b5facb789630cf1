/**
 * The auth dialog's modes, as the landing page's `?auth=` search parameter spells them: Log in,
 * Create account, "Forgot password?" and the two-factor code step of a sign-in.
 */
export type AuthDialogMode = 'login' | 'signup' | 'forgot' | '2fa';

/** Search parameters of the landing page that drive the dialog. */
export const AUTH_PARAM = 'auth';
/** Set by the API when Google sign-in fails: `/?auth_error=<code>`. */
export const AUTH_ERROR_PARAM = 'auth_error';
/** Set by the auth guard when a session ended without a sign-out: `/?auth=login&ended=<code>` (the API's 401 code). */
export const SESSION_ENDED_PARAM = 'ended';

const MODES: readonly string[] = ['login', 'signup', 'forgot', '2fa'] satisfies AuthDialogMode[];

export function parseAuthMode(value: string | null): AuthDialogMode | null {
  return value !== null && MODES.includes(value) ? (value as AuthDialogMode) : null;
}

/** Why the dialog opened, when a link says so: `/?auth=signup&reason=demo` (Watch demo, signed out). */
export const AUTH_REASON_PARAM = 'reason';
export type AuthDialogReason = 'demo';

export function parseAuthReason(value: string | null): AuthDialogReason | null {
  return value === 'demo' ? value : null;
}
