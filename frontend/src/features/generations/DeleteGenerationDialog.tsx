import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useRef } from 'react';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';

interface DeleteGenerationDialogProps {
  open: boolean;
  deleting: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** The product's confirm dialog before a generation is deleted. Cancel has the focus: deleting is final. */
export function DeleteGenerationDialog({ open, deleting, onConfirm, onClose }: DeleteGenerationDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      onInteractOutside={dismissGuard.onInteractOutside}
      role="alertdialog"
      open={open}
      onOpenChange={(details) => {
        if (!details.open && !deleting) onClose();
      }}
      initialFocusEl={() => cancelRef.current}
      placement="center"
      size="sm"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef}>
            <Dialog.Header>
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                Delete Generation
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description color="fg.muted">
                Are you sure you want to delete this generation? This action cannot be undone.
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button ref={cancelRef} variant="outline" onClick={onClose} disabled={deleting}>
                Cancel
              </Button>
              <Button colorPalette="red" onClick={onConfirm} loading={deleting} loadingText="Deleting...">
                Delete
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
