import { client } from '@fitting-room/api-client';

/**
 * The one place the generated API client is configured. Every request goes to the same origin
 * (the API serves this app; Vite's dev server proxies /api), with cookies for the session.
 * Call once, before the first render.
 */
export function configureApiClient(): void {
  client.setConfig({ baseUrl: '', credentials: 'include' });
}
