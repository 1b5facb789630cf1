import {
  type AuthUser,
  type SecondFactorInput,
  type Session,
  type SignInInput,
  type SignInOutcome,
  type SignUpInput,
  type SignUpOutcome,
  type AuthStatus,
  type SessionEnd,
  type SessionStore,
} from '@fitting-room/shared/browser';
import { useContext, useMemo, useSyncExternalStore } from 'react';
import { AuthContext } from './auth-context';

export interface Auth {
  /** `loading` until the server has answered whether the refresh cookie holds a session. */
  status: AuthStatus;
  session: Session | null;
  user: AuthUser | null;
  /** Signed out without a sign-out: why the session ended (the API's reason). */
  ended: SessionEnd | null;
  /** A session, or (two-factor on) a challenge for `signInWithCode`. */
  signIn(input: SignInInput): Promise<SignInOutcome>;
  signInWithCode(input: SecondFactorInput): Promise<Session>;
  /** A session for a new address; `check-email` (nobody signed in) for one that has an account. */
  signUp(input: SignUpInput): Promise<SignUpOutcome>;
  /** Rejects (and leaves the user signed in) when the server could not be told. */
  signOut(): Promise<void>;
  /** Updates the signed-in user's details after a profile change. */
  updateUser(patch: Partial<AuthUser>): void;
}

/**
 * The session's status once it is known: at once unless it is still loading, else when the server
 * has answered. A click on a pre-rendered page can come before the session is restored: an action
 * that depends on it waits for this instead of taking a signed-in visitor for a signed-out one.
 */
export function sessionKnown(store: SessionStore): Promise<Exclude<AuthStatus, 'loading'>> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const { status } = store.getSnapshot();
      if (status === 'loading') return false;
      resolve(status);
      return true;
    };
    if (check()) return;
    const unsubscribe = store.subscribe(() => {
      if (check()) unsubscribe();
    });
  });
}

export function useSessionStore(): SessionStore {
  const store = useContext(AuthContext);
  if (!store) throw new Error('useAuth() needs an <AuthProvider> above it');
  return store;
}

/** The session and the actions that change it. */
export function useAuth(): Auth {
  const store = useSessionStore();
  // The server's pre-render (entry-server.tsx) renders with a signed-out store; hydration renders from
  // the browser's store as it started (loading: the public pages render it as signed out), even when
  // the session was restored meanwhile (the refresh can answer before the page's code is here), so
  // the markup matches; React then renders the restored session at once.
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getInitialSnapshot);
  const actions = useMemo(
    () => ({
      signIn: (input: SignInInput) => store.signIn(input),
      signInWithCode: (input: SecondFactorInput) => store.signInWithCode(input),
      signUp: (input: SignUpInput) => store.signUp(input),
      signOut: () => store.signOut(),
      updateUser: (patch: Partial<AuthUser>) => store.updateUser(patch),
    }),
    [store],
  );
  const ended = snapshot.status === 'signed-out' ? (snapshot.ended ?? null) : null;
  return { status: snapshot.status, session: snapshot.session, user: snapshot.session?.user ?? null, ended, ...actions };
}
