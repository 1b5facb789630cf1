import type { Session } from './session';
import type { SessionResponseDto } from '@fitting-room/api-client';

/**
 * A session answer of the API as the browser keeps it. `expires_at` is on the server's clock (Unix
 * seconds). Measured against the response's `Date` header it becomes a lifetime, which is placed on
 * this browser's clock, so a computer whose clock is off by minutes still refreshes in time.
 */
export function toSession(body: SessionResponseDto, response: Response | undefined): Session {
  const expiresAtServerMs = body.expires_at * 1000;
  const serverNowMs = Date.parse(response?.headers.get('Date') ?? '');
  const expiresAt = Number.isFinite(serverNowMs) ? Date.now() + (expiresAtServerMs - serverNowMs) : expiresAtServerMs;
  return { accessToken: body.access_token, expiresAt, user: body.user };
}
