import { Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import { changeMyPassword } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { PasswordInput } from '../../components/PasswordInput';
import { notify } from '../../components/toaster';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { PASSWORD_HINT, PASSWORDS_DIFFER } from '../auth/password-rules';

type Field = 'current' | 'next' | 'confirm';

export interface SettingsDialogProps {
  open: boolean;
  onClose(): void;
  /** Where the focus goes back to when the dialog closes (the button that opened it). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/**
 * Change Password (POST /api/me/password): the current password, the new one twice. The server's
 * messages are shown as they are; on success this device stays signed in and the others end.
 */
export default function ChangePasswordDialog({ open, onClose, returnFocusTo }: SettingsDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const refs: Record<Field, RefObject<HTMLInputElement | null>> = { current: useRef(null), next: useRef(null), confirm: useRef(null) };
  const errorRef = useRef<HTMLDivElement>(null);

  const change = useMutation({
    mutationFn: () => unwrap(changeMyPassword({ body: { current_password: values.current, new_password: values.next } })),
    onSuccess: (answer) => {
      notify.success({ title: answer.message });
      close(true);
    },
    onError: () => focusSoon(errorRef),
  });

  function close(force = false) {
    if (change.isPending && !force) return;
    setValues({ current: '', next: '', confirm: '' });
    setErrors({});
    change.reset();
    onClose();
  }

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const found: Partial<Record<Field, string>> = {
      current: values.current ? undefined : 'Your current password is required',
      next: values.next ? undefined : 'A new password is required',
      confirm: !values.confirm ? 'Please type the new password again' : values.confirm !== values.next ? PASSWORDS_DIFFER : undefined,
    };
    setErrors(found);
    const first = (['current', 'next', 'confirm'] as const).find((field) => found[field]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    change.mutate();
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => (details.open ? undefined : close())}
      onInteractOutside={dismissGuard.onInteractOutside}
      initialFocusEl={() => refs.current.current}
      finalFocusEl={() => returnFocusTo.current}
      placement="center"
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef}>
            <form onSubmit={submit} noValidate>
              <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1" pe="14">
                <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                  Change password
                </Dialog.Title>
                <Dialog.Description color="fg.muted">Your other devices will be signed out; this one stays signed in.</Dialog.Description>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <FormField label="Current password" required error={errors.current}>
                    <PasswordInput
                      ref={refs.current}
                      name="current_password"
                      autoComplete="current-password"
                      value={values.current}
                      onChange={(e) => set('current', e.target.value)}
                    />
                  </FormField>
                  <FormField label="New password" required error={errors.next} helperText={PASSWORD_HINT}>
                    <PasswordInput
                      ref={refs.next}
                      name="new_password"
                      autoComplete="new-password"
                      value={values.next}
                      onChange={(e) => set('next', e.target.value)}
                    />
                  </FormField>
                  <FormField label="Confirm new password" required error={errors.confirm}>
                    <PasswordInput
                      ref={refs.confirm}
                      name="confirm_password"
                      autoComplete="new-password"
                      value={values.confirm}
                      onChange={(e) => set('confirm', e.target.value)}
                    />
                  </FormField>
                  {change.isError ? <FormAlert ref={errorRef}>{errorMessage(change.error)}</FormAlert> : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => close()} disabled={change.isPending}>
                  Cancel
                </Button>
                <Button type="submit" loading={change.isPending} loadingText="Loading...">
                  Change password
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
