import { paths } from '../app/paths';
import { AUTH_ERROR_PARAM, AUTH_PARAM } from '../features/auth/auth-dialog-mode';
import { EARLY_AUTH_MODES, type EarlyAuthMode } from '../features/auth/early-auth';

/** The public pages the server renders to HTML ahead of the request: the landing page, pricing and the legal pages. */
export const PRERENDERED_PATHS: readonly string[] = [paths.home, paths.pricing, paths.terms, paths.privacy, paths.refund];

/** Search parameters that change what the landing page renders (the auth dialog): such a URL is not served pre-rendered, but for the two below. */
const RENDERING_PARAMS = [AUTH_PARAM, AUTH_ERROR_PARAM];

/**
 * The auth dialog's Log in or Create account that `url` opens, served as the landing page with the
 * early auth dialog open (features/auth/early-auth.ts): exactly `/?auth=login` or `/?auth=signup`,
 * the links of the top bar and the calls to action, so that a click before any script has run lands
 * on a page that shows the form at once. Any other parameter (a reason, a way back, an error, the
 * other steps) is the app's to render: null.
 */
export function prerenderedDialog(url: string): EarlyAuthMode | null {
  const parsed = new URL(url, 'http://prerender.invalid');
  if (parsed.pathname !== paths.home || [...parsed.searchParams.keys()].length !== 1) return null;
  const mode = parsed.searchParams.get(AUTH_PARAM);
  return EARLY_AUTH_MODES.find((m) => m === mode) ?? null;
}

/**
 * The pre-rendered page that serves `url` (a path with its search, as a request names it), or null
 * when none does: another path, or search parameters the page renders from. Other parameters (a
 * campaign's `utm_source`) do not change the page. `/?auth=login` and `/?auth=signup` are the
 * landing page (with the early dialog: prerenderedDialog).
 */
export function prerenderedPath(url: string): string | null {
  const parsed = new URL(url, 'http://prerender.invalid');
  if (!PRERENDERED_PATHS.includes(parsed.pathname)) return null;
  if (prerenderedDialog(url)) return parsed.pathname;
  if (RENDERING_PARAMS.some((name) => parsed.searchParams.has(name))) return null;
  return parsed.pathname;
}
