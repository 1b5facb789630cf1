import type { SessionHint } from '@fitting-room/shared/browser';

const KEY = 'fitting-room:had-session';

/**
 * Whether this browser had a session when it last looked: a flag in localStorage, never a token
 * (the access token stays in memory; the refresh token is an httpOnly cookie JavaScript cannot
 * read). Without it, a visitor who never signed in would have every public page ask the API for
 * a session it cannot have: a wasted, rate-limited request answered 401.
 */
export const sessionHint: SessionHint & { present(): boolean } = {
  present() {
    try {
      return window.localStorage.getItem(KEY) === '1';
    } catch {
      return true; // storage blocked: ask the server
    }
  },
  set(present) {
    try {
      if (present) window.localStorage.setItem(KEY, '1');
      else window.localStorage.removeItem(KEY);
    } catch {
      // storage blocked: nothing to remember
    }
  },
};

/** Screens behind the auth guard (and /try, where Google sign-in lands) always ask the server. */
const PROTECTED_PATH = /^\/(try|app|dashboard)(\/|$)/;

/** Whether the app should ask the API for a session when it starts on `pathname`. */
export function shouldRestoreSession(pathname: string): boolean {
  return PROTECTED_PATH.test(pathname) || sessionHint.present();
}
