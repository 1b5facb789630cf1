import { catalogQueryOptions } from '../features/catalog/useCatalog';
import type { CatalogResponseDto } from '@fitting-room/api-client';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The data a pre-rendered page was rendered with, in a JSON data block of the page (a script the
 * browser does not run, so the CSP allows it, like `#app-config`): the browser seeds its queries with
 * it, so that hydration renders what the server rendered and no request waits before the first paint.
 */
export interface PageData {
  /** GET /api/catalog as a signed-out visitor gets it */
  catalog: CatalogResponseDto;
}

export const PAGE_DATA_ID = 'page-data';

/** The data block for the head; `<` escaped so that no value can end the block. */
export function pageDataTag(data: PageData): string {
  return `<script id="${PAGE_DATA_ID}" type="application/json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

/** The page's data block, when the server pre-rendered the page (none on a page it did not, or a broken one). */
export function readPageData(): PageData | undefined {
  const block = typeof document === 'undefined' ? undefined : document.getElementById(PAGE_DATA_ID)?.textContent;
  if (!block) return undefined;
  try {
    return JSON.parse(block) as PageData;
  } catch {
    return undefined;
  }
}

/** Puts the data into the queries that read it (the catalogue of a signed-out visitor). */
export function seedQueries(queryClient: QueryClient, data: PageData): void {
  queryClient.setQueryData(catalogQueryOptions(null).queryKey, data.catalog);
}
