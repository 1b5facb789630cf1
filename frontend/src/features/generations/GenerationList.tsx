import { Button, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { isAbortError } from '@fitting-room/shared/browser';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageSpinner } from '../../components/PageSpinner';
import { notify } from '../../components/toaster';
import { useCatalog } from '../catalog/useCatalog';
import { LoadFailed } from '../dashboard/LoadFailed';
import { DeleteGenerationDialog } from './DeleteGenerationDialog';
import { downloadGeneration } from './download';
import { GenerationCard } from './GenerationCard';
import { generationsQueryOptions, useDeleteGeneration } from './generations-queries';
import { RESULT_PARAM, resultLink, resultNames } from './result-names';
import { ResultViewer } from './ResultViewer';
import type { Generation, GenerationCategory } from './generation-api';

export const GENERATION_MESSAGES = {
  loadFailed: 'Failed to load your generations',
  deleted: 'Generation deleted successfully',
  deleteFailed: 'Failed to delete generation',
  downloadStarted: 'Download started',
  downloadFailed: 'Failed to download',
  linkCopied: 'Link copied',
  linkCopiedDescription: 'It opens this result in the app, for you only, after signing in.',
  shareFailed: 'Could not share this result',
} as const;

interface GenerationListProps {
  /** A category id of the catalogue: only its generations. All of them when absent. */
  category?: GenerationCategory;
  /** What to show when there is none. */
  empty: ReactNode;
  /** Name of the list for assistive technology (the id of its heading). */
  labelledBy?: string;
}

/** Whether this history entry was pushed by opening the viewer (then closing it goes back). */
interface ViewerState {
  viewer?: boolean;
}

/**
 * Share (docs/product.md, "Results"): the system's share sheet where the browser has one (the Web
 * Share API), else the link copied. The link is the result's page in the app, which needs its
 * owner's sign-in: never a file's link.
 */
async function shareResult(generation: Generation, title: string): Promise<void> {
  const url = resultLink(generation.id);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
    } catch (error) {
      if (!isAbortError(error)) notify.error({ title: GENERATION_MESSAGES.shareFailed });
    }
    return;
  }
  try {
    await navigator.clipboard.writeText(url);
    notify.success({ title: GENERATION_MESSAGES.linkCopied, description: GENERATION_MESSAGES.linkCopiedDescription });
  } catch {
    notify.error({ title: GENERATION_MESSAGES.shareFailed, description: url });
  }
}

/**
 * A grid of the user's completed generations (docs/product.md, All Generations and the category
 * screens): spinner, cards titled by their outfit and pose (Download, the template's "Shop this
 * look" link when an admin set one, and Delete), the result viewer (`?result=<id>`: a result opens
 * full screen, and a shared link opens it), the confirm dialog, and more pages on request.
 */
export function GenerationList({ category, empty, labelledBy }: GenerationListProps) {
  const { data: catalog } = useCatalog();
  const query = useInfiniteQuery(generationsQueryOptions(category));
  const { data, isPending, isError, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = query;
  const remove = useDeleteGeneration();
  const [pendingDelete, setPendingDelete] = useState<Generation | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const viewing = searchParams.get(RESULT_PARAM);
  /** the card that opened the viewer: it gets the focus back */
  const [opener, setOpener] = useState<HTMLElement | null>(null);

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

  // The viewer lives in the address (`?result=<id>`): Back closes it, and a shared link opens it.
  const withResult = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(searchParams);
      if (id) next.set(RESULT_PARAM, id);
      else next.delete(RESULT_PARAM);
      return next;
    },
    [searchParams],
  );
  const openViewer = (generation: Generation, from: HTMLElement) => {
    setOpener(from);
    setSearchParams(withResult(generation.id), { preventScrollReset: true, state: { viewer: true } satisfies ViewerState });
  };
  const showInViewer = useCallback(
    (id: string) => setSearchParams(withResult(id), { replace: true, preventScrollReset: true, state: location.state as unknown }),
    [setSearchParams, withResult, location.state],
  );
  const closeViewer = () => {
    if ((location.state as ViewerState | null)?.viewer) void navigate(-1);
    else setSearchParams(withResult(null), { replace: true, preventScrollReset: true });
  };

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

  const items = data?.pages.flatMap((page) => page.items) ?? [];
  const total = data?.pages.at(-1)?.total ?? items.length;

  const confirmDelete = () => {
    if (!pendingDelete) return;
    const deleting = pendingDelete;
    // deleted from the viewer: it shows the next result (or the one before), or closes when none is left
    const at = items.findIndex((item) => item.id === deleting.id);
    const neighbour = at >= 0 ? (items[at + 1] ?? items[at - 1] ?? null) : null;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notify.success({ title: GENERATION_MESSAGES.deleted });
        if (viewing === deleting.id) {
          if (neighbour) showInViewer(neighbour.id);
          else closeViewer();
        }
      },
      onError: () => notify.error({ title: GENERATION_MESSAGES.deleteFailed }),
      onSettled: () => setPendingDelete(null),
    });
  };

  const dialogs = (
    <>
      <ResultViewer
        id={viewing}
        items={items}
        total={total}
        catalog={catalog}
        downloading={downloading !== null && downloading === viewing}
        hasMore={Boolean(hasNextPage)}
        onLoadMore={() => fetchNextPage()}
        onShow={showInViewer}
        onClose={closeViewer}
        returnFocus={opener}
        onDownload={(g) => void onDownload(g)}
        onShare={(g) => void shareResult(g, resultNames(g, catalog).title)}
        onDelete={setPendingDelete}
        onMediaError={onMediaError}
      />
      <DeleteGenerationDialog
        open={pendingDelete !== null}
        deleting={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setPendingDelete(null)}
      />
    </>
  );

  if (isPending)
    return (
      <>
        <PageSpinner label="Loading your generations" py="12" />
        {dialogs}
      </>
    );
  if (isError) return <LoadFailed message={GENERATION_MESSAGES.loadFailed} onRetry={() => void refetch()} />;

  if (items.length === 0) {
    return (
      <>
        {empty}
        {dialogs}
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
              names={resultNames(generation, catalog)}
              downloading={downloading === generation.id}
              onOpen={openViewer}
              onDownload={(g) => void onDownload(g)}
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
      {dialogs}
    </Stack>
  );
}
