import { Alert } from '@mui/material';
import { useListContext, useShowContext } from 'react-admin';
import type { ReactNode } from 'react';

/** docs/product.md: data load errors appear in a red alert banner. */
export function ErrorBanner({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Failed to load data';
  return (
    <Alert severity="error" variant="filled" role="alert" sx={{ my: 2 }}>
      {message}
    </Alert>
  );
}

/** A list's load error as the red banner (react-admin renders it in place of the list). */
export function ListErrorBanner() {
  const { error } = useListContext();
  return <ErrorBanner error={error} />;
}

/**
 * A show view's load error as the red banner. react-admin renders it in place of the page's content,
 * also when only a refresh failed (a refetch after an action, or on focus) while the record is still
 * at hand: then the page stays under the banner (`children`, the same content as the Show's), so a
 * passing network or server hiccup does not blank what the person is reading or acting on.
 */
export function ShowErrorBanner({ fallback, children }: { fallback?: string; children?: ReactNode }) {
  const { error, record } = useShowContext();
  return (
    <>
      <ErrorBanner error={error && fallback ? new Error(fallback) : error} />
      {record ? children : null}
    </>
  );
}

/** Successes (a credit change) in a green banner. */
export function SuccessBanner({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert severity="success" variant="filled" role="status" sx={{ my: 2 }}>
      {message}
    </Alert>
  );
}

/**
 * For a List's or Show's `queryOptions`: the load error is shown by the banner only (no toast, and
 * a Show stays where it is instead of going back to the list).
 */
export const BANNER_ONLY = { onError: () => undefined };
