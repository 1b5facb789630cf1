import * as fs from 'node:fs';
import * as path from 'node:path';

/** Password rules of sign-up (NIST SP 800-63B: length, and no password from a list of common ones). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const PasswordMessages = {
  length: `Password must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`,
  common: 'This password is too common. Please choose a less common password.',
} as const;

/** Shipped beside this file (the backend build copies it into dist); see its header for the source. */
export const COMMON_PASSWORDS_FILE = path.join(__dirname, 'common-passwords.txt');

let commonPasswords: Set<string> | undefined;

function loadCommonPasswords(): Set<string> {
  const lines = fs.readFileSync(COMMON_PASSWORDS_FILE, 'utf8').split('\n');
  return new Set(lines.filter((l) => l && !l.startsWith('#')).map((l) => l.trim().toLowerCase()));
}

/** True when the password (compared case-insensitively) is on the list of common passwords. */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.has(password.trim().toLowerCase());
}

/** The number of listed passwords (tests assert the list loaded). */
export function commonPasswordCount(): number {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.size;
}
