import { client, getMe, listAdminUsers, type ProfileResponseDto, refreshSession, signOut } from '@fitting-room/api-client';
import { callApi, SessionStore, toSession } from '@fitting-room/shared/browser';

/**
 * The console shares the user app's session: the refresh token is the httpOnly cookie on
 * /api/auth, the access token lives only in memory. It uses the same `SessionStore` as the user app (package @fitting-room/shared)
 * (same refresh rules, same BroadcastChannel, same `navigator.locks` lock around each refresh), so
 * a console tab and user-app tabs never present one rotated refresh token twice (which would
 * revoke the session), and a refresh or sign-out in either is seen by the other.
 */

const refuse = () => Promise.reject(new Error('Sign in from the main site.'));

export const sessionStore = new SessionStore({
  signIn: refuse,
  signInWithCode: refuse,
  signUp: refuse,
  async refresh() {
    const { data, response } = await callApi(refreshSession());
    return toSession(data, response);
  },
  async signOut() {
    await callApi(signOut());
  },
});

/** The user app's landing page, where people sign in: a full page load (it is another app). */
export function goToLanding(): void {
  window.location.assign('/');
}

/**
 * The user app's Log in dialog, asked to come back to this console page once signed in (its `next`
 * parameter takes only console addresses: frontend/src/features/auth/return-to.ts).
 */
export function logInUrl(path: string): string {
  return `/?auth=login&next=${encodeURIComponent(path)}`;
}

/** Not signed in: the Log in dialog, then back here (a full page load: it is another app). */
export function goToLogIn(): void {
  const { pathname, search } = window.location;
  window.location.assign(logInUrl(`${pathname}${search}`));
}

const SESSION_ENDPOINTS = new Set([
  '/api/auth/refresh',
  '/api/auth/sign-out',
  '/api/auth/sign-in',
  '/api/auth/sign-in/2fa',
  '/api/auth/sign-up',
]);

/**
 * Sends a request with the bearer token; when it answers 401, renews the token once (through the
 * store, so under the shared lock) and retries. Used by the typed client and by react-admin's
 * httpClient alike.
 */
export async function withBearer(send: (token: string | null) => Promise<Response>): Promise<Response> {
  const token = sessionStore.getAccessToken();
  const response = await send(token);
  if (response.status !== 401) return response;
  const renewed = await sessionStore.renewAccessToken(token);
  return renewed ? send(renewed) : response;
}

/** The generated client: same origin, cookies for the refresh cookie, bearer token, one retry on 401. */
export function configureApiClient(): void {
  client.setConfig({
    baseUrl: '',
    credentials: 'include',
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url, window.location.origin);
      if (url.origin !== window.location.origin || SESSION_ENDPOINTS.has(url.pathname)) return fetch(request);
      return withBearer((token) => {
        const copy = request.clone();
        if (token) copy.headers.set('Authorization', `Bearer ${token}`);
        return fetch(copy);
      });
    },
  });
}

/** The caller's profile (role, two-factor), checked on the server (GET /api/me), not taken from a cached session. */
export async function fetchProfile(): Promise<ProfileResponseDto> {
  const { data } = await callApi(getMe());
  return data;
}

/** The API's code when staff routes need two-factor on (AUTH_REQUIRE_STAFF_2FA) and the caller has it off. */
export const TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED';

/** The user app's page where two-factor is turned on. */
export const USER_APP_SETTINGS = '/dashboard/settings';

/**
 * Whether the API lets this staff account (two-factor off) use staff routes: asks one that every
 * console role may use (the user lookup, one row). Answers the API's message when it refuses with
 * TWO_FACTOR_REQUIRED, null otherwise (any other failure is left to the screens).
 */
export async function staffTwoFactorRefusal(): Promise<string | null> {
  const { error } = await listAdminUsers({ query: { range: '[0,0]' } });
  const body = error as { code?: string; message?: string } | undefined;
  return body?.code === TWO_FACTOR_REQUIRED ? (body.message ?? null) : null;
}

/** A staff route refused the caller for want of two-factor while the console was open: the gate shows why. */
const twoFactorListeners = new Set<(message: string) => void>();
export const twoFactorRequired = {
  subscribe(listener: (message: string) => void): () => void {
    twoFactorListeners.add(listener);
    return () => twoFactorListeners.delete(listener);
  },
  raise(message: string): void {
    twoFactorListeners.forEach((listener) => listener(message));
  },
};
