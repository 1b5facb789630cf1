import { lazy, Suspense, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { AUTH_ERROR_PARAM, AUTH_PARAM, AUTH_REASON_PARAM, type AuthDialogMode, parseAuthMode, parseAuthReason } from './auth-dialog-mode';
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
 * `#mfa_token=<token>`), and `/?auth_error=` (a failed Google sign-in) opens Log in with the reason;
 * `&reason=demo` (Watch demo, signed out) adds why Create account opened.
 * Closing it drops those parameters. A signed-in visitor asking for it goes to the dashboard instead.
 * Everything else of the dialog (its steps, messages and checks) is in its lazy chunk.
 */
export function AuthDialogHost() {
  const [params, setParams] = useSearchParams();
  const { status } = useAuth();
  const errorCode = params.get(AUTH_ERROR_PARAM);
  const mode = parseAuthMode(params.get(AUTH_PARAM)) ?? (errorCode ? 'login' : null);
  const reason = parseAuthReason(params.get(AUTH_REASON_PARAM));
  // The last mode stays rendered while the dialog animates closed.
  const [shownMode, setShownMode] = useState<AuthDialogMode | null>(mode);
  if (mode && mode !== shownMode) setShownMode(mode);

  if (mode && status === 'signed-in') return <Navigate to={paths.generations} replace />;
  if (!shownMode) return null;

  const update = (next: AuthDialogMode | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.delete(AUTH_ERROR_PARAM);
        if (next) updated.set(AUTH_PARAM, next);
        else {
          updated.delete(AUTH_PARAM);
          updated.delete(AUTH_REASON_PARAM);
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
        onModeChange={update}
        onClose={() => update(null)}
      />
    </Suspense>
  );
}
