import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { sessionEndMessage } from '@fitting-room/shared/browser';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { APP_NAME } from '../../config/app-config';
import { googleErrorMessage, SIGN_IN_AGAIN_MESSAGE } from './auth-dialog-messages';
import { CheckEmailStep } from './CheckEmailStep';
import { type CredentialValues, CredentialsStep } from './CredentialsStep';
import { dismissEarlyAuth, readEarlyAuth } from './early-auth';
import { ForgotPasswordStep } from './ForgotPasswordStep';
import { SecondFactorStep } from './SecondFactorStep';
import type { AuthDialogMode, AuthDialogReason } from './auth-dialog-mode';

const MFA_TOKEN_FRAGMENT = 'mfa_token';

/** Google sign-in with two-factor on lands on `/?auth=2fa#mfa_token=<token>`: the fragment never reaches a server. */
function mfaTokenInFragment(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get(MFA_TOKEN_FRAGMENT);
}

/** The line of Create account opened from Watch demo (or the footer's Demo) while signed out. */
export const DEMO_SIGN_UP_LINE = 'The demo is your own try-on: create a free account, upload a photo and see yourself in any outfit.';

function heading(
  mode: AuthDialogMode,
  recovery: boolean,
  reason: AuthDialogReason | null,
  checkEmail: boolean,
): { title: string; description: string } {
  if (checkEmail) return { title: 'Check your email', description: 'Your sign-up goes on from the email we sent.' };
  switch (mode) {
    case 'login':
      return { title: 'Log in', description: `Welcome back to ${APP_NAME}.` };
    case 'signup':
      return {
        title: 'Create account',
        description: reason === 'demo' ? DEMO_SIGN_UP_LINE : 'See yourself in any outfit before you buy. Your first try-on is free.',
      };
    case 'forgot':
      return {
        title: 'Reset your password',
        description: 'Enter the email address of your account and we will email you a link to choose a new password.',
      };
    case '2fa':
      return {
        title: 'Two-factor authentication',
        description: recovery ? 'Enter one of your recovery codes.' : 'Enter the 6-digit code from your authenticator app.',
      };
  }
}

export interface AuthDialogProps {
  open: boolean;
  mode: AuthDialogMode;
  /** Why the dialog opened (`&reason=`), when a link said so. */
  reason?: AuthDialogReason | null;
  /** `?auth_error=<code>` of a failed Google sign-in, shown on Log in. */
  errorCode: string | null;
  /** `?ended=<code>`: why the session ended (RequireAuth's redirect), shown on Log in. */
  endedCode?: string | null;
  onModeChange(mode: AuthDialogMode): void;
  onClose(): void;
}

/**
 * The auth dialog of the landing page (docs/product.md), one step per mode: Log in and Create
 * account, "Forgot password?", and the code step of a sign-in with two-factor on. Typed values
 * (the email, mostly) follow the person from step to step; each step's messages stay with it.
 */
