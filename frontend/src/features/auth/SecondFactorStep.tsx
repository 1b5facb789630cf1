import { Button, Input, Stack } from '@chakra-ui/react';
import { ApiError, errorMessage } from '@fitting-room/shared/browser';
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { DialogLink } from './DialogLink';
import { useAuth } from './useAuth';

/** The server's wording for a missing code (AuthSignInMfaDto). */
const CODE_REQUIRED = 'Please enter the 6-digit code';
const RECOVERY_CODE_REQUIRED = 'Please enter a recovery code';

interface SecondFactorStepProps {
  mfaToken: string;
  /** A recovery code instead of a code of the authenticator app. */
  recovery: boolean;
  onRecoveryChange(recovery: boolean): void;
  firstFieldRef: RefObject<HTMLInputElement | null>;
  /** The challenge is spent or expired (MFA_EXPIRED): back to the password step with the message. */
  onExpired(message: string): void;
  onBack(): void;
}

/**
 * The second step of a sign-in with two-factor on (`?auth=2fa`): the 6-digit code of the
 * authenticator app, or one of the recovery codes. A wrong code shows the server's message in red
 * here; a challenge that took too long or had too many wrong codes starts the sign-in again.
 */
export function SecondFactorStep({ mfaToken, recovery, onRecoveryChange, firstFieldRef, onExpired, onBack }: SecondFactorStepProps) {
  const { signInWithCode } = useAuth();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => focusSoon(firstFieldRef), [firstFieldRef, recovery]);

  const toggle = () => {
    setCode('');
    setFieldError(undefined);
    setServerError(null);
    onRecoveryChange(!recovery);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const typed = recovery ? code.trim() : code.replace(/\s+/g, '');
    const error = recovery ? (typed ? undefined : RECOVERY_CODE_REQUIRED) : /^\d{6}$/.test(typed) ? undefined : CODE_REQUIRED;
    setFieldError(error);
    setServerError(null);
    if (error) {
      firstFieldRef.current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await signInWithCode(recovery ? { mfa_token: mfaToken, recovery_code: typed } : { mfa_token: mfaToken, code: typed });
      void navigate(paths.generations, { replace: true });
    } catch (failure) {
      setSubmitting(false);
      if (failure instanceof ApiError && failure.code === 'MFA_EXPIRED') {
        onExpired(failure.message);
        return;
      }
      setServerError(errorMessage(failure));
      setCode('');
      focusSoon(errorRef);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="4">
        {recovery ? (
          <FormField
            key="recovery"
            label="Recovery code"
            required
            error={fieldError}
            helperText="One of the ten codes you saved when you turned two-factor on. Each works once."
          >
            <Input
              ref={firstFieldRef}
              name="recovery_code"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              fontFamily="mono"
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                if (fieldError) setFieldError(undefined);
              }}
            />
          </FormField>
        ) : (
          <FormField
            key="code"
            label="Authentication code"
            required
            error={fieldError}
            helperText="The 6-digit code your authenticator app shows now."
          >
            <Input
              ref={firstFieldRef}
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9 ]*"
              maxLength={7}
              fontFamily="mono"
              letterSpacing="widest"
              fontSize="lg"
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                if (fieldError) setFieldError(undefined);
              }}
            />
          </FormField>
        )}
        {serverError ? <FormAlert ref={errorRef}>{serverError}</FormAlert> : null}
        <Button type="submit" w="full" size="lg" loading={submitting} loadingText="Loading...">
          Verify
        </Button>
        <Stack gap="2" align="center" fontSize="sm">
          <DialogLink onClick={toggle}>{recovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}</DialogLink>
          <DialogLink onClick={onBack}>Back to log in</DialogLink>
        </Stack>
      </Stack>
    </form>
  );
}
