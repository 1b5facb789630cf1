import { Button, Stack } from '@chakra-ui/react';
import { resetPassword } from '@fitting-room/api-client';
import { ApiError, errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { PasswordInput } from '../../components/PasswordInput';
import { PASSWORD_HINT, PASSWORDS_DIFFER } from '../auth/password-rules';
import { useSessionStore } from '../auth/useAuth';
import { LinkPage } from './LinkPage';

/**
 * /reset-password?token= (the link of the "Forgot password?" mail): a new password, typed twice.
 * The server's policy messages are shown as they are; success ends every session of the account,
 * and Log in opens the dialog for the new password.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const store = useSessionStore();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  const reset = useMutation({
    mutationFn: () => unwrap(resetPassword({ body: { token, password } })),
    onSuccess: () => {
      // Every session of the account ended: if this browser had one, it learns so now.
      if (store.getSnapshot().status === 'signed-in') void store.refresh();
    },
    onSettled: () => focusSoon(resultRef),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reset.isPending) return;
    const found = {
      password: password ? undefined : 'Password is required',
      confirm: !confirm ? 'Please type the new password again' : confirm !== password ? PASSWORDS_DIFFER : undefined,
    };
    setErrors(found);
    if (found.password) return passwordRef.current?.focus();
    if (found.confirm) return confirmRef.current?.focus();
    reset.mutate();
  };

  if (reset.isSuccess) {
    return (
      <LinkPage title="Choose a new password">
        <FormAlert ref={resultRef} status="success">
          {reset.data.message}
        </FormAlert>
        <Button asChild alignSelf="flex-start">
          <RouterLink to={paths.logIn}>Log in</RouterLink>
        </Button>
      </LinkPage>
    );
  }

  const linkDead = reset.error instanceof ApiError && reset.error.code === 'INVALID_LINK';
  return (
    <LinkPage title="Choose a new password">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField label="New password" required error={errors.password} helperText={PASSWORD_HINT}>
            <PasswordInput
              ref={passwordRef}
              name="new_password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                if (errors.password) setErrors((e) => ({ ...e, password: undefined }));
              }}
            />
          </FormField>
          <FormField label="Confirm new password" required error={errors.confirm}>
            <PasswordInput
              ref={confirmRef}
              name="confirm_password"
              autoComplete="new-password"
              value={confirm}
              onChange={(event) => {
                setConfirm(event.target.value);
                if (errors.confirm) setErrors((e) => ({ ...e, confirm: undefined }));
              }}
            />
          </FormField>
          {reset.isError ? <FormAlert ref={resultRef}>{errorMessage(reset.error)}</FormAlert> : null}
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
            <Button type="submit" loading={reset.isPending} loadingText="Loading...">
              Set new password
            </Button>
            {linkDead ? (
              <Button asChild variant="outline">
                <RouterLink to={paths.forgotPassword}>Ask for a new link</RouterLink>
              </Button>
            ) : null}
          </Stack>
        </Stack>
      </form>
    </LinkPage>
  );
}
