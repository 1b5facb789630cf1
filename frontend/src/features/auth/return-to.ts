import { canUseConsole } from '@fitting-room/shared';

/**
 * "Come back here once signed in": the console (/admin), opened signed out, sends people to the
 * Log in dialog with `/?auth=login&next=/admin/...`. Only console addresses are taken, so the
 * parameter cannot send anyone elsewhere (no other site, no `//host`, no `/\host`). The address is
 * kept in this tab (sessionStorage) while the person signs in, whatever way they do (password,
 * two-factor code, Google, which leaves the page), for ten minutes at most, and is used once: by
 * staff, whom the console takes; anyone else just stays in the app.
 */
export const RETURN_PARAM = 'next';

const KEY = 'fitting-room:return-to';
const TTL_MS = 10 * 60 * 1000;
const CONSOLE_PATH = /^\/admin(?:[/?#][^\\\s]*)?$/;

/** The console address in `value`, or null for anything else. */
export function parseReturnTo(value: string | null | undefined): string | null {
  if (!value || !CONSOLE_PATH.test(value) || value.includes('//')) return null;
  return value;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage refused (a privacy setting): the person lands on the dashboard, with its link to the console
  }
}

/** Remembers where to go back once signed in (an address that is not the console's is ignored). */
export function rememberReturnTo(value: string | null): void {
  const path = parseReturnTo(value);
  if (path) storage()?.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
}

export function forgetReturnTo(): void {
  storage()?.removeItem(KEY);
}

/**
 * The address to go back to, for a person of `role` who has just signed in, or null; either way it
 * is forgotten (used once). Someone who may not use the console is not sent there.
 */
export function takeReturnTo(role: string | null | undefined, now = Date.now()): string | null {
  const raw = storage()?.getItem(KEY);
  if (!raw) return null;
  forgetReturnTo();
  try {
    const { path, at } = JSON.parse(raw) as { path?: string; at?: number };
    if (typeof at !== 'number' || now - at > TTL_MS || now < at) return null;
    return canUseConsole(role) ? parseReturnTo(path) : null;
  } catch {
    return null;
  }
}
