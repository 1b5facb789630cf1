import { useEffect } from 'react';
import { APP_NAME } from '../config/app-config';

/** "Page · Product" for a page title, or the product name alone. */
export function formatDocumentTitle(pageTitle?: string): string {
  return pageTitle ? `${pageTitle} · ${APP_NAME}` : APP_NAME;
}

/** Sets the browser tab title while the calling page is shown. */
export function useDocumentTitle(pageTitle?: string): void {
  useEffect(() => {
    document.title = formatDocumentTitle(pageTitle);
  }, [pageTitle]);
}
