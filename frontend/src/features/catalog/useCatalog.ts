import { type CatalogResponseDto, getCatalog } from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../auth/useAuth';

/** Every catalogue query starts with this key: invalidate it to refetch the catalogue. */
export const catalogQueryKey = ['catalog'] as const;

/**
 * GET /api/catalog: the UI's single source of categories, templates, scenes, costs, tiers and
 * plans. Its `locked` flags are computed for the caller, so the answer is kept per viewer
 * (anonymous, or the signed-in user's id): a sign-in never shows the visitor's locks.
 */
export const catalogQueryOptions = (viewer: string | null) =>
  queryOptions({
    queryKey: [...catalogQueryKey, viewer ?? 'anonymous'] as const,
    queryFn: ({ signal }) => unwrap(getCatalog({ signal })),
    // Admins edit it in the console: a page opened or refocused after half a minute reads it again.
    staleTime: 30_000,
  });

/** The catalogue for whoever is signed in (or an anonymous visitor). */
export function useCatalog() {
  const { user } = useAuth();
  return useQuery(catalogQueryOptions(user?.id ?? null));
}

/**
 * Keeps the catalogue's `locked` flags in step with the user's tier: when the profile reports a
 * tier other than the one the catalogue was computed for (an upgrade, an admin's change), the
 * catalogue is fetched again.
 */
export function useCatalogTierSync(catalog: CatalogResponseDto | undefined, tier: string | undefined): void {
  const queryClient = useQueryClient();
  const viewerTier = catalog?.viewer.tier;
  useEffect(() => {
    if (viewerTier && tier && viewerTier !== tier) void queryClient.invalidateQueries({ queryKey: catalogQueryKey });
  }, [queryClient, viewerTier, tier]);
}
