import { createToaster } from '@chakra-ui/react';

/** Toasts stay long enough to be read at leisure ("toasts stay a long time"); each can be closed. */
export const TOAST_DURATION_MS = 15_000;

/**
 * The room the toast area takes at the bottom of the screen (a toast, its gap and the edge): controls
 * a person must reach while a toast is up (the running generation's Cancel) keep above it.
 */
export const TOAST_CLEARANCE = '9rem';

/** The app's one toast area (rendered by <AppToaster>): one toast at a time (docs/product.md). */
export const toaster = createToaster({
  max: 1,
  placement: 'bottom-end',
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
});

export interface ToastMessage {
  title: string;
  description?: string;
}

/** Shows a toast in place of the current one: a newer message never waits behind an older one. Answers its id. */
function show(type: 'success' | 'error' | 'info', { title, description }: ToastMessage): string {
  toaster.remove();
  return toaster.create({ type, title, description, closable: true });
}

/** The product's toasts: successes, destructive failures, and neutral notices. Each answers its id. */
export const notify = {
  success: (message: ToastMessage) => show('success', message),
  error: (message: ToastMessage) => show('error', message),
  info: (message: ToastMessage) => show('info', message),
  /** Takes a toast away once what it announced is over (nothing if another toast took its place). */
  dismiss: (id: string) => toaster.dismiss(id),
};
