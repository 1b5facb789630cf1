import { canAccess } from '@fitting-room/shared';
import { goToLanding, sessionStore, TWO_FACTOR_REQUIRED, twoFactorRequired } from '../auth/session';
import type { AuthProvider } from 'react-admin';

/**
 * The console has no sign-in of its own: the access gate (auth/AccessGate.tsx) restores the user
 * app's session before react-admin starts, so here a missing session only means it ended meanwhile
 * (signed out in another tab, or revoked): then the person goes to the landing page, a full load.
 */
export function createAuthProvider(role: string): AuthProvider {
  return {
    login: () => Promise.reject(new Error('Sign in from the main site.')),
    async logout() {
      if (sessionStore.getSnapshot().status === 'signed-in') {
        await sessionStore.signOut().catch(() => undefined);
      }
      goToLanding();
      return false; // no client-side redirect: the page is being replaced
    },
    async checkAuth() {
      if (sessionStore.getSnapshot().status !== 'signed-in') throw { message: false };
    },
    async checkError(error: { status?: number; body?: { code?: string; message?: string } }) {
      // 401 after the data provider already renewed the token once: the session is gone.
      if (error?.status === 401) throw { message: false };
      // 403 TWO_FACTOR_REQUIRED: the account must turn two-factor on first (the gate says how).
      if (error?.status === 403 && error.body?.code === TWO_FACTOR_REQUIRED) twoFactorRequired.raise(error.body.message ?? '');
      // Any other 403 is a refused action, shown as an error, not a reason to leave.
    },
    async getIdentity() {
      const user = sessionStore.getSnapshot().session?.user;
      if (!user) throw new Error('Not signed in');
      return { id: user.id, fullName: user.full_name || user.email };
    },
    async getPermissions() {
      return role;
    },
    async canAccess({ resource, action }) {
      return canAccess(role, resource, action);
    },
  };
}
