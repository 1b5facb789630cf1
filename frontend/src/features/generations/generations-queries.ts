import { ApiError } from '@fitting-room/shared/browser';
import { type InfiniteData, infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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

/**
 * DELETE /api/generations/:id. Once the API has said yes, the deleted one leaves every list held
 * here at once (its card would otherwise still ask for its file, gone: a 404), then every list is
 * fetched again, but not the deleted one itself (the viewer may still show it for a moment: reading
 * it again would only answer 404). The refetch is not waited for, so the caller's own callbacks
 * (the viewer moving on to the next result, chosen before the click) run first.
 */
export function useDeleteGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => generationApi.remove(id),
    onSuccess: (_data, id) => {
      queryClient.setQueriesData<InfiniteData<GenerationPage>>(
        { queryKey: generationsQueryKey, predicate: (query) => query.queryKey[1] !== 'detail' },
        (data) => (data ? withoutGeneration(data, id) : data),
      );
    },
    onSettled: (_data, _error, id) => {
      void queryClient.invalidateQueries({
        queryKey: generationsQueryKey,
        predicate: (query) => !(query.queryKey[1] === 'detail' && query.queryKey[2] === id),
      });
    },
  });
}

/** A list's pages without one generation, their total one less when it was there. */
export function withoutGeneration(data: InfiniteData<GenerationPage>, id: string): InfiniteData<GenerationPage> {
  if (!data.pages.some((page) => page.items.some((item) => item.id === id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id), total: Math.max(0, page.total - 1) })),
  };
}

/**
 * One of the user's generations (GET /api/generations/:id): for the result viewer, with the signed
 * link to the person's photo it was made from (`source_photo_url`, while that photo is kept), which
 * the lists leave out. Its links expire too: read again after a minute.
 */
export const generationDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...generationsQueryKey, 'detail', id] as const,
    queryFn: ({ signal }) => generationApi.get(id, signal),
    staleTime: 60_000,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
