import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_TOKEN_PREFIX } from '@fitting-room/shared/developer-api';

/**
 * A personal API token: `frk_` + 30 random base62 characters (about 178 bits) + 6 base62 characters
 * of the CRC32 of those 30, as GitHub's tokens are made: a secret scanner recognises the prefix and
 * checks the checksum offline, without asking us, and a typo is refused before any database read.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const TOKEN = new RegExp(`^${API_TOKEN_PREFIX}([0-9A-Za-z]{${RANDOM_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

/** How much of a token the lists show (the prefix and 4 characters: about 24 of its 178 bits). */
export const SHOWN_LENGTH = API_TOKEN_PREFIX.length + 4;

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksumOf(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

/** A new token (the secret shown once), and what is kept of it. */
export function newApiToken(): { token: string; hash: string; shown: string } {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)];
  const token = `${API_TOKEN_PREFIX}${random}${checksumOf(random)}`;
  return { token, hash: apiTokenHash(token), shown: token.slice(0, SHOWN_LENGTH) };
}

/** Whether `value` has a token's prefix (the guard then reads it as a token, never as a session's JWT). */
export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX);
}

/** Whether `value` is a well-formed token whose checksum holds (a scanner's offline check). */
export function isWellFormedApiToken(value: string): boolean {
  const match = TOKEN.exec(value);
  return !!match && checksumOf(match[1]) === match[2];
}

/** What is stored of a token: SHA-256 of the whole token, hex (a 178-bit random secret needs no slow hash). */
export function apiTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
