import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import { sessionEndMessage, SessionStore, type SessionRefreshRules } from './session-store';
import type { Session, SessionApi } from './session';

const RULES: SessionRefreshRules = { checkIntervalMs: 30_000, refreshMarginMs: 90_000, backoffStartMs: 200, backoffMaxMs: 30_000 };
const user = { id: 'u1', email: 'ann@example.com', full_name: 'Ann', role: 'user' } as unknown as Session['user'];
const session = (token: string, expiresInMs = 15 * 60_000): Session => ({ accessToken: token, expiresAt: Date.now() + expiresInMs, user });
const gone = () => new ApiError('Authentication error. Please sign in again.', 401, 'AUTH_ERROR');
const offline = () => new ApiError('Network error. Please check your connection and try again.', 0, 'NETWORK_ERROR');

function fakeApi(overrides: Partial<SessionApi> = {}): { [K in keyof SessionApi]: ReturnType<typeof vi.fn> } & SessionApi {
  return {
    signIn: vi.fn(),
    signInWithCode: vi.fn(),
    signUp: vi.fn(),
    refresh: vi.fn(),
    signOut: vi.fn(async () => undefined),
    ...overrides,
  } as never;
}

/** The browser globals start() listens to, as plain event targets. */
function browserGlobals() {
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  vi.stubGlobal('document', doc);
  vi.stubGlobal('window', new EventTarget());
  return doc;
}

