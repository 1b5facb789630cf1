import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

export const OAUTH_STATE_COOKIE = 'fr_oauth_state';
export const OAUTH_STATE_COOKIE_PATH = '/api/auth/google';
const STATE_TTL_SECONDS = 600;

export interface StateFailure {
  reason: 'state';
  message: string;
}

type StoreCallback = (err: Error | null, state?: string) => void;
type VerifyCallback = (err: Error | null, ok: string | false, info?: StateFailure) => void;

/**
 * passport-oauth2 state store without express-session: the `state` handle and the PKCE verifier
 * travel in a short-lived (10 min), HMAC-signed, httpOnly cookie scoped to /api/auth/google.
 * SameSite=Lax lets the browser send it on the top-level redirect back from the provider. The
 * callback must present the same `state`; the cookie is cleared whatever the outcome (single use).
 */
export class SignedCookieStateStore {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly secure: boolean,
  ) {
    this.key = createHmac('sha256', secret).update('fr-oauth-state-cookie').digest();
  }

  // passport-oauth2 calls a store of arity 5 with the PKCE verifier
  store(req: Request, verifier: string, _state: unknown, _meta: unknown, callback: StoreCallback): void {
    const handle = randomBytes(24).toString('base64url');
    const expires = Math.floor(Date.now() / 1000) + STATE_TTL_SECONDS;
    const payload = `${handle}.${verifier}.${expires}`;
    const res = req.res as Response;
    res.cookie(OAUTH_STATE_COOKIE, `${payload}.${this.sign(payload)}`, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'lax',
      path: OAUTH_STATE_COOKIE_PATH,
      maxAge: STATE_TTL_SECONDS * 1000,
    });
    callback(null, handle);
  }

  verify(req: Request, providedState: unknown, callback: VerifyCallback): void {
    const raw = (req.cookies as Record<string, unknown> | undefined)?.[OAUTH_STATE_COOKIE];
    (req.res as Response).clearCookie(OAUTH_STATE_COOKIE, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'lax',
      path: OAUTH_STATE_COOKIE_PATH,
    });
    const fail = (message: string) => callback(null, false, { reason: 'state', message });
    if (typeof raw !== 'string' || typeof providedState !== 'string' || !providedState)
      return fail('Unable to verify authorization request state.');
    const parts = raw.split('.');
    if (parts.length !== 4) return fail('Unable to verify authorization request state.');
    const [handle, verifier, expires, signature] = parts;
    const payload = `${handle}.${verifier}.${expires}`;
    if (!this.equal(signature, this.sign(payload))) return fail('Unable to verify authorization request state.');
    if (!/^\d+$/.test(expires) || Number(expires) < Date.now() / 1000) return fail('The sign-in took too long. Please try again.');
    if (!this.equal(handle, providedState)) return fail('Invalid authorization request state.');
    return callback(null, verifier);
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  private equal(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
