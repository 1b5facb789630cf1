import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { AuthContext } from './auth-context';
import type { SessionStore } from '@fitting-room/shared/browser';

interface AuthProviderProps {
  store: SessionStore;
  children: ReactNode;
}

/**
 * Gives the app its session store and runs it: the session is restored from the refresh cookie
 * on mount and kept fresh while the app is open. When the signed-in person changes (sign-out, or
 * another account signed in from another tab) nothing cached for the previous one survives.
 */
export function AuthProvider({ store, children }: AuthProviderProps) {
  const queryClient = useQueryClient();

  useEffect(() => store.start(), [store]);

  useEffect(() => {
    let userId = store.getSnapshot().session?.user.id ?? null;
    return store.subscribe(() => {
      const next = store.getSnapshot().session?.user.id ?? null;
      if (next === userId) return;
      const previous = userId;
      userId = next;
      if (previous === null) return;
      // Signed out: drop everything (the protected screens unmount). Another account: refetch.
      if (next === null) queryClient.removeQueries();
      else void queryClient.resetQueries();
    });
  }, [store, queryClient]);

  return <AuthContext value={store}>{children}</AuthContext>;
}
