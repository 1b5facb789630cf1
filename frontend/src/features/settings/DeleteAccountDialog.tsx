import { Alert, Button, Dialog, Field, Input, List, Portal, Stack, Text } from '@chakra-ui/react';
import { type AccountDeleteDto, deleteMyAccount } from '@fitting-room/api-client';
import { callApi, errorMessage } from '@fitting-room/shared/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiPaths, paths } from '../../app/paths';
import { notify } from '../../components/toaster';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { useAuth, useSessionStore } from '../auth/useAuth';
import { meQueryOptions } from '../profile/profile-queries';

/** The word the API wants in `confirm` (typed by the API's contract, so the two cannot drift). */
export const DELETE_CONFIRMATION: AccountDeleteDto['confirm'] = 'DELETE';
export const ACCOUNT_DELETED = 'Your account and all its data have been deleted';

/** What proves again who the person is (docs/accounts.md "Deleting an account"). */
type Proof = { password: string } | { code: string } | Record<string, never>;

/**
 * DELETE /api/me ("Delete All My Data", docs/product.md), with the password, a two-factor code or
 * (Google only) nothing but a fresh Google sign-in. The server ends every session of the account;
 * this browser forgets its session and goes home, where a toast says it is done.
 */
function useDeleteAccount() {
  const store = useSessionStore();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (proof: Proof) => {
      await callApi(deleteMyAccount({ body: { confirm: DELETE_CONFIRMATION, ...proof } }));
    },
    onSuccess: () => {
      void navigate(paths.home, { replace: true });
      store.sessionEnded();
      notify.success({ title: ACCOUNT_DELETED });
    },
  });
}

/**
 * The confirm dialog of "Delete All My Data": what goes, that it cannot be undone, a field in which
 * the person types DELETE, and what proves it is them: their password, or with two-factor on a code
 * of the app (or a recovery code); an account that signs in with Google only signs in with Google
 * again first (the API accepts a Google sign-in of the last few minutes).
 */
export function DeleteAccountDialog() {
  const dismissGuard = useOutsideDismissGuard();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [secret, setSecret] = useState('');
  const remove = useDeleteAccount();
  const { user } = useAuth();
  const { data: me } = useQuery(meQueryOptions);
  const profile = me ?? user;
  const asks: 'code' | 'password' | 'google' = profile?.two_factor_enabled
    ? 'code'
    : profile?.has_password === false
      ? 'google'
      : 'password';
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmed = typed.trim() === DELETE_CONFIRMATION && (asks === 'google' || secret.trim() !== '');

  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    setTyped('');
    setSecret('');
    remove.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed || remove.isPending) return;
    // a code of the app may be typed "123 456"; a recovery code keeps its dash
    const code = secret.trim();
    const proof: Proof =
      asks === 'code'
        ? { code: /^[\d\s]+$/.test(code) ? code.replace(/\s+/g, '') : code }
        : asks === 'password'
          ? { password: secret }
          : {};
    remove.mutate(proof);
  };

  return (
    <Dialog.Root
      onInteractOutside={dismissGuard.onInteractOutside}
      role="alertdialog"
      open={open}
      onOpenChange={(details) => (details.open ? setOpen(true) : close())}
      initialFocusEl={() => cancelRef.current}
      placement="center"
      size="md"
      lazyMount
      unmountOnExit
    >
      <Dialog.Trigger asChild>
        <Button variant="outline" colorPalette="red">
          Delete All My Data
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          {/* the form inside the dialog, not the dialog itself (a form may not take the alertdialog role) */}
          <Dialog.Content ref={dismissGuard.contentRef}>
            <form onSubmit={submit}>
              <Dialog.Header>
                <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                  Delete all your data?
                </Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Dialog.Description color="fg.muted">
                    This deletes your account at once, with everything in it. This action cannot be undone.
                  </Dialog.Description>
                  <List.Root ps="5" gap="1" fontSize="sm" color="fg.muted">
                    <List.Item>your uploaded photos and every generated image and video</List.Item>
                    <List.Item>your profile, settings, activity and remaining credits</List.Item>
                    <List.Item>your sessions: you are signed out everywhere</List.Item>
                  </List.Root>
                  <Field.Root required>
                    <Field.Label>
                      <Text as="span">
                        Type <strong>{DELETE_CONFIRMATION}</strong> to confirm
                      </Text>
                    </Field.Label>
                    <Input
                      name="confirm"
                      autoComplete="off"
                      autoCapitalize="characters"
                      spellCheck={false}
                      value={typed}
                      onChange={(event) => setTyped(event.target.value)}
                    />
                  </Field.Root>
                  {asks === 'google' ? (
                    <Text fontSize="sm" color="fg.muted">
                      You sign in with Google: for your safety, deleting needs a Google sign-in from the last 5 minutes.{' '}
                      <a href={apiPaths.googleSignIn}>Sign in with Google again</a>, then come back to Settings.
                    </Text>
                  ) : (
                    <Field.Root required>
                      <Field.Label>
                        {asks === 'code' ? 'Code from your authenticator app, or a recovery code' : 'Your password'}
                      </Field.Label>
                      <Input
                        name={asks === 'code' ? 'code' : 'password'}
                        type={asks === 'password' ? 'password' : 'text'}
                        autoComplete={asks === 'password' ? 'current-password' : 'one-time-code'}
                        autoCapitalize="none"
                        spellCheck={false}
                        value={secret}
                        onChange={(event) => setSecret(event.target.value)}
                      />
                    </Field.Root>
                  )}
                  {remove.isError ? (
                    <Alert.Root status="error">
                      <Alert.Indicator />
                      <Alert.Title>{errorMessage(remove.error)}</Alert.Title>
                    </Alert.Root>
                  ) : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button ref={cancelRef} variant="outline" onClick={close} disabled={remove.isPending}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="red" disabled={!confirmed} loading={remove.isPending} loadingText="Deleting...">
                  Delete everything
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
