import type { CookieOptions, Response } from 'express';

/** The refresh token's cookie: httpOnly, SameSite=Lax, only sent to /api/auth, Secure in production. */
export const REFRESH_COOKIE = 'fr_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';

function options(secure: boolean): CookieOptions {
  return { httpOnly: true, secure, sameSite: 'lax', path: REFRESH_COOKIE_PATH };
}

/** Max-Age is what remains of the session's absolute lifetime. */
export function setRefreshCookie(res: Response, token: string, sessionExpiresAt: Date, secure: boolean): void {
  const maxAge = Math.max(0, sessionExpiresAt.getTime() - Date.now());
  res.cookie(REFRESH_COOKIE, token, { ...options(secure), maxAge });
}

export function clearRefreshCookie(res: Response, secure: boolean): void {
  res.clearCookie(REFRESH_COOKIE, options(secure));
}

export function readRefreshCookie(req: { cookies?: Record<string, unknown> }): string | undefined {
  const value = req.cookies?.[REFRESH_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}
