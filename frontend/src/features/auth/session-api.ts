import { refreshSession, type SessionResponseDto, signIn, signInWithCode, signOut, signUp } from '@fitting-room/api-client';
import { callApi } from '../../api/errors';
import type { Session, SessionApi } from './session';

/**
 * `expires_at` is on the server's clock (Unix seconds). Measured against the response's `Date`
 * header it becomes a lifetime, which is placed on this browser's clock, so a computer whose
 * clock is off by minutes still refreshes in time.
 */
function toSession(body: SessionResponseDto, response: Response | undefined): Session {
  const expiresAtServerMs = body.expires_at * 1000;
  const serverNowMs = Date.parse(response?.headers.get('Date') ?? '');
  const expiresAt = Number.isFinite(serverNowMs) ? Date.now() + (expiresAtServerMs - serverNowMs) : expiresAtServerMs;
  return { accessToken: body.access_token, expiresAt, user: body.user };
}

/** The session endpoints of the typed client. */
export const sessionApi: SessionApi = {
  async signIn(input) {
    const { data, response } = await callApi(signIn({ body: input }));
    if ('mfa_required' in data) return { kind: 'mfa', mfaToken: data.mfa_token };
    return { kind: 'session', session: toSession(data, response) };
  },
  async signInWithCode(input) {
    const { data, response } = await callApi(signInWithCode({ body: input }));
    return toSession(data, response);
  },
  async signUp(input) {
    const { data, response } = await callApi(signUp({ body: input }));
    return toSession(data, response);
  },
  async refresh() {
    const { data, response } = await callApi(refreshSession());
    return toSession(data, response);
  },
  async signOut() {
    await callApi(signOut());
  },
};