export default function AuthDialog({ open, mode, reason = null, errorCode, endedCode = null, onModeChange, onClose }: AuthDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const location = useLocation();
  const navigate = useNavigate();
  // The early dialog this one takes over (features/auth/early-auth.ts): a click before the app was live
  // opened it, and the person may have typed, moved the focus, submitted or asked for another step.
  const [early] = useState(readEarlyAuth);
  const [values, setValues] = useState<CredentialValues>(early?.values ?? { fullName: '', email: '', password: '', ageConfirmed: false });
  // The challenge of a password sign-in lives here (memory only); Google's arrives in the fragment.
  const [mfaToken, setMfaToken] = useState<string | null>(() => mfaTokenInFragment(location.hash));
  const [recovery, setRecovery] = useState(false);
  // A sign-up that signed nobody in: its words, shown instead of the form until the mode changes.
  const [checkEmail, setCheckEmail] = useState<{ mode: AuthDialogMode; message: string } | null>(null);
  const checkEmailMessage = checkEmail?.mode === mode ? checkEmail.message : null;
  // A message for the step the person is sent to (an expired code step sends them back to Log in):
  // kept while the address moves from `from` to `mode` (the URL changes a render later), gone after.
  const [carried, setCarried] = useState<{ from: AuthDialogMode; mode: AuthDialogMode; text: string } | null>(null);
  const firstFieldRef = useRef<HTMLInputElement>(null);
  /** the field of the early dialog that had the focus, here: it keeps the focus */
  const adoptedFieldRef = useRef<HTMLInputElement | null>(null);
  /** the first step shown leaves the focus where the early dialog had it */
  const takingOverRef = useRef(early !== null);
  /** the early dialog's form was submitted: the credentials step submits it */
  const [submitTakenOver, setSubmitTakenOver] = useState(false);

  // Taking over, before the browser paints: what was typed since the first render, the focus (with
  // the caret where it was), then the early dialog goes. Keys pressed meanwhile wait for this task
  // and reach the same field here. A step asked for (its mode, "Forgot password?") follows.
  useLayoutEffect(() => {
    // (StrictMode runs this twice in development: the second finds the work done)
    const now = early ? readEarlyAuth() : null;
    if (!now) return;
    setValues((current) => ({ ...current, ...now.values }));
    dismissEarlyAuth();
    const field = now.focus ? dismissGuard.contentRef.current?.querySelector<HTMLInputElement>(`input[name="${now.focus.name}"]`) : null;
    if (field && now.focus) {
      adoptedFieldRef.current = field;
      field.focus({ preventScroll: true });
      if (now.focus.start !== null && now.focus.end !== null) field.setSelectionRange(now.focus.start, now.focus.end);
    }
    takingOverRef.current = false;
    if (now.pending === 'submit') setSubmitTakenOver(true);
    if (now.pending === 'forgot') onModeChange('forgot');
    else if (now.mode !== mode) onModeChange(now.mode);
    // once, for the early dialog of the first render
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The token is read: take it out of the address bar (and so out of the history and bookmarks).
  useEffect(() => {
    if (mfaTokenInFragment(location.hash) === null) return;
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, preventScrollReset: true });
  }, [location.hash, location.pathname, location.search, navigate]);

  // Arriving at the code step without a sign-in waiting for it (a reload): start again from the
  // password. Checked when the step is entered only: leaving it clears the token first.
  const tokenRef = useRef(mfaToken);
  tokenRef.current = mfaToken;
  const onModeChangeRef = useRef(onModeChange);
  onModeChangeRef.current = onModeChange;
  useEffect(() => {
    if (mode !== '2fa' || tokenRef.current) return;
    setCarried({ from: '2fa', mode: 'login', text: SIGN_IN_AGAIN_MESSAGE });
    onModeChangeRef.current('login');
  }, [mode]);

  // The "check your email" words are for the visit of the step that got them.
  useEffect(() => {
    if (checkEmail && mode !== checkEmail.mode) setCheckEmail(null);
  }, [checkEmail, mode]);

  // A carried message is for one visit of its step.
  useEffect(() => {
    if (carried && mode !== carried.mode && mode !== carried.from) setCarried(null);
  }, [carried, mode]);

  const { title, description } = heading(mode, recovery, reason, checkEmailMessage !== null);
  const initialError =
    carried?.mode === mode ? carried.text : mode === 'login' ? (googleErrorMessage(errorCode) ?? sessionEndMessage(endedCode)) : null;

  const backToLogIn = (message?: string) => {
    setMfaToken(null);
    setRecovery(false);
    if (message) setCarried({ from: mode, mode: 'login', text: message });
    onModeChange('login');
  };

  let step = null;
  if (checkEmailMessage !== null) {
    step = <CheckEmailStep message={checkEmailMessage} onLogIn={() => onModeChange('login')} />;
  } else if (mode === 'login' || mode === 'signup') {
    step = (
      <CredentialsStep
        key={`${mode}:${initialError ?? ''}`}
        mode={mode}
        values={values}
        onValuesChange={setValues}
        initialError={initialError}
        firstFieldRef={firstFieldRef}
        onModeChange={onModeChange}
        onCodeNeeded={(token) => {
          setMfaToken(token);
          setRecovery(false);
          onModeChange('2fa');
        }}
        onCheckEmail={(message) => setCheckEmail({ mode, message })}
        keepFocus={takingOverRef.current}
        submitNow={submitTakenOver}
      />
    );
  } else if (mode === 'forgot') {
    step = (
      <ForgotPasswordStep
        email={values.email}
        onEmailChange={(email) => setValues((current) => ({ ...current, email }))}
        firstFieldRef={firstFieldRef}
        onBack={() => onModeChange('login')}
      />
    );
  } else if (mfaToken) {
    step = (
      <SecondFactorStep
        key={mfaToken}
        mfaToken={mfaToken}
        recovery={recovery}
        onRecoveryChange={setRecovery}
        firstFieldRef={firstFieldRef}
        onExpired={backToLogIn}
        onBack={() => backToLogIn()}
      />
    );
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      initialFocusEl={() => adoptedFieldRef.current ?? firstFieldRef.current}
      onInteractOutside={dismissGuard.onInteractOutside}
      placement="center"
      // taking over an early dialog: it is on screen already, no second entrance
      motionPreset={early ? 'none' : 'slide-in-bottom'}
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef}>
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1" pe="14">
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="2xl">
                {title}
              </Dialog.Title>
              <Dialog.Description color="fg.muted">{description}</Dialog.Description>
            </Dialog.Header>
            <Dialog.Body pb="6">{step}</Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
