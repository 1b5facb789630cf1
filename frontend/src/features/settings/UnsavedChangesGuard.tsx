import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * While `dirty`: leaving the page inside the app (a link, Back) stops at a dialog, Stay on this
 * page or Leave without saving; closing the tab or reloading gets the browser's own warning.
 */
export function UnsavedChangesGuard({ dirty, what }: { dirty: boolean; what: string }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  const stayRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older browsers show the warning only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Saved (or changed back) while the dialog waits: nothing is lost, so let the person go.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  const open = blocker.state === 'blocked';
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(details) => {
        if (!details.open && blocker.state === 'blocked') blocker.reset();
      }}
      initialFocusEl={() => stayRef.current}
      placement="center"
      size="sm"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                Leave without saving?
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description color="fg.muted">
                You changed {what} and have not saved. If you leave now, the changes are lost.
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <Button ref={stayRef} variant="outline" onClick={() => blocker.state === 'blocked' && blocker.reset()}>
                Stay on this page
              </Button>
              <Button colorPalette="red" onClick={() => blocker.state === 'blocked' && blocker.proceed()}>
                Leave without saving
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
