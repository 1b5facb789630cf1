import { Button, CloseButton, Dialog, Input, Portal, Stack } from '@chakra-ui/react';
import { renewMyRecoveryCodes } from '@fitting-room/api-client';
import { errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { FormAlert, focusSoon } from '../../components/FormAlert';
import { FormField } from '../../components/FormField';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { recoveryCodesQueryKey } from './security-queries';
import { RecoveryCodesStep } from './TwoFactorSetupDialog';
import type { SettingsDialogProps } from './ChangePasswordDialog';

/**
 * "Renew recovery codes": a code of the authenticator app (a recovery code cannot renew the set),
 * then the ten new codes, shown this once; the old ones stop working.
 */
export default function RecoveryCodesRenewDialog({ open, onClose, returnFocusTo }: SettingsDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const renew = useMutation({
    mutationFn: (typed: string) => unwrap(renewMyRecoveryCodes({ body: { code: typed } })),
    onSuccess: (answer) => {
      setCodes(answer.recovery_codes);
      void queryClient.invalidateQueries({ queryKey: recoveryCodesQueryKey });
    },
    onError: () => {
      setCode('');
      focusSoon(errorRef);
    },
  });

  /** The new codes stay on screen until the person says they saved them (`saved`). */
  function close(saved = false) {
    if (renew.isPending || (codes && !saved)) return;
    setCode('');
    setCodes(null);
    setFieldError(undefined);
    renew.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (renew.isPending) return;
    const typed = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setFieldError('Please enter the 6-digit code from your authenticator app');
      codeRef.current?.focus();
      return;
    }
    renew.mutate(typed);
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
      size="md"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef}>
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1" pe="14">
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                {codes ? 'Save your new recovery codes' : 'Renew your recovery codes?'}
              </Dialog.Title>
              {codes ? null : (
                <Dialog.Description color="fg.muted">
                  You get ten new codes, shown once. Your current recovery codes, used or not, stop working.
                </Dialog.Description>
              )}
            </Dialog.Header>
            <Dialog.Body pb="6">
              {codes ? (
                <RecoveryCodesStep codes={codes} onDone={() => close(true)} renewed />
              ) : (
                <form onSubmit={submit} noValidate>
                  <Stack gap="4">
                    <FormField label="Code from your authenticator app" required error={fieldError}>
                      <Input
                        ref={codeRef}
                        name="code"
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        fontFamily="mono"
                        value={code}
                        onChange={(event) => {
                          setCode(event.target.value);
                          if (fieldError) setFieldError(undefined);
                        }}
                      />
                    </FormField>
                    {renew.isError ? <FormAlert ref={errorRef}>{errorMessage(renew.error)}</FormAlert> : null}
                    <Stack direction="row" justify="flex-end" gap="3">
                      <Button variant="outline" onClick={() => close()} disabled={renew.isPending}>
                        Cancel
                      </Button>
                      <Button type="submit" loading={renew.isPending} loadingText="Loading...">
                        Renew codes
                      </Button>
                    </Stack>
                  </Stack>
                </form>
              )}
            </Dialog.Body>
            {codes ? null : (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
