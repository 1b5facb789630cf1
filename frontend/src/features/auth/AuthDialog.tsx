import {
  Alert,
  Button,
  CloseButton,
  Dialog,
  HStack,
  Input,
  InputGroup,
  Portal,
  Separator,
  Stack,
  Text,
} from '@chakra-ui/react';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/errors';
import { apiPaths, paths } from '../../app/paths';
import { FormField } from '../../components/FormField';
import { APP_NAME } from '../../config/app-config';
import { AGE_CONFIRMATION_REQUIRED, AgeCheckbox } from './AgeCheckbox';
import type { AuthDialogMode } from './auth-dialog-mode';
import { GoogleIcon } from './GoogleIcon';
import { useAuth } from './useAuth';

type FieldName = 'fullName' | 'email' | 'password' | 'ageConfirmed';
type FieldErrors = Partial<Record<FieldName, string>>;

interface FormValues {
  fullName: string;
  email: string;
  password: string;
  ageConfirmed: boolean;
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The checks worth making before a round trip; the server has the final word (and its messages). */
function validate(mode: AuthDialogMode, values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (mode === 'signup' && !values.fullName.trim()) errors.fullName = 'Full name is required';
  if (!values.email.trim()) errors.email = 'Email is required';
  else if (!EMAIL_SHAPE.test(values.email.trim())) errors.email = 'Please enter a valid email address';
  if (!values.password) errors.password = 'Password is required';
  if (mode === 'signup' && !values.ageConfirmed) errors.ageConfirmed = AGE_CONFIRMATION_REQUIRED;
  return errors;
}

const copy = {
  login: {
    title: 'Log in',
    description: `Welcome back to ${APP_NAME}.`,
    submit: 'Log in',
    switchPrompt: 'Don’t have an account?',
    switchTo: 'signup',
    switchLabel: 'Create account',
  },
  signup: {
    title: 'Create account',
    description: 'See yourself in any outfit before you buy. Your first try-on is free.',
    submit: 'Create account',
    switchPrompt: 'Already have an account?',
    switchTo: 'login',
    switchLabel: 'Log in',
  },
} as const;

export interface AuthDialogProps {
  open: boolean;
  mode: AuthDialogMode;
  /** A message to show when the dialog opens (a failed Google sign-in). */
  notice: string | null;
  onModeChange(mode: AuthDialogMode): void;
  onClose(): void;
}

/**
 * The auth dialog of the landing page (spec section 2): Log in or Create account, email and
 * password, Continue with Google. While submitting, the button is disabled and reads "Loading...";
 * a failure shows the server's message in red inside the dialog; success goes to All Generations.
 */
export default function AuthDialog({ open, mode, notice, onModeChange, onClose }: AuthDialogProps) {
  const { signIn, signUp } = useAuth();
  const navigate = useNavigate();
  const [values, setValues] = useState<FormValues>({ fullName: '', email: '', password: '', ageConfirmed: false });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(notice);
  const [submitting, setSubmitting] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const refs: Record<Exclude<FieldName, 'ageConfirmed'>, RefObject<HTMLInputElement | null>> = {
    fullName: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
  };
  const errorRef = useRef<HTMLDivElement>(null);
  const text = copy[mode];

  // Messages belong to the mode they were made in: a new mode (or a new notice) starts clean.
  const [shown, setShown] = useState({ mode, notice });
  if (shown.mode !== mode || shown.notice !== notice) {
    setShown({ mode, notice });
    setFieldErrors({});
    setServerError(notice);
  }

  const set = <K extends keyof FormValues>(name: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
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
        await signUp({ full_name: values.fullName.trim(), email, password: values.password, age_confirmed: true });
      } else {
        await signIn({ email, password: values.password });
      }
      void navigate(paths.generations, { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
      setSubmitting(false);
      // The submit button was disabled under the focus: move it to the message, which is read out.
      requestAnimationFrame(() => errorRef.current?.focus());
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      initialFocusEl={() => (mode === 'signup' ? refs.fullName.current : refs.email.current)}
      placement="center"
      motionPreset="slide-in-bottom"
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1" pe="14">
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="2xl">
                {text.title}
              </Dialog.Title>
              <Dialog.Description color="fg.muted">{text.description}</Dialog.Description>
            </Dialog.Header>
            <Dialog.Body pb="6">
              <Stack gap="5">
                <form onSubmit={(event) => void submit(event)} noValidate>
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
                        autoComplete="email"
                        autoCapitalize="none"
                        spellCheck={false}
                        value={values.email}
                        onChange={(event) => set('email', event.target.value)}
                      />
                    </FormField>
                    <FormField label="Password" required error={fieldErrors.password}>
                      <InputGroup
                        endElement={
                          <Button
                            type="button"
                            variant="ghost"
                            size="xs"
                            me="-2"
                            aria-label={showPassword ? 'Hide password' : 'Show password'}
                            aria-pressed={showPassword}
                            onClick={() => setShowPassword((shown) => !shown)}
                          >
                            {showPassword ? 'Hide' : 'Show'}
                          </Button>
                        }
                      >
                        <Input
                          ref={refs.password}
                          name="password"
                          type={showPassword ? 'text' : 'password'}
                          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                          value={values.password}
                          onChange={(event) => set('password', event.target.value)}
                        />
                      </InputGroup>
                    </FormField>
                    {mode === 'signup' ? (
                      <AgeCheckbox
                        checked={values.ageConfirmed}
                        onCheckedChange={(checked) => set('ageConfirmed', checked)}
                        error={fieldErrors.ageConfirmed}
                      />
                    ) : null}
                    {serverError ? (
                      <Alert.Root
                        ref={errorRef}
                        status="error"
                        role="alert"
                        tabIndex={-1}
                        _focusVisible={{ outline: '2px solid', outlineColor: 'border.error' }}
                      >
                        <Alert.Indicator />
                        <Alert.Title color="fg.error" fontWeight="medium">
                          {serverError}
                        </Alert.Title>
                      </Alert.Root>
                    ) : null}
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
                  {/* A full-page navigation: the API redirects to Google and back to /try. */}
                  <a href={apiPaths.googleSignIn}>
                    <GoogleIcon boxSize="5" />
                    Continue with Google
                  </a>
                </Button>
                <Text fontSize="sm" color="fg.muted" textAlign="center">
                  {text.switchPrompt}{' '}
                  <Button
                    type="button"
                    variant="plain"
                    size="sm"
                    h="auto"
                    p="0"
                    color="brand.fg"
                    fontWeight="semibold"
                    textDecoration="underline"
                    textUnderlineOffset="3px"
                    onClick={() => onModeChange(text.switchTo)}
                  >
                    {text.switchLabel}
                  </Button>
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
