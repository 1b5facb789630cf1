import { OAUTH_STATE_COOKIE, SignedCookieStateStore } from './signed-cookie-state.store';
import type { Request } from 'express';

interface FakeRes {
  cookies: Record<string, { value: string; options: Record<string, unknown> }>;
  cleared: string[];
  cookie(name: string, value: string, options: Record<string, unknown>): void;
  clearCookie(name: string): void;
}

function fakeRes(): FakeRes {
  return {
    cookies: {},
    cleared: [],
    cookie(name, value, options) {
      this.cookies[name] = { value, options };
    },
    clearCookie(name) {
      this.cleared.push(name);
    },
  };
}

const SECRET = 'unit-test-secret-0123456789abcdef0123456789';

function storeState(store: SignedCookieStateStore): { handle: string; cookie: string; options: Record<string, unknown> } {
  const res = fakeRes();
  let handle = '';
  store.store({ res } as unknown as Request, 'the-pkce-verifier', undefined, {}, (err, state) => {
    expect(err).toBeNull();
    handle = state!;
  });
  return { handle, cookie: res.cookies[OAUTH_STATE_COOKIE].value, options: res.cookies[OAUTH_STATE_COOKIE].options };
}

function verify(store: SignedCookieStateStore, cookie: string | undefined, state: unknown) {
  const res = fakeRes();
  let outcome: { ok: string | false; info?: { reason: string; message: string } } | undefined;
  store.verify(
    { res, cookies: cookie === undefined ? {} : { [OAUTH_STATE_COOKIE]: cookie } } as unknown as Request,
    state,
    (err, ok, info) => {
      expect(err).toBeNull();
      outcome = { ok, info };
    },
  );
  expect(res.cleared).toEqual([OAUTH_STATE_COOKIE]); // single use, whatever the outcome
  return outcome!;
}

describe('SignedCookieStateStore', () => {
  const store = new SignedCookieStateStore(SECRET, true);

  it('keeps the state and PKCE verifier in a short-lived, signed, httpOnly cookie and gives the verifier back for the same state', () => {
    const { handle, cookie, options } = storeState(store);
    expect(handle).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(options).toMatchObject({ httpOnly: true, secure: true, sameSite: 'lax', path: '/api/auth/google', maxAge: 600_000 });
    expect(verify(store, cookie, handle)).toEqual({ ok: 'the-pkce-verifier', info: undefined });
  });

  it('refuses another state, a missing state or cookie, a forged signature and another secret', () => {
    const { handle, cookie } = storeState(store);
    const refused = (o: ReturnType<typeof verify>) => expect(o).toMatchObject({ ok: false, info: { reason: 'state' } });
    refused(verify(store, cookie, `${handle.slice(0, -1)}${handle.endsWith('A') ? 'B' : 'A'}`));
    refused(verify(store, cookie, undefined));
    refused(verify(store, cookie, ''));
    refused(verify(store, undefined, handle));
    refused(verify(store, cookie.replace(/\.[^.]+$/, '.AAAA'), handle));
    refused(verify(store, cookie.replace('the-pkce-verifier', 'another-verifier'), handle));
    refused(verify(new SignedCookieStateStore(`${SECRET}-other`, true), cookie, handle));
  });

  it('refuses an expired state', () => {
    const now = Date.now();
    const spy = jest.spyOn(Date, 'now').mockReturnValue(now - 601_000);
    const { handle, cookie } = storeState(store);
    spy.mockRestore();
    expect(verify(store, cookie, handle)).toMatchObject({
      ok: false,
      info: { reason: 'state', message: expect.stringMatching(/too long/) },
    });
  });
});
