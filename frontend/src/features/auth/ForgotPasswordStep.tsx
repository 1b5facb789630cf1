import { Button, Input, Stack, Text } from '@chakra-ui/react';
import { requestPasswordReset } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { DialogLink } from './DialogLink';
import { looksLikeEmail } from './email-shape';

interface ForgotPasswordStepProps {
  email: string;
  onEmailChange(email: string): void;
  firstFieldRef: RefObject<HTMLInputElement | null>;
  onBack(): void;
}

/**
 * "Forgot password?" (`?auth=forgot`): the address, then the server's answer as a calm
 * confirmation. The answer is the same whether or not the address has an account.
 */
export function ForgotPasswordStep({ email, onEmailChange, firstFieldRef, onBack }: ForgotPasswordStepProps) {
  const [fieldError, setFieldError] = useState<string>();
  const resultRef = useRef<HTMLDivElement>(null);
  const send = useMutation({
    mutationFn: (address: string) => unwrap(requestPasswordReset({ body: { email: address } })),
    onSettled: () => focusSoon(resultRef),
  });

  useEffect(() => focusSoon(firstFieldRef), [firstFieldRef]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const error = !email.trim() ? 'Email is required' : !looksLikeEmail(email) ? 'Please enter a valid email address' : undefined;
    setFieldError(error);
    if (error) {
      firstFieldRef.current?.focus();
      return;
    }
    send.mutate(email.trim());
  };

  if (send.isSuccess) {
    return (
      <Stack gap="5">
        <FormAlert ref={resultRef} status="success">
          {send.data.message}
        </FormAlert>
        <Text fontSize="sm" color="fg.muted">
          No email after a few minutes? Check your spam folder, or make sure you typed the address you signed up with.
        </Text>
        <Button type="button" w="full" size="lg" variant="outline" onClick={onBack}>
          Back to log in
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        <FormField label="Email" required error={fieldError}>
          <Input
            ref={firstFieldRef}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={email}
            onChange={(event) => {
              onEmailChange(event.target.value);
              if (fieldError) setFieldError(undefined);
            }}
          />
        </FormField>
        {send.isError ? <FormAlert ref={resultRef}>{errorMessage(send.error)}</FormAlert> : null}
        <Button type="submit" w="full" size="lg" loading={send.isPending} loadingText="Loading...">
          Send reset link
        </Button>
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          Remembered it? <DialogLink onClick={onBack}>Back to log in</DialogLink>
        </Text>
      </Stack>
    </form>
  );
}
