import { canUseConsole } from '@fitting-room/shared';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { fetchProfile, goToLanding, goToLogIn, sessionStore, staffTwoFactorRefusal, twoFactorRequired, USER_APP_SETTINGS } from './session';
import type { Viewer } from './role';

/** docs/product.md: how long the denial shows before the person is sent to /. */
export const ADMIN_REDIRECT_DELAY_MS = 2000;

export const ACCESS_DENIED_MESSAGE = 'Access denied. Admin privileges required.';
export const ACCESS_CHECK_FAILED_MESSAGE = 'Failed to verify admin access';

type GateState =
  | { kind: 'checking' }
  | { kind: 'granted'; viewer: Viewer }
  | { kind: 'denied'; message: string }
  /** staff whose account must turn two-factor on first (AUTH_REQUIRE_STAFF_2FA): the API's message */
  | { kind: 'two-factor'; message: string };

/** Decides once: signed in (restored from the refresh cookie), and of a role that may use the console. */
async function checkAccess(): Promise<GateState | 'signed-out'> {
  const session = await sessionStore.refresh();
  if (!session) {
    // null is either "no session" (signed-out) or a failed attempt (still loading, retried later).
    return sessionStore.getSnapshot().status === 'signed-out' ? 'signed-out' : { kind: 'denied', message: ACCESS_CHECK_FAILED_MESSAGE };
  }
  try {
    const { id, role, two_factor_enabled: twoFactor } = await fetchProfile();
    if (!canUseConsole(role)) return { kind: 'denied', message: ACCESS_DENIED_MESSAGE };
    const refusal = twoFactor ? null : await staffTwoFactorRefusal();
    return refusal ? { kind: 'two-factor', message: refusal } : { kind: 'granted', viewer: { id, role } };
  } catch {
    return { kind: 'denied', message: ACCESS_CHECK_FAILED_MESSAGE };
  }
}

/**
 * Staff routes refuse a staff account without two-factor (AUTH_REQUIRE_STAFF_2FA): the API's
 * reason, and the way to the user app's Settings where it is turned on. No redirect: the person
 * comes back when it is done.
 */
function TwoFactorRequired({ message }: { message: string }) {
  return (
    <Card variant="outlined" sx={{ width: '100%' }}>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            Turn on two-factor authentication
          </Typography>
          <Alert severity="warning" role="alert">
            {message}
          </Alert>
          <Typography color="text.secondary">
            In Settings, choose “Turn on two-factor authentication”, scan the QR code with an authenticator app and save your recovery
            codes. Then open the console again.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button variant="contained" href={USER_APP_SETTINGS}>
              Open Settings
            </Button>
            <Button variant="outlined" onClick={() => window.location.reload()}>
              I turned it on: check again
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Box sx={{ maxWidth: 480, width: '100%', display: 'flex', justifyContent: 'center' }}>{children}</Box>
    </Box>
  );
}

/**
 * Admin access (docs/product.md): "checking" (a spinner), then granted, or denied with a
 * message and a full-page redirect to / after 2 s. Not signed in at all: the user app's Log in
 * dialog (the console has no login page of its own), which comes back to this address once signed in.
 */
export function AccessGate({ children }: { children: (viewer: Viewer) => ReactNode }) {
  const [state, setState] = useState<GateState>({ kind: 'checking' });

  useEffect(() => {
    let active = true;
    void checkAccess().then((result) => {
      if (!active) return;
      if (result === 'signed-out') goToLogIn();
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

  // A staff route refused the account for want of two-factor while the console was open.
  useEffect(() => twoFactorRequired.subscribe((message) => setState({ kind: 'two-factor', message })), []);

  // Signed out elsewhere (another tab of the console or of the user app): leave.
  useEffect(
    () =>
      sessionStore.subscribe(() => {
        if (state.kind === 'granted' && sessionStore.getSnapshot().status === 'signed-out') goToLanding();
      }),
    [state.kind],
  );

  if (state.kind === 'granted') return <>{children(state.viewer)}</>;
  if (state.kind === 'two-factor') {
    return (
      <Centered>
        <TwoFactorRequired message={state.message} />
      </Centered>
    );
  }
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
