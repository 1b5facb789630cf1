import { useEffect } from 'react';
import { APP_NAME } from '../config/app-config';

/** "Page · Product" for a page title, or the product name alone. */
export function formatDocumentTitle(pageTitle?: string): string {
  return pageTitle ? `${pageTitle} · ${APP_NAME}` : APP_NAME;
}

/** The title the server's pre-render asked for (entry-server.tsx puts it in the page's `<title>`). */
export const renderedTitle: { current?: string } = {};

/** Sets the browser tab title while the calling page is shown. */
export function useDocumentTitle(pageTitle?: string): void {
  // on the server (no effects there): noted for the page's <title>, the last asked for wins
  if (typeof document === 'undefined') renderedTitle.current = formatDocumentTitle(pageTitle);
  useEffect(() => {
    document.title = formatDocumentTitle(pageTitle);
  }, [pageTitle]);
}
