import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';

/**
 * OWASP's "device cookie" against account lockout: a browser that signed in to an account before
 * carries a signed cookie naming that account (a hash of its email). Its sign-in failures count
 * against that cookie alone, so strangers guessing a password from elsewhere cannot lock the owner
 * out of a device they used before. Stateless: an HMAC under a key derived from AUTH_JWT_SECRET.
 *
 * Value: `v1.<nonce>.<email hashes, comma-separated>.<signature>`; at most five accounts per browser.
 */
export const DEVICE_COOKIE = 'fr_device';
const PATH = '/api/auth';
const MAX_ACCOUNTS = 5;
const MAX_AGE_MS = 365 * 24 * 3600 * 1000;

export interface DeviceCookie {
  nonce: string;
  accounts: string[];
}

/** A short, stable, non-reversible name of an email for cookies and counter keys. */
export function emailKey(email: string): string {
  return createHash('sha256').update(`fr-login:${email}`).digest('base64url').slice(0, 22);
}

export class DeviceCookies {
  private readonly key: Buffer;

  constructor(
    jwtSecret: string,
    private readonly secure: boolean,
  ) {
    this.key = createHmac('sha256', jwtSecret).update('fr-device-cookie').digest();
  }

  /** The browser's valid device cookie, or null (absent, malformed or forged). */
  read(req: Pick<Request, 'cookies'>): DeviceCookie | null {
    const value: unknown = req.cookies?.[DEVICE_COOKIE];
    if (typeof value !== 'string' || value.length > 400) return null;
    const parts = value.split('.');
    if (parts.length !== 4 || parts[0] !== 'v1') return null;
    const [, nonce, accounts, signature] = parts;
    const expected = this.sign(`v1.${nonce}.${accounts}`);
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { nonce, accounts: accounts ? accounts.split(',') : [] };
  }

  /** Whether this browser signed in to `email`'s account before. */
  trusts(cookie: DeviceCookie | null, email: string): boolean {
    return !!cookie && cookie.accounts.includes(emailKey(email));
  }

  /** After a successful sign-in: remember the account on this browser (newest first). */
  remember(req: Pick<Request, 'cookies'>, res: Response, email: string): void {
    const current = this.read(req);
    const nonce = current?.nonce ?? randomBytes(16).toString('base64url');
    const key = emailKey(email);
    const accounts = [key, ...(current?.accounts ?? []).filter((a) => a !== key)].slice(0, MAX_ACCOUNTS);
    const payload = `v1.${nonce}.${accounts.join(',')}`;
    res.cookie(DEVICE_COOKIE, `${payload}.${this.sign(payload).toString()}`, this.options());
  }

  private options(): CookieOptions {
    return { httpOnly: true, secure: this.secure, sameSite: 'lax', path: PATH, maxAge: MAX_AGE_MS };
  }

  private sign(payload: string): Buffer {
    return Buffer.from(createHmac('sha256', this.key).update(payload).digest('base64url'));
  }
}
