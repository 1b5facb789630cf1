import { Button, CloseButton, Dialog, Input, Portal, Stack } from '@chakra-ui/react';
import { disableMyTwoFactor } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { notify } from '../../components/toaster';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { useSecurityChanged } from './security-queries';
import type { SettingsDialogProps } from './ChangePasswordDialog';

/** Turning two-factor off proves the second factor once more: a code of the app, or a recovery code. */
export default function TwoFactorDisableDialog({ open, onClose, returnFocusTo }: SettingsDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const securityChanged = useSecurityChanged();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const codeRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const disable = useMutation({
    mutationFn: (typed: string) => unwrap(disableMyTwoFactor({ body: { code: typed } })),
    onSuccess: (answer) => {
      securityChanged({ two_factor_enabled: false });
      notify.success({ title: answer.message });
      close(true);
    },
    onError: () => {
      setCode('');
      focusSoon(errorRef);
    },
  });

  function close(force = false) {
    if (disable.isPending && !force) return;
    setCode('');
    setFieldError(undefined);
    disable.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (disable.isPending) return;
    const typed = code.trim();
    if (!typed) {
      setFieldError('Please enter the 6-digit code or a recovery code');
      codeRef.current?.focus();
      return;
    }
    // a code of the app may be typed "123 456"; a recovery code keeps its dash
    disable.mutate(/^[\d\s]+$/.test(typed) ? typed.replace(/\s+/g, '') : typed);
  };

  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(details) => (details.open ? undefined : close())}
      onInteractOutside={dismissGuard.onInteractOutside}
      initialFocusEl={() => codeRef.current}
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
                  Turn off two-factor authentication?
                </Dialog.Title>
                <Dialog.Description color="fg.muted">
                  Signing in will ask for your password only. Your recovery codes stop working.
                </Dialog.Description>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <FormField label="Code from your app, or a recovery code" required error={fieldError}>
                    <Input
                      ref={codeRef}
                      name="code"
                      autoComplete="one-time-code"
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
                  {disable.isError ? <FormAlert ref={errorRef}>{errorMessage(disable.error)}</FormAlert> : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => close()} disabled={disable.isPending}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="red" loading={disable.isPending} loadingText="Loading...">
                  Turn off
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
