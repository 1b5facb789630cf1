import { paths } from '../app/paths';
import { AUTH_ERROR_PARAM, AUTH_PARAM } from '../features/auth/auth-dialog-mode';

/** The public pages the server renders to HTML ahead of the request: the landing page, pricing and the legal pages. */
export const PRERENDERED_PATHS: readonly string[] = [paths.home, paths.pricing, paths.terms, paths.privacy, paths.refund];

/** Search parameters that change what the landing page renders (the auth dialog): such a URL is not served pre-rendered. */
const RENDERING_PARAMS = [AUTH_PARAM, AUTH_ERROR_PARAM];

/**
 * The pre-rendered page that serves `url` (a path with its search, as a request names it), or null
 * when none does: another path, or search parameters the page renders from. Other parameters (a
 * campaign's `utm_source`) do not change the page.
 */
export function prerenderedPath(url: string): string | null {
  const parsed = new URL(url, 'http://prerender.invalid');
  if (!PRERENDERED_PATHS.includes(parsed.pathname)) return null;
  if (RENDERING_PARAMS.some((name) => parsed.searchParams.has(name))) return null;
  return parsed.pathname;
}