describe('SessionStore', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks the server once when several callers need a refresh at the same time', async () => {
    let answer!: (s: Session) => void;
    const api = fakeApi({ refresh: vi.fn(() => new Promise<Session>((resolve) => (answer = resolve))) });
    const store = new SessionStore(api, { rules: RULES });
    const first = store.refresh();
    const second = store.refresh();
    const renewed = store.renewAccessToken(null);
    answer(session('fresh'));
    const [a, b, token] = await Promise.all([first, second, renewed]);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(a?.accessToken).toBe('fresh');
    expect(b).toBe(a);
    expect(token).toBe('fresh');
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-in', session: { accessToken: 'fresh' } });
  });

  it('retries a 401 with the newer token when a refresh already replaced the one the call was sent with', async () => {
    const api = fakeApi({ refresh: vi.fn(async () => session('second')) });
    const store = new SessionStore(api, { rules: RULES });
    await store.refresh();
    expect(await store.renewAccessToken('first')).toBe('second');
    expect(api.refresh).toHaveBeenCalledTimes(1);
    // the current token itself was refused: one more refresh
    api.refresh.mockResolvedValueOnce(session('third'));
    expect(await store.renewAccessToken('second')).toBe('third');
    expect(api.refresh).toHaveBeenCalledTimes(2);
  });

  it('signs out when the server says the session is gone, and then asks for nothing more', async () => {
    const api = fakeApi({ refresh: vi.fn(async () => session('t')) });
    const store = new SessionStore(api, { rules: RULES });
    await store.refresh();
    api.refresh.mockRejectedValueOnce(gone());
    expect(await store.renewAccessToken('t')).toBeNull();
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-out', session: null });
    expect(await store.renewAccessToken(null)).toBeNull();
    expect(api.refresh).toHaveBeenCalledTimes(2);
  });

  it('keeps the session through a transient failure and retries after 200 ms, doubling each time', async () => {
    vi.useFakeTimers();
    browserGlobals();
    const api = fakeApi({
      refresh: vi.fn().mockRejectedValueOnce(offline()).mockRejectedValueOnce(offline()).mockResolvedValue(session('back')),
    });
    const store = new SessionStore(api, { rules: RULES });
    const stop = store.start(); // restores: first attempt fails
    await vi.advanceTimersByTimeAsync(0);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().status).toBe('loading');
    await vi.advanceTimersByTimeAsync(199);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1); // 200 ms: second attempt fails
    expect(api.refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(api.refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1); // 400 ms later: succeeds
    expect(api.refresh).toHaveBeenCalledTimes(3);
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-in', session: { accessToken: 'back' } });
    stop();
  });

  it('refreshes on its own within 90 s of the token expiring, not before', async () => {
    vi.useFakeTimers();
    browserGlobals();
    const api = fakeApi({ refresh: vi.fn(async () => session('t1', 5 * 60_000)) });
    const store = new SessionStore(api, { rules: RULES });
    const stop = store.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    api.refresh.mockImplementation(async () => session('t2', 5 * 60_000)); // a fresh 5 minutes from the moment it is asked
    await vi.advanceTimersByTimeAsync(3 * 60_000); // 2 min left: more than the margin
    expect(api.refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000); // 1 min left: within the margin
    expect(api.refresh).toHaveBeenCalledTimes(2);
    expect(store.getAccessToken()).toBe('t2');
    stop();
  });

  it('a sign-out the server refuses for another reason leaves the person signed in; a gone session counts as signed out', async () => {
    const api = fakeApi({
      refresh: vi.fn(async () => session('t')),
      signOut: vi.fn().mockRejectedValueOnce(offline()).mockRejectedValueOnce(gone()),
    });
    const store = new SessionStore(api, { rules: RULES });
    await store.refresh();
    await expect(store.signOut()).rejects.toBeInstanceOf(ApiError);
    expect(store.getSnapshot().status).toBe('signed-in');
    await store.signOut();
    expect(store.getSnapshot().status).toBe('signed-out');
    expect(store.getAccessToken()).toBeNull();
  });

  it('two-factor sign-in changes nothing until the code is accepted', async () => {
    const api = fakeApi({
      signIn: vi.fn(async () => ({ kind: 'mfa' as const, mfaToken: 'challenge' })),
      signInWithCode: vi.fn(async () => session('after-code')),
    });
    const store = new SessionStore(api, { rules: RULES, restore: false });
    expect(await store.signIn({ email: 'ann@example.com', password: 'pw' } as never)).toEqual({ kind: 'mfa', mfaToken: 'challenge' });
    expect(store.getSnapshot().status).toBe('signed-out');
    await store.signInWithCode({ mfa_token: 'challenge', code: '123456' } as never);
    expect(store.getAccessToken()).toBe('after-code');
  });

  it('a sign-up of an address that has an account signs nobody in', async () => {
    const api = fakeApi({ signUp: vi.fn(async () => ({ kind: 'check-email' as const, message: 'We sent a link' })) });
    const store = new SessionStore(api, { rules: RULES, restore: false });
    expect(await store.signUp({} as never)).toEqual({ kind: 'check-email', message: 'We sent a link' });
    expect(store.getSnapshot()).toEqual({ status: 'signed-out', session: null });
  });

  it('keeps why a session ended: the API code of the refusal, a bare 401 of a held session as expired, nothing for a restore', async () => {
    const changed = new ApiError('You were signed out because your password was changed.', 401, 'PASSWORD_CHANGED');
    const api = fakeApi({ refresh: vi.fn().mockResolvedValueOnce(session('t')).mockRejectedValueOnce(changed) });
    const store = new SessionStore(api, { rules: RULES });
    await store.refresh();
    await store.refresh();
    expect(store.getSnapshot()).toMatchObject({
      status: 'signed-out',
      ended: {
        code: 'PASSWORD_CHANGED',
        message: 'You were signed out because your password was changed. Please sign in with your new password.',
      },
    });

    const held = new SessionStore(fakeApi({ refresh: vi.fn().mockResolvedValueOnce(session('t')).mockRejectedValueOnce(gone()) }), {
      rules: RULES,
    });
    await held.refresh();
    await held.refresh();
    expect(held.getSnapshot()).toMatchObject({ status: 'signed-out', ended: { code: 'SESSION_EXPIRED' } });

    const restoring = new SessionStore(fakeApi({ refresh: vi.fn().mockRejectedValueOnce(gone()) }), { rules: RULES });
    await restoring.refresh();
    expect(restoring.getSnapshot()).toEqual({ status: 'signed-out', session: null });
  });

  it('maps only the session-end codes to words', () => {
    expect(sessionEndMessage('SESSION_REVOKED')).toMatch(/signed out for your safety/);
    expect(sessionEndMessage('ACCOUNT_SUSPENDED')).toMatch(/suspended/);
    expect(sessionEndMessage('constructor')).toBeNull();
    expect(sessionEndMessage(null)).toBeNull();
  });
});
