import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** A code from the step before or after is accepted too (clock drift). */
const WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** `otpauth://totp/<issuer>:<account>?secret=...` for the QR code. */
export function otpauthUrl(secretBase32: string, issuer: string, account: string): string {
  return totp(secretBase32, account, issuer).toString();
}

/** The current code (tests and tools compute it the same way an authenticator app does). */
export function totpCode(secretBase32: string, at = Date.now()): string {
  return totp(secretBase32).generate({ timestamp: at });
}

/**
 * The time step a code belongs to, if it is valid now (within one step of drift), else null. The
 * caller refuses a step it has accepted before, so a code works once.
 */
export function totpStep(secretBase32: string, code: string, at = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secretBase32).validate({ token, timestamp: at, window: WINDOW });
  if (delta === null) return null;
  return Math.floor(at / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/**
 * TOTP secrets at rest: AES-256-GCM under a key derived (HKDF) from AUTH_ENCRYPTION_KEY (or the
 * JWT secret). Stored as `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'fitting-room', 'totp-secret-v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, data, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !data || !tag) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** How many recovery codes a set has. */
export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `k7m2q-x9trw` (50 bits each): easy to copy, no look-alike characters. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** The stored form of a recovery code: HMAC-SHA256 of its letters (spaces, dashes and case ignored). */
export function recoveryCodeHash(key: Buffer, code: string): string {
  return createHmac('sha256', key)
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('hex');
}
