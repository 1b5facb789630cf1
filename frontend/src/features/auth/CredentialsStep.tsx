import { Button, HStack, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { fullNameProblem } from '@fitting-room/shared';
import { errorMessage } from '@fitting-room/shared/browser';
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiPaths, paths } from '../../app/paths';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { PasswordInput } from '../../components/PasswordInput';
import { AGE_CONFIRMATION_REQUIRED, AgeCheckbox } from './AgeCheckbox';
import { DialogLink } from './DialogLink';
import { looksLikeEmail } from './email-shape';
import { GoogleIcon } from './GoogleIcon';
import { useAuth } from './useAuth';

export interface CredentialValues {
  fullName: string;
  email: string;
  password: string;
  ageConfirmed: boolean;
}

type FieldName = keyof CredentialValues;
type FieldErrors = Partial<Record<FieldName, string>>;

/**
 * The checks worth making before a round trip; the server has the final word (and its messages).
 * Log in checks presence only: the server accepts any text as the email there.
 */
function validate(mode: 'login' | 'signup', values: CredentialValues): FieldErrors {
  const errors: FieldErrors = {};
  const nameProblem = mode === 'signup' ? fullNameProblem(values.fullName) : null;
  if (nameProblem) errors.fullName = nameProblem;
  if (!values.email.trim()) errors.email = 'Email is required';
  else if (mode === 'signup' && !looksLikeEmail(values.email)) errors.email = 'Please enter a valid email address';
  if (!values.password) errors.password = 'Password is required';
  if (mode === 'signup' && !values.ageConfirmed) errors.ageConfirmed = AGE_CONFIRMATION_REQUIRED;
  return errors;
}

const copy = {
  login: { submit: 'Log in', switchPrompt: 'Don’t have an account?', switchTo: 'signup', switchLabel: 'Create account' },
  signup: { submit: 'Create account', switchPrompt: 'Already have an account?', switchTo: 'login', switchLabel: 'Log in' },
} as const;

interface CredentialsStepProps {
  mode: 'login' | 'signup';
  values: CredentialValues;
  onValuesChange(update: (values: CredentialValues) => CredentialValues): void;
  /** A message to show from the start (a failed Google sign-in, an expired code step). */
  initialError: string | null;
  /** The first field, focused when the dialog opens on this step. */
  firstFieldRef: RefObject<HTMLInputElement | null>;
  onModeChange(mode: 'login' | 'signup' | 'forgot'): void;
  /** Two-factor is on: the password was right, a code is needed. */
  onCodeNeeded(mfaToken: string): void;
  /** A sign-up signed nobody in (the address has an account): the words to show instead. */
  onCheckEmail(message: string): void;
  /** Taking over the early dialog (early-auth.ts): the focus stays where it is instead of moving to the first field. */
  keepFocus?: boolean;
  /** The early dialog's form was submitted before the app was live: submit these values now. */
  submitNow?: boolean;
}

/**
 * Log in or Create account (docs/product.md): email and password (and, to sign up, the full name and
 * the 18+ box), Continue with Google. While submitting, the button is disabled and reads
 * "Loading..."; a failure shows the server's message in red inside the dialog; success goes to All
 * Generations (a new account is signed in, its address not yet confirmed). A sign-up with an address
 * that has an account signs nobody in: the dialog says "check your email" (the mail says how to sign in).
 */
