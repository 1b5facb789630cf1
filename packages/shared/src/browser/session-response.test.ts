import { afterEach, describe, expect, it, vi } from 'vitest';
import { toSession } from './session-response';

describe('toSession: the token lifetime on this browser clock', () => {
  afterEach(() => vi.useRealTimers());

  it("places the server's expiry on a browser clock that is 10 minutes fast", () => {
    vi.useFakeTimers();
    const serverNow = Date.UTC(2026, 10, 23, 12, 0, 0);
    vi.setSystemTime(serverNow + 10 * 60_000); // the browser runs 10 minutes ahead
    const body = { access_token: 'a', expires_at: serverNow / 1000 + 900, user: {} } as never;
    const response = new Response(null, { headers: { Date: new Date(serverNow).toUTCString() } });
    // 15 minutes left on the server: 15 minutes left here too
    expect(toSession(body, response).expiresAt - Date.now()).toBe(900_000);
  });

  it("takes the server's expiry as it is when the answer has no Date header", () => {
    const body = { access_token: 'a', expires_at: 2_000_000_000, user: {} } as never;
    expect(toSession(body, undefined)).toMatchObject({ accessToken: 'a', expiresAt: 2_000_000_000_000 });
  });
});
