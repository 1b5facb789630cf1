import { client } from '@fitting-room/api-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, twoFactorRequired } from '../auth/session';
import { apiError, FakeApi, ORIGIN } from '../testing/fake-api';
import { createAuthProvider } from './authProvider';

const REFRESH = 'POST /api/auth/refresh';
const SIGN_OUT = 'POST /api/auth/sign-out';
const signedIn = (fullName: string) => ({
  body: {
    access_token: 'token-1',
    expires_at: Math.floor(Date.now() / 1000) + 900,
    user: { id: 'staff-1', email: 'sam@example.com', full_name: fullName, role: 'support' },
  },
});

let api: FakeApi;
let assign: ReturnType<typeof vi.fn>;

async function signIn(fullName = 'Sam Support'): Promise<void> {
  api.on(REFRESH, signedIn(fullName));
  await sessionStore.refresh();
  api.requests.length = 0;
}

beforeEach(() => {
  api = new FakeApi();
  assign = vi.fn();
  vi.stubGlobal('fetch', api.fetch);
  vi.stubGlobal('window', { location: { origin: ORIGIN, assign } });
  client.setConfig({ baseUrl: ORIGIN });
});

afterEach(() => {
  sessionStore.sessionEnded();
  vi.unstubAllGlobals();
});

describe('authProvider', () => {
  const auth = createAuthProvider('support');

  it('a 401 that reaches react-admin ends the console session; a refused action does not', async () => {
    await expect(auth.checkError({ status: 401 })).rejects.toEqual({ message: false });
    await expect(auth.checkError({ status: 403, body: { code: 'FORBIDDEN', message: 'Forbidden' } })).resolves.toBeUndefined();
    await expect(auth.checkError({ status: 500 })).resolves.toBeUndefined();
  });

  it("a 403 TWO_FACTOR_REQUIRED tells the access gate, with the API's message", async () => {
    const heard: string[] = [];
    const stop = twoFactorRequired.subscribe((message) => heard.push(message));
    await auth.checkError({ status: 403, body: { code: 'FORBIDDEN', message: 'Forbidden' } });
    await auth.checkError({ status: 403, body: { code: 'TWO_FACTOR_REQUIRED', message: 'Turn on two-factor authentication first' } });
    stop();
    expect(heard).toEqual(['Turn on two-factor authentication first']);
  });

  it('checkAuth lets a signed-in person through and stops a signed-out one', async () => {
    await expect(auth.checkAuth({})).rejects.toEqual({ message: false });
    await signIn();
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('the identity is the name, or the email when there is no name', async () => {
    await expect(auth.getIdentity!()).rejects.toThrow('Not signed in');
    await signIn();
    await expect(auth.getIdentity!()).resolves.toEqual({ id: 'staff-1', fullName: 'Sam Support' });
    sessionStore.sessionEnded();
    await signIn('');
    await expect(auth.getIdentity!()).resolves.toEqual({ id: 'staff-1', fullName: 'sam@example.com' });
  });

  it('logout signs out on the server and loads the landing page, even when the server cannot be told', async () => {
    await signIn();
    api.on(SIGN_OUT, { status: 204 });
    await expect(auth.logout({})).resolves.toBe(false);
    expect(api.routes).toEqual([SIGN_OUT]);
    expect(sessionStore.getSnapshot().status).toBe('signed-out');
    expect(assign).toHaveBeenCalledWith('/');

    await signIn();
    api.on(SIGN_OUT, apiError(503, 'UNAVAILABLE', 'Service unavailable'));
    await expect(auth.logout({})).resolves.toBe(false);
    expect(assign).toHaveBeenCalledTimes(2);
  });

  it('logout when the session already ended asks the server nothing', async () => {
    await auth.logout({});
    expect(api.requests).toEqual([]);
    expect(assign).toHaveBeenCalledWith('/');
  });

  it("permissions and access follow the signed-in person's role", async () => {
    await expect(auth.getPermissions!({})).resolves.toBe('support');
    await expect(auth.canAccess!({ resource: 'support-inquiries', action: 'edit' })).resolves.toBe(true);
    await expect(auth.canAccess!({ resource: 'user-credits', action: 'edit' })).resolves.toBe(false);
    await expect(createAuthProvider('admin').canAccess!({ resource: 'user-credits', action: 'edit' })).resolves.toBe(true);
  });
});
