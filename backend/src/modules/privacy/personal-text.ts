import { createHash } from 'node:crypto';

/** A stable pseudonym of an account for logs and the audit trail: never the id or the email of a deleted person. */
export function userIdHash(userId: string): string {
  return createHash('sha256').update(`fitting-room:user:${userId}`).digest('hex').slice(0, 16);
}

/** What stands for a piece of personal text that was removed. */
export const REMOVED = '[removed]';

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A function that removes a person's email address and name from a text: the address anywhere
 * (any case), the full name and each part of it of three letters or more as whole words. Over-
 * removal is the safe side: a deleted account's words are not worth keeping.
 */
export function personalTextScrubber(person: { email: string; fullName: string }): (text: string) => string {
  const patterns: RegExp[] = [];
  if (person.email) patterns.push(new RegExp(escapeRegExp(person.email), 'gi'));
  const name = person.fullName.trim();
  const parts = [name, ...name.split(/\s+/)].filter((p, i, all) => p.length >= 3 && all.indexOf(p) === i);
  for (const part of parts) patterns.push(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(part)}(?![\\p{L}\\p{N}])`, 'giu'));
  return (text: string) => patterns.reduce((out, pattern) => out.replace(pattern, REMOVED), text);
}

/** Keys of audit snapshots that hold what someone typed: emptied outright, whoever they name. */
const FREE_TEXT_KEYS = new Set(['reason', 'subject', 'message', 'body', 'name', 'full_name', 'email', 'note']);

/** An audit snapshot (`before` / `after`) without the person's words: free-text fields removed, other strings scrubbed. */
export function scrubSnapshot(value: unknown, scrub: (text: string) => string, key?: string): unknown {
  if (typeof value === 'string') return key && FREE_TEXT_KEYS.has(key) ? REMOVED : scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubSnapshot(v, scrub));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scrubSnapshot(v, scrub, k)]));
  }
  return value;
}
