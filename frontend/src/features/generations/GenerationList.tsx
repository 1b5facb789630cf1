import { Button, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { PageSpinner } from '../../components/PageSpinner';
import { notify } from '../../components/toaster';
import { categoryLabel } from '../catalog/catalog-helpers';
import { useCatalog } from '../catalog/useCatalog';
import { LoadFailed } from '../dashboard/LoadFailed';
import { DeleteGenerationDialog } from './DeleteGenerationDialog';
import { downloadGeneration } from './download';
import { GenerationCard } from './GenerationCard';
import { generationsQueryOptions, useDeleteGeneration } from './generations-queries';
import type { Generation, GenerationCategory } from './generation-api';

export const GENERATION_MESSAGES = {
  loadFailed: 'Failed to load your generations',
  deleted: 'Generation deleted successfully',
  deleteFailed: 'Failed to delete generation',
  downloadStarted: 'Download started',
  downloadFailed: 'Failed to download',
  searchTitle: 'Coming Soon',
  searchDescription: 'Product search feature will be available soon!',
} as const;

interface GenerationListProps {
  /** A category id of the catalogue: only its generations. All of them when absent. */
  category?: GenerationCategory;
  /** What to show when there is none. */
  empty: ReactNode;
  /** Name of the list for assistive technology (the id of its heading). */
  labelledBy?: string;
}

/**
 * A grid of the user's completed generations (docs/product.md, All Generations and the category
 * screens): spinner, cards with Download, Search (the template's "Shop this look" link when an admin set one,
 * else the "Coming Soon" toast) and Delete, the confirm dialog, and more pages on
 * request.
 */
export function GenerationList({ category, empty, labelledBy }: GenerationListProps) {
  const { data: catalog } = useCatalog();
  const query = useInfiniteQuery(generationsQueryOptions(category));
  const { data, isPending, isError, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = query;
  const remove = useDeleteGeneration();
  const [pendingDelete, setPendingDelete] = useState<Generation | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);

  useEffect(() => {
    if (isError) notify.error({ title: GENERATION_MESSAGES.loadFailed });
  }, [isError]);

  // A result's signed URL may have expired: fetch the list again, at most once a minute.
  const lastMediaRefetch = useRef(0);
  const onMediaError = useCallback(() => {
    if (Date.now() - lastMediaRefetch.current < 60_000) return;
    lastMediaRefetch.current = Date.now();
    void refetch();
  }, [refetch]);

  const onDownload = async (generation: Generation) => {
    setDownloading(generation.id);
    try {
      await downloadGeneration(generation);
      notify.success({ title: GENERATION_MESSAGES.downloadStarted });
    } catch {
      notify.error({ title: GENERATION_MESSAGES.downloadFailed });
    } finally {
      setDownloading(null);
    }
  };

  const onSearch = () => notify.info({ title: GENERATION_MESSAGES.searchTitle, description: GENERATION_MESSAGES.searchDescription });

  const confirmDelete = () => {
    if (!pendingDelete) return;
    remove.mutate(pendingDelete.id, {
      onSuccess: () => notify.success({ title: GENERATION_MESSAGES.deleted }),
      onError: () => notify.error({ title: GENERATION_MESSAGES.deleteFailed }),
      onSettled: () => setPendingDelete(null),
    });
  };

  const dialog = (
    <DeleteGenerationDialog
      open={pendingDelete !== null}
      deleting={remove.isPending}
      onConfirm={confirmDelete}
      onClose={() => setPendingDelete(null)}
    />
  );

  if (isPending) return <PageSpinner label="Loading your generations" py="12" />;
  if (isError) return <LoadFailed message={GENERATION_MESSAGES.loadFailed} onRetry={() => void refetch()} />;

  const items = data.pages.flatMap((page) => page.items);
  const total = data.pages.at(-1)?.total ?? items.length;
  if (items.length === 0) {
    return (
      <>
        {empty}
        {dialog}
      </>
    );
  }

  return (
    <Stack gap="6">
      <SimpleGrid as="ul" listStyle="none" columns={{ base: 2, md: 3, xl: 4 }} gap={{ base: '3', md: '4' }} aria-labelledby={labelledBy}>
        {items.map((generation) => (
          <li key={generation.id}>
            <GenerationCard
              generation={generation}
              categoryLabel={categoryLabel(catalog, generation.category)}
              downloading={downloading === generation.id}
              onDownload={(g) => void onDownload(g)}
              onSearch={onSearch}
              shopUrl={catalog?.templates.find((t) => t.id === generation.metadata.outfit_id)?.shopUrl}
              onDelete={setPendingDelete}
              onMediaError={onMediaError}
            />
          </li>
        ))}
      </SimpleGrid>
      {hasNextPage ? (
        <Stack align="center" gap="2">
          <Button variant="outline" onClick={() => void fetchNextPage()} loading={isFetchingNextPage} loadingText="Loading...">
            Load more
          </Button>
          <Text fontSize="sm" color="fg.muted">
            Showing {items.length} of {total}
          </Text>
        </Stack>
      ) : null}
      {dialog}
    </Stack>
  );
}
