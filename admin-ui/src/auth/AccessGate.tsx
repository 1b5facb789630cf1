import { canUseConsole } from '@access-policy';
import { Alert, Box, CircularProgress } from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { fetchRole, goToLanding, sessionStore } from './session';

/** Product spec, section 9: how long the denial shows before the person is sent to /. */
export const ADMIN_REDIRECT_DELAY_MS = 2000;

export const ACCESS_DENIED_MESSAGE = 'Access denied. Admin privileges required.';
export const ACCESS_CHECK_FAILED_MESSAGE = 'Failed to verify admin access';

type GateState = { kind: 'checking' } | { kind: 'granted'; role: string } | { kind: 'denied'; message: string };

/** Decides once: signed in (restored from the refresh cookie), and of a role that may use the console. */
async function checkAccess(): Promise<GateState | 'signed-out'> {
  const session = await sessionStore.refresh();
  if (!session) {
    // null is either "no session" (signed-out) or a failed attempt (still loading, retried later).
    return sessionStore.getSnapshot().status === 'signed-out' ? 'signed-out' : { kind: 'denied', message: ACCESS_CHECK_FAILED_MESSAGE };
  }
  try {
    const role = await fetchRole();
    return canUseConsole(role) ? { kind: 'granted', role } : { kind: 'denied', message: ACCESS_DENIED_MESSAGE };
  } catch {
    return { kind: 'denied', message: ACCESS_CHECK_FAILED_MESSAGE };
  }
}

function Centered({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Box sx={{ maxWidth: 480, width: '100%', display: 'flex', justifyContent: 'center' }}>{children}</Box>
    </Box>
  );
}

/**
 * Admin access (spec sections 4 and 9): "checking" (a spinner), then granted, or denied with a
 * message and a full-page redirect to / after 2 s. Not signed in at all: straight to / (the user
 * app's landing, where people log in), since the console has no login page of its own.
 */
export function AccessGate({ children }: { children: (role: string) => ReactNode }) {
  const [state, setState] = useState<GateState>({ kind: 'checking' });

  useEffect(() => {
    let active = true;
    void checkAccess().then((result) => {
      if (!active) return;
      if (result === 'signed-out') goToLanding();
      else setState(result);
    });
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    if (state.kind !== 'denied') return;
    const timer = setTimeout(goToLanding, ADMIN_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.kind]);

  // Signed out elsewhere (another tab of the console or of the user app): leave.
  useEffect(
    () =>
      sessionStore.subscribe(() => {
        if (state.kind === 'granted' && sessionStore.getSnapshot().status === 'signed-out') goToLanding();
      }),
    [state.kind],
  );

  if (state.kind === 'granted') return <>{children(state.role)}</>;
  if (state.kind === 'denied') {
    return (
      <Centered>
        <Alert severity="error" variant="filled" role="alert" sx={{ width: '100%' }}>
          {state.message}
        </Alert>
      </Centered>
    );
  }
  return (
    <Centered>
      <CircularProgress aria-label="Checking access" />
    </Centered>
  );
}
