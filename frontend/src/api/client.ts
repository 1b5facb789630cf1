import { client } from '@fitting-room/api-client';
import type { ApiAuth } from '@fitting-room/shared/browser';

/**
 * Endpoints that manage the session itself. Their 401 means "wrong credentials" or "no session",
 * never "token expired", so they are not retried after a refresh.
 */
const SESSION_ENDPOINTS = new Set([
  '/api/auth/sign-in',
  '/api/auth/sign-in/2fa',
  '/api/auth/sign-up',
  '/api/auth/refresh',
  '/api/auth/sign-out',
]);

const BEARER = /^Bearer (.+)$/;

function isSameOrigin(url: URL): boolean {
  return url.origin === window.location.origin;
}

/**
 * The one place the generated API client is configured. Every request goes to the same origin
 * (the API serves this app; Vite's dev server proxies /api), with cookies for the session's
 * refresh cookie. With `auth`, requests carry `Authorization: Bearer <access token>`, and a
 * protected call that answers 401 is retried once after the session is refreshed.
 * Call once, before the first render.
 */
export function configureApiClient(auth?: ApiAuth): void {
  client.setConfig({ baseUrl: '', credentials: 'include' });
  if (!auth) return;

  // An untouched copy of each retryable request, taken before fetch() consumes its body.
  const retryCopies = new WeakMap<Request, Request>();

  client.interceptors.request.use((request) => {
    const url = new URL(request.url);
    if (!isSameOrigin(url)) return request;
    const token = auth.getAccessToken();
    if (token && !request.headers.has('Authorization')) {
      request.headers.set('Authorization', `Bearer ${token}`);
    }
    if (!SESSION_ENDPOINTS.has(url.pathname)) retryCopies.set(request, request.clone());
    return request;
  });

  client.interceptors.response.use(async (response, request, options) => {
    if (response.status !== 401) return response;
    const copy = retryCopies.get(request);
    if (!copy) return response;
    retryCopies.delete(request);

    const rejectedToken = request.headers.get('Authorization')?.match(BEARER)?.[1] ?? null;
    const token = await auth.renewAccessToken(rejectedToken);
    if (!token) return response;

    const retry = new Request(copy, { headers: new Headers(copy.headers) });
    retry.headers.set('Authorization', `Bearer ${token}`);
    const fetchFn = options.fetch ?? globalThis.fetch;
    return fetchFn(retry);
  });
}
