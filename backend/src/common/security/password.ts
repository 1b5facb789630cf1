import { randomBytes } from 'node:crypto';
import * as argon2 from 'argon2';

/** argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** A hash of a random password, made once per process with the same parameters as real ones. */
export function warmUpDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

/**
 * Spends the time of a real verification and answers false: used when the account does not exist
 * (or has no password), so a failed sign-in takes as long whatever its cause.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  await verifyPassword(await warmUpDummyHash(), password);
  return false;
}
