import { ValidationError } from '../common/errors';

export const MAX_KEY_LENGTH = 512;
/** Longest path segment: file systems refuse names over 255 bytes, and the local driver adds suffixes. */
export const MAX_KEY_SEGMENT_LENGTH = 200;

const KEY_CHARS = /^[A-Za-z0-9._/-]+$/;
const KEY_RULES =
  'a storage key is a relative path of letters, digits, ".", "_", "-" and "/" (no "..", no leading "/", no empty segments, at most 512 characters)';

/**
 * The one place that decides what a storage key may be, for every driver:
 * relative, `[A-Za-z0-9._/-]`, no `..`, no `.` segment, no leading `/`, no empty segment,
 * segments of at most 200 characters, at most 512 characters in all.
 * Throws ValidationError otherwise.
 */
export function assertValidKey(key: unknown): asserts key is string {
  if (!isValidKey(key)) throw new ValidationError(`Invalid storage key: ${KEY_RULES}.`);
}

export function isValidKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  if (!KEY_CHARS.test(key) || key.includes('..') || key.startsWith('/')) return false;
  return key.split('/').every((s) => s.length > 0 && s !== '.' && s.length <= MAX_KEY_SEGMENT_LENGTH);
}

/**
 * A prefix for deletePrefix: a valid key, optionally ending with `/` (`users/<id>/`).
 * Never empty, so that no call can wipe the whole store by accident.
 */
export function assertValidPrefix(prefix: unknown): asserts prefix is string {
  const body = typeof prefix === 'string' && prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (!isValidKey(body)) throw new ValidationError(`Invalid storage prefix: ${KEY_RULES}; a prefix may end with "/".`);
}

const TOKEN = "[A-Za-z0-9!#$&'*.^_`|~+-]+";
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*"))*$`);

/** A MIME type that can be sent back as a header as is (no CR/LF or other control characters). */
export function isValidContentType(contentType: unknown): contentType is string {
  return typeof contentType === 'string' && contentType.length <= 255 && CONTENT_TYPE.test(contentType);
}

export function assertValidContentType(contentType: unknown): asserts contentType is string {
  if (!isValidContentType(contentType)) throw new ValidationError('Invalid content type.');
}

/** Seconds a signed URL lives: a whole number from 1 s to 7 days (the limit of S3 presigned URLs). */
export function assertValidTtl(ttlSeconds: number): void {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > 7 * 24 * 3600) {
    throw new ValidationError('Signed URL lifetime must be a whole number of seconds between 1 and 604800.');
  }
}
