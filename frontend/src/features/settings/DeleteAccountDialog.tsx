import { Alert, Button, Dialog, Field, Input, List, Portal, Stack, Text } from '@chakra-ui/react';
import { type AccountDeleteDto, deleteMyAccount } from '@fitting-room/api-client';
import { callApi, errorMessage } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { notify } from '../../components/toaster';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { useSessionStore } from '../auth/useAuth';

/** The word the API wants in `confirm` (typed by the API's contract, so the two cannot drift). */
export const DELETE_CONFIRMATION: AccountDeleteDto['confirm'] = 'DELETE';
export const ACCOUNT_DELETED = 'Your account and all its data have been deleted';

/**
 * DELETE /api/me ("Delete All My Data", docs/product.md). The server ends every session of the
 * account; this browser forgets its session and goes home, where a toast says it is done.
 */
function useDeleteAccount() {
  const store = useSessionStore();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      await callApi(deleteMyAccount({ body: { confirm: DELETE_CONFIRMATION } }));
    },
    onSuccess: () => {
      void navigate(paths.home, { replace: true });
      store.sessionEnded();
      notify.success({ title: ACCOUNT_DELETED });
    },
  });
}

/**
 * The confirm dialog of "Delete All My Data": what goes, that it cannot be undone, and a field in
 * which the person types DELETE before the button works.
 */
export function DeleteAccountDialog() {
  const dismissGuard = useOutsideDismissGuard();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteAccount();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmed = typed.trim() === DELETE_CONFIRMATION;

  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    setTyped('');
    remove.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed && !remove.isPending) remove.mutate();
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
          <Dialog.Content ref={dismissGuard.contentRef} asChild>
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