export function CredentialsStep({
  mode,
  values,
  onValuesChange,
  initialError,
  firstFieldRef,
  onModeChange,
  onCodeNeeded,
  onCheckEmail,
  keepFocus = false,
  submitNow = false,
}: CredentialsStepProps) {
  const { signIn, signUp } = useAuth();
  const navigate = useNavigate();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(initialError);
  const [submitting, setSubmitting] = useState(false);
  const fullNameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const text = copy[mode];
  const refs = {
    fullName: mode === 'signup' ? firstFieldRef : fullNameRef,
    email: mode === 'login' ? firstFieldRef : emailRef,
    password: passwordRef,
  };

  // A step shown while the dialog is open (switching modes) takes the focus like a new dialog would;
  // a message it opens with (an expired code step) is read out first.
  // (Once, on mount: the step is keyed by its message.)
  const initialFocus = useRef(initialError ? errorRef : keepFocus ? null : firstFieldRef);
  useEffect(() => {
    if (initialFocus.current) focusSoon(initialFocus.current);
  }, []);

  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (submitNow) formRef.current?.requestSubmit();
  }, [submitNow]);

  const set = <K extends FieldName>(name: K, value: CredentialValues[K]) => {
    onValuesChange((current) => ({ ...current, [name]: value }));
    if (fieldErrors[name]) setFieldErrors((current) => ({ ...current, [name]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const errors = validate(mode, values);
    setFieldErrors(errors);
    setServerError(null);
    const firstInvalid = (['fullName', 'email', 'password'] as const).find((name) => errors[name]);
    if (firstInvalid) {
      refs[firstInvalid].current?.focus();
      return;
    }
    if (errors.ageConfirmed) return;

    setSubmitting(true);
    try {
      const email = values.email.trim();
      if (mode === 'signup') {
        const outcome = await signUp({ full_name: values.fullName.trim(), email, password: values.password, age_confirmed: true });
        if (outcome.kind === 'check-email') {
          onValuesChange((current) => ({ ...current, password: '' }));
          onCheckEmail(outcome.message);
          return;
        }
      } else {
        const outcome = await signIn({ email, password: values.password });
        if (outcome.kind === 'mfa') {
          onValuesChange((current) => ({ ...current, password: '' }));
          onCodeNeeded(outcome.mfaToken);
          return;
        }
      }
      void navigate(paths.generations, { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
      setSubmitting(false);
      // The submit button was disabled under the focus: move it to the message, which is read out.
      focusSoon(errorRef);
    }
  };

  return (
    <Stack gap="5">
      <form ref={formRef} method="post" onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="4">
          {mode === 'signup' ? (
            <FormField label="Full name" required error={fieldErrors.fullName}>
              <Input
                ref={refs.fullName}
                name="full_name"
                autoComplete="name"
                value={values.fullName}
                onChange={(event) => set('fullName', event.target.value)}
              />
            </FormField>
          ) : null}
          <FormField label="Email" required error={fieldErrors.email}>
            <Input
              ref={refs.email}
              name="email"
              type="email"
              inputMode="email"
              autoComplete={mode === 'signup' ? 'email' : 'username'}
              autoCapitalize="none"
              spellCheck={false}
              value={values.email}
              onChange={(event) => set('email', event.target.value)}
            />
          </FormField>
          <Stack gap="1.5">
            <FormField label="Password" required error={fieldErrors.password}>
              <PasswordInput
                ref={refs.password}
                name="password"
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                value={values.password}
                onChange={(event) => set('password', event.target.value)}
              />
            </FormField>
            {mode === 'login' ? (
              <DialogLink alignSelf="flex-end" onClick={() => onModeChange('forgot')} data-early-action="forgot">
                Forgot password?
              </DialogLink>
            ) : null}
          </Stack>
          {mode === 'signup' ? (
            <AgeCheckbox
              checked={values.ageConfirmed}
              onCheckedChange={(checked) => set('ageConfirmed', checked)}
              error={fieldErrors.ageConfirmed}
            />
          ) : null}
          {serverError ? <FormAlert ref={errorRef}>{serverError}</FormAlert> : null}
          <Button type="submit" w="full" size="lg" loading={submitting} loadingText="Loading...">
            {text.submit}
          </Button>
        </Stack>
      </form>
      <HStack gap="3" aria-hidden="true">
        <Separator flex="1" />
        <Text fontSize="sm" color="fg.muted">
          or
        </Text>
        <Separator flex="1" />
      </HStack>
      <Button asChild variant="outline" w="full" size="lg" bg="bg.panel">
        {/* A full-page navigation: the API redirects to Google and back to /try (or to the code step). */}
        <a href={apiPaths.googleSignIn}>
          <GoogleIcon boxSize="5" />
          Continue with Google
        </a>
      </Button>
      <Text fontSize="sm" color="fg.muted" textAlign="center">
        {text.switchPrompt}{' '}
        <DialogLink onClick={() => onModeChange(text.switchTo)} data-early-action={text.switchTo}>
          {text.switchLabel}
        </DialogLink>
      </Text>
    </Stack>
  );
}
