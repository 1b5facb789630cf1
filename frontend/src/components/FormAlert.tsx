import { Alert } from '@chakra-ui/react';
import type { ReactNode, Ref } from 'react';

export interface FormAlertProps {
  /** error: a failure, read out at once (role="alert"), in red; success and info: a calm answer (role="status"). */
  status?: 'error' | 'success' | 'info';
  children: ReactNode;
  /** Focusable (tabIndex -1): a form moves the focus here when its button was disabled under it. */
  ref?: Ref<HTMLDivElement>;
}

/** A form's outcome inside the form: the server's message as it is, a failure in red. */
export function FormAlert({ status = 'error', children, ref }: FormAlertProps) {
  const error = status === 'error';
  return (
    <Alert.Root
      ref={ref}
      status={status}
      role={error ? 'alert' : 'status'}
      tabIndex={-1}
      _focusVisible={{ outline: '2px solid', outlineColor: error ? 'border.error' : 'colorPalette.solid' }}
    >
      <Alert.Indicator />
      {/* the alert's own colour (colorPalette.fg): red for a failure, with AA contrast on its background */}
      <Alert.Title fontWeight="medium">{children}</Alert.Title>
    </Alert.Root>
  );
}

/**
 * Moves the focus to an element once the browser has laid out what was just rendered. The state
 * that renders it may commit a few frames later on a busy device: wait for it (about a second).
 */
export function focusSoon(ref: { current: HTMLElement | null }, framesLeft = 60): void {
  requestAnimationFrame(() => {
    if (ref.current) ref.current.focus();
    else if (framesLeft > 0) focusSoon(ref, framesLeft - 1);
  });
}
