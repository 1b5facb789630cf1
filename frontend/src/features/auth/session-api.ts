import { refreshSession, signIn, signInWithCode, signOut, signUp } from '@fitting-room/api-client';
import { callApi, type SessionApi, toSession } from '@fitting-room/shared/browser';

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
    if ('check_email' in data) return { kind: 'check-email', message: data.message };
    return { kind: 'session', session: toSession(data, response), message: data.message };
  },
  async refresh() {
    const { data, response } = await callApi(refreshSession());
    return toSession(data, response);
  },
  async signOut() {
    await callApi(signOut());
  },
};
