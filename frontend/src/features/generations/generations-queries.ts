import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { generationApi, type GenerationCategory, type GenerationPage } from './generation-api';

/** Every list of generations starts with this key: invalidate it after a change. */
export const generationsQueryKey = ['generations'] as const;

export const GENERATIONS_PAGE_SIZE = 12;

/**
 * The signed-in user's completed generations, newest first, page by page (GET /api/generations);
 * all of them, or one category's.
 */
export const generationsQueryOptions = (category?: GenerationCategory) =>
  infiniteQueryOptions({
    queryKey: [...generationsQueryKey, { category: category ?? null }] as const,
    queryFn: ({ pageParam, signal }) =>
      generationApi.list({ ...(category ? { category } : {}), page: pageParam, page_size: GENERATIONS_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: GenerationPage, pages: GenerationPage[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? pages.length + 1 : undefined;
    },
    // Result URLs are signed and expire (15 minutes by default): fetch fresh ones well before.
    staleTime: 60_000,
    refetchInterval: 10 * 60_000,
  });

/** DELETE /api/generations/:id; every list is fetched again afterwards. */
export function useDeleteGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => generationApi.remove(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: generationsQueryKey }),
  });
}
