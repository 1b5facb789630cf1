import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { useHydrated } from '../../app/useHydrated';
import {
  AUTH_ERROR_PARAM,
  AUTH_PARAM,
  AUTH_REASON_PARAM,
  type AuthDialogMode,
  parseAuthMode,
  parseAuthReason,
  SESSION_ENDED_PARAM,
} from './auth-dialog-mode';
import { dismissEarlyAuth } from './early-auth';
import { forgetReturnTo, rememberReturnTo, RETURN_PARAM } from './return-to';
import { useAuth } from './useAuth';

// The dialog's code (forms, checkbox, dialog machinery) loads only when it is first opened.
const AuthDialog = lazy(() => import('./AuthDialog'));

/** Starts loading the dialog's code early, e.g. when a pointer rests on a Log in link. */
export function preloadAuthDialog(): void {
  void import('./AuthDialog');
}

/**
 * The landing page's auth dialog, driven by the URL: `/?auth=login` or `/?auth=signup` open it
 * (the top bar's Log in and Sign up and the hero's Get started link there), `/?auth=forgot` its
 * "Forgot password?" step, `/?auth=2fa` the code step of a sign-in (Google's with
 * `#mfa_token=<token>`), and `/?auth_error=` (a failed Google sign-in) opens Log in with the reason,
 * as `&ended=<code>` does for a session that ended without a sign-out (RequireAuth's redirect);
 * `&reason=demo` (Watch demo, signed out) adds why Create account opened; `&next=/admin/...` (the
 * console, opened signed out) is where staff go back once signed in (return-to.ts).
 * Closing it drops those parameters (and the way back). A signed-in visitor asking for it goes to the dashboard instead.
 * Everything else of the dialog (its steps, messages and checks) is in its lazy chunk.
 */
export function AuthDialogHost() {
  const [params, setParams] = useSearchParams();
  const { status } = useAuth();
  const errorCode = params.get(AUTH_ERROR_PARAM);
  const endedCode = params.get(SESSION_ENDED_PARAM);
  const mode = parseAuthMode(params.get(AUTH_PARAM)) ?? (errorCode ? 'login' : null);
  const reason = parseAuthReason(params.get(AUTH_REASON_PARAM));
  const returnTo = params.get(RETURN_PARAM);
  useEffect(() => rememberReturnTo(returnTo), [returnTo]);
  // The last mode stays rendered while the dialog animates closed.
  const [shownMode, setShownMode] = useState<AuthDialogMode | null>(mode);
  if (mode && mode !== shownMode) setShownMode(mode);
  // The server renders no dialog (`/?auth=login` is the landing page with an early dialog over it):
  // nor does hydration; the dialog opens right after, taking the early dialog over.
  const hydrated = useHydrated();
  const signedIn = Boolean(mode) && status === 'signed-in';
  useEffect(() => {
    if (signedIn) dismissEarlyAuth(); // no dialog to take it over: the dashboard instead
  }, [signedIn]);

  if (!hydrated) return null;
  if (signedIn) return <Navigate to={paths.generations} replace />;
  if (!shownMode) return null;

  const update = (next: AuthDialogMode | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.delete(AUTH_ERROR_PARAM);
        updated.delete(SESSION_ENDED_PARAM);
        if (next) updated.set(AUTH_PARAM, next);
        else {
          updated.delete(AUTH_PARAM);
          updated.delete(AUTH_REASON_PARAM);
          updated.delete(RETURN_PARAM);
          forgetReturnTo();
        }
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <Suspense fallback={null}>
      <AuthDialog
        open={mode !== null}
        mode={shownMode}
        reason={reason}
        errorCode={errorCode}
        endedCode={endedCode}
        onModeChange={update}
        onClose={() => update(null)}
      />
    </Suspense>
  );
}
