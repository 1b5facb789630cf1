import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { errorMessage } from '@fitting-room/shared/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormAlert } from '../../components/FormAlert';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { type FaceStatus, faceStatusQueryKey, facesApi } from './faces-api';

interface FaceConsentDialogProps {
  open: boolean;
  status: FaceStatus | undefined;
  onClose(agreed: boolean): void;
}

/**
 * The consent to the face checks ("Only you", docs/privacy.md), asked before the first photo is
 * checked: the sentence of the API (its version recorded with the time), "I agree" or "Not now".
 */
export function FaceConsentDialog({ open, status, onClose }: FaceConsentDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const agree = async () => {
    if (!status) return;
    setSaving(true);
    setError(null);
    try {
      const next = await facesApi.consent(status.consent_version);
      queryClient.setQueryData(faceStatusQueryKey, next);
      onClose(true);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog.Root
      onInteractOutside={dismissGuard.onInteractOutside}
      open={open}
      onOpenChange={(details) => {
        if (!details.open && !saving) onClose(false);
      }}
      placement="center"
      size="md"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef} data-face-consent="">
            <Dialog.Header>
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                Only you: a face check
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text color="fg.muted">
                  Before your photos are used, we check that each shows one face, that they are all of you, and that every result still
                  looks like you. Nobody can dress you in a look you didn’t ask for.
                </Text>
                <Dialog.Description fontWeight="medium">{status?.consent_text}</Dialog.Description>
                {error ? <FormAlert>{error}</FormAlert> : null}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => onClose(false)} disabled={saving}>
                Not now
              </Button>
              <Button onClick={() => void agree()} loading={saving} loadingText="Saving..." disabled={!status}>
                I agree
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
