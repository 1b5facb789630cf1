/**
 * Pages of the user app that mail and redirects link to. The paths are part of the contract with
 * the user app (frontend/src/app/paths.ts routes them); only the API builds these URLs.
 */
export const APP_PAGES = {
  home: '/',
  signIn: '/?auth=login',
  forgotPassword: '/?auth=forgot',
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  unsubscribe: '/unsubscribe',
  generations: '/dashboard/generations',
  settings: '/dashboard/settings',
  tickets: '/dashboard/tickets',
  pricing: '/pricing',
  subscription: '/dashboard/subscription',
} as const;

/** `$APP_URL` + a page (+ a query). */
export function appLink(appUrl: string, page: string, query: Record<string, string> = {}): string {
  const url = new URL(page, `${appUrl}/`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}
