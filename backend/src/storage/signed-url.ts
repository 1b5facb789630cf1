import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * Signed links of the local driver: `[<appUrl>]/api/files/<key>?exp=<unix s>[&dl=<name>]&sig=<sig>`,
 * sig = base64url(HMAC-SHA256(secret, canonical(key, exp, dl))). The host is not signed: a link
 * handed to the browser is host-relative (it works on whatever host the app was opened on), one
 * handed to a vendor is absolute on APP_URL; both are exactly as strong. Pure functions; `now` (ms)
 * is injectable for tests.
 */
export const FILES_ROUTE = '/api/files/';

export interface LocalSignatureFields {
  key: string;
  /** expiry, unix seconds */
  exp: number;
  /** sanitized download name, when the link downloads as an attachment */
  dl?: string;
}

export interface SignLocalUrlInput {
  /** the origin to put in front; without it the link is host-relative (`/api/files/...`) */
  appUrl?: string;
  key: string;
  secret: string;
  ttlSeconds: number;
  downloadName?: string;
  now?: number;
}

export type LocalSignatureCheck =
  | { valid: true; key: string; exp: number; dl?: string; remainingSeconds: number }
  | { valid: false; reason: 'malformed' | 'bad-signature' | 'expired' };

/** Version and purpose first, so that this HMAC cannot be confused with another use of the secret. */
export function canonicalLocalSignatureString({ key, exp, dl }: LocalSignatureFields): string {
  return ['fitting-room:files:v1', key, String(exp), dl ?? ''].join('\n');
}

/** The secret as a key object, made once per secret (a string key is converted again at every createHmac: a list signs dozens of links). */
const keyObjects = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keyObjects.get(secret);
  if (!key) {
    if (keyObjects.size >= 8) keyObjects.clear(); // one secret per process; tests use a few
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keyObjects.set(secret, key);
  }
  return key;
}

function hmac(fields: LocalSignatureFields, secret: string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(canonicalLocalSignatureString(fields), 'utf8').digest();
}

export function computeLocalSignature(fields: LocalSignatureFields, secret: string): string {
  return hmac(fields, secret).toString('base64url');
}

/** Signed link of a (valid) key, absolute on `appUrl` or host-relative without it; the caller validates the key and ttl. */
export function signLocalUrl({ appUrl, key, secret, ttlSeconds, downloadName, now = Date.now() }: SignLocalUrlInput): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const dl = downloadName === undefined ? undefined : sanitizeDownloadName(downloadName);
  const query = new URLSearchParams({ exp: String(exp) });
  if (dl) query.set('dl', dl);
  query.set('sig', computeLocalSignature({ key, exp, dl }, secret));
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${(appUrl ?? '').replace(/\/+$/, '')}${FILES_ROUTE}${path}?${query.toString()}`;
}

const SIG = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding
const EXP = /^\d{1,12}$/;

/**
 * Checks a link's signature (timing-safe) and expiry. `exp`, `dl` and `sig` come straight from the
 * query string, so anything that is not a single string is refused. An empty `dl` means none.
 */
export function verifyLocalSignature(
  input: { key: string; exp: unknown; dl?: unknown; sig: unknown },
  secret: string,
  now: number = Date.now(),
): LocalSignatureCheck {
  const { key, exp, sig } = input;
  const dl = input.dl === undefined || input.dl === '' ? undefined : input.dl;
  if (typeof exp !== 'string' || !EXP.test(exp) || typeof sig !== 'string' || !SIG.test(sig)) {
    return { valid: false, reason: 'malformed' };
  }
  if (dl !== undefined && typeof dl !== 'string') return { valid: false, reason: 'malformed' };
  const expSeconds = Number(exp);
  const expected = hmac({ key, exp: expSeconds, dl }, secret);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { valid: false, reason: 'bad-signature' };
  }
  if (expSeconds * 1000 <= now) return { valid: false, reason: 'expired' };
  return { valid: true, key, exp: expSeconds, dl, remainingSeconds: expSeconds - Math.floor(now / 1000) };
}

/**
 * A file name safe in a header and on any file system: letters, digits, `.`, `_` and `-` only
 * (anything else becomes `_`), no leading dot, at most 128 characters, never empty.
 */
export function sanitizeDownloadName(name: string): string {
  const cleaned = String(name)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 128);
  return cleaned.replace(/^_+|_+$/g, '') || 'download';
}

/** `attachment; filename="<sanitized name>"` */
export function attachmentDisposition(name: string): string {
  return `attachment; filename="${sanitizeDownloadName(name)}"`;
}
