import {
  Box,
  Button,
  Center,
  chakra,
  CloseButton,
  Dialog,
  Flex,
  HStack,
  IconButton,
  Portal,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { BagIcon, ChevronLeftIcon, ChevronRightIcon, DownloadIcon, FlagIcon, ShareIcon, TrashIcon } from '../../components/icons';
import { PageSpinner } from '../../components/PageSpinner';
import { BeforeAfterSlider } from './BeforeAfterSlider';
import { generationDetailQueryOptions } from './generations-queries';
import { resultNames } from './result-names';
import type { Catalog } from '../catalog/catalog-helpers';
import type { Generation } from './generation-api';

/** The viewer's own words. */
export const VIEWER_TEXT = {
  previous: 'Previous result',
  next: 'Next result',
  close: 'Close',
  download: 'Download',
  share: 'Share',
  report: 'Report a problem',
  delete: 'Delete',
  shop: 'Shop this look',
  gone: 'This result is no longer available.',
  beforeLegend: 'Your photo',
  afterLegend: 'Result',
  compareHint: 'Drag the divider, or use the arrow keys on it, to compare.',
} as const;

/** A horizontal move this long (px), clearly more sideways than up or down, is a swipe to the next or previous result. */
const SWIPE_PX = 60;

interface ResultViewerProps {
  /** the results loaded in the list, in its order */
  items: readonly Generation[];
  /** how many there are in all (the list may not have loaded every page) */
  total: number;
  /** the result shown; null: the viewer is closed */
  id: string | null;
  /** what gets the focus back when the viewer closes: the control that opened it */
  returnFocus?: HTMLElement | null | undefined;
  catalog: Catalog | undefined;
  downloading: boolean;
  /** more results after the last one loaded: "next" at the end loads them */
  hasMore: boolean;
  onLoadMore(): Promise<unknown>;
  onShow(id: string): void;
  onClose(): void;
  onDownload(generation: Generation): void;
  onShare(generation: Generation): void;
  onDelete(generation: Generation): void;
  /** the result's signed link failed to load (expired): read fresh links */
  onMediaError(): void;
}

/** The result's picture or video, filling the stage at its own shape; with the person's photo, before and after. */
function ResultStage({
  generation,
  sourcePhotoUrl,
  label,
  onMediaError,
}: {
  generation: Generation;
  sourcePhotoUrl: string | null;
  label: string;
  onMediaError(): void;
}) {
  // links that failed: the photo (deleted, expired) is then left out; the result is read again
  const [failed, setFailed] = useState<string[]>([]);
  const fail = (url: string) => setFailed((list) => [...list, url]);
  const url = generation.url && !failed.includes(generation.url) ? generation.url : null;
  const before = sourcePhotoUrl && !failed.includes(sourcePhotoUrl) ? sourcePhotoUrl : null;

  if (!url) {
    return (
      <Center h="full" color="fg.muted" fontSize="sm" role="img" aria-label={`${label} (not available)`}>
        Preview not available right now
      </Center>
    );
  }
  if (generation.type === 'video') {
    return (
      <chakra.video
        key={url}
        src={url}
        controls
        autoPlay
        muted
        loop
        playsInline
        aria-label={label}
        w="full"
        h="full"
        objectFit="contain"
        onError={() => {
          fail(url);
          onMediaError();
        }}
      />
    );
  }
  if (before) {
    return (
      <BeforeAfterSlider
        key={`${url} ${before}`}
        before={before}
        after={url}
        beforeAlt="Your photo"
        afterAlt={label}
        onBeforeError={() => fail(before)}
        onAfterError={() => {
          fail(url);
          onMediaError();
        }}
      />
    );
  }
  return (
    <chakra.img
      key={url}
      src={url}
      alt={label}
      w="full"
      h="full"
      objectFit="contain"
      draggable={false}
      onError={() => {
        fail(url);
        onMediaError();
      }}
    />
  );
}

/**
 * The result viewer (docs/product.md, "Results"): one result at full screen on a desktop and a
 * phone, in an accessible dialog (labelled by the outfit's name, focus kept inside and given back on
 * closing, Escape closes). A picture made from a photo still kept is shown before and after; a video
 * plays in place. Previous and next by the buttons, the arrow keys (outside the divider and the
 * video) or a swipe; Download, Share (the Web Share API, else the app's link copied), Report a
 * problem, Delete and the template's "Shop this look" below the result, never over it.
 */
export function ResultViewer(props: ResultViewerProps) {
  const { id, onClose, returnFocus } = props;
  return (
    <Dialog.Root
      open={id !== null}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      // the control that opened it, when it is still there (a deleted result's card is not)
      finalFocusEl={() => (returnFocus?.isConnected ? returnFocus : null)}
      size="full"
      motionPreset="none"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>{id ? <ViewerContent {...props} id={id} /> : null}</Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function ViewerContent(props: ResultViewerProps & { id: string }) {
  const { items, total, id, catalog, downloading, hasMore, onLoadMore, onShow, onDownload, onShare, onDelete, onMediaError } = props;
  const detail = useQuery(generationDetailQueryOptions(id));
  const index = items.findIndex((item) => item.id === id);
  const listed = index >= 0 ? items[index] : undefined;
  // the list's row (fresh links) first; the detail adds the person's photo. A row that leaves the
  // list (deleted: the lists are read again) keeps its links until the viewer moves on: the
  // detail's links are other signed links of the same file, which is gone.
  const lastListed = useRef<Generation | undefined>(undefined);
  if (listed) lastListed.current = listed;
  const generation = listed ?? (lastListed.current?.id === id ? lastListed.current : detail.data);
  const sourcePhotoUrl = detail.data?.id === id ? detail.data.source_photo_url : null;
  const [loadingMore, setLoadingMore] = useState(false);
  /** "next" at the end of what was loaded: once more results came, the first of them */
  const [advanceFrom, setAdvanceFrom] = useState<number | null>(null);
  const swipe = useRef<{ id: number; x: number; y: number } | null>(null);

  const previous = index > 0 ? items[index - 1] : undefined;
  const next = index >= 0 && index + 1 < items.length ? items[index + 1] : undefined;
  const canGoNext = Boolean(next) || (index >= 0 && index === items.length - 1 && hasMore);

  const goPrevious = () => {
    if (previous) onShow(previous.id);
  };
  const goNext = async () => {
    if (next) return onShow(next.id);
    if (!canGoNext || loadingMore) return;
    setLoadingMore(true);
    setAdvanceFrom(index);
    try {
      await onLoadMore();
    } finally {
      setLoadingMore(false);
    }
  };
  useEffect(() => {
    if (advanceFrom === null || loadingMore) return;
    const following = items[advanceFrom + 1];
    setAdvanceFrom(null);
    if (following) onShow(following.id);
  }, [advanceFrom, loadingMore, items, onShow]);

  // The arrow keys, wherever the focus is in the viewer, or nowhere (a "next" button that the last
  // result turned off lets the focus fall to the page): listened to on the document while it is open.
  const contentRef = useRef<HTMLDivElement>(null);
  const arrows = useRef({ goPrevious, goNext });
  arrows.current = { goPrevious, goNext };
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const content = contentRef.current;
      if (!content || !target) return;
      // inside: the divider and the video's own controls keep their arrows, and so do fields
      if (content.contains(target)) {
        if (target.closest('[role="slider"], video, input, textarea, select')) return;
      } else if (target !== document.body && target !== document.documentElement) {
        return; // another dialog over the viewer (the delete confirmation) has the keys
      }
      event.preventDefault();
      if (event.key === 'ArrowLeft') arrows.current.goPrevious();
      else void arrows.current.goNext();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  // after a move, a focus that fell out of the viewer (its button turned off) comes back into it
  useEffect(() => {
    const content = contentRef.current;
    if (content && !content.contains(document.activeElement)) content.focus({ preventScroll: true });
  }, [id]);

  const onStageDown = (event: PointerEvent<HTMLDivElement>) => {
    swipe.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onStageUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return;
    if (dx < 0) void goNext();
    else goPrevious();
  };

  const names = generation ? resultNames(generation, catalog) : null;
  const shopUrl = generation ? catalog?.templates.find((t) => t.id === generation.metadata.outfit_id)?.shopUrl : null;
  const position = index >= 0 ? `${index + 1} of ${Math.max(total, items.length)}` : null;

  const navButton = (direction: 'previous' | 'next') => (
    <IconButton
      aria-label={direction === 'previous' ? VIEWER_TEXT.previous : VIEWER_TEXT.next}
      title={direction === 'previous' ? VIEWER_TEXT.previous : VIEWER_TEXT.next}
      variant="outline"
      bg="bg.panel"
      size={{ base: 'md', md: 'lg' }}
      borderRadius="full"
      disabled={direction === 'previous' ? !previous : !canGoNext}
      loading={direction === 'next' && loadingMore}
      onClick={() => (direction === 'previous' ? goPrevious() : void goNext())}
      data-viewer-nav={direction}
    >
      {direction === 'previous' ? <ChevronLeftIcon boxSize="5" /> : <ChevronRightIcon boxSize="5" />}
    </IconButton>
  );

  return (
    <Dialog.Content
      bg="bg"
      h="100dvh"
      maxH="100dvh"
      display="flex"
      flexDirection="column"
      ref={contentRef}
      data-result-viewer=""
      aria-describedby={undefined}
    >
      <HStack as="header" gap="3" px={{ base: '3', md: '6' }} py={{ base: '2', md: '3' }} borderBottomWidth="1px" borderColor="border">
        <Stack gap="0" minW="0" flex="1">
          <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize={{ base: 'lg', md: 'xl' }} truncate>
            {names?.title ?? 'Result'}
          </Dialog.Title>
          {names ? (
            <Text fontSize="sm" color="fg.muted" truncate>
              {[names.pose, names.category, names.type, names.date].filter(Boolean).join(' · ')}
            </Text>
          ) : null}
        </Stack>
        {position ? (
          <Text fontSize="sm" color="fg.muted" flexShrink="0" data-viewer-position="">
            {position}
          </Text>
        ) : null}
        <Dialog.CloseTrigger asChild position="static">
          <CloseButton aria-label={VIEWER_TEXT.close} size="md" />
        </Dialog.CloseTrigger>
      </HStack>
      <VisuallyHidden aria-live="polite">{names ? `${names.label}${position ? `, ${position}` : ''}` : ''}</VisuallyHidden>

      <Flex flex="1" minH="0" align="stretch" gap={{ base: '0', md: '3' }} px={{ base: '0', md: '3' }} py={{ base: '2', md: '4' }}>
        <Center hideBelow="md" flexShrink="0">
          {navButton('previous')}
        </Center>
        <Box
          flex="1"
          minW="0"
          position="relative"
          bg="bg.muted"
          borderRadius={{ base: '0', md: 'lg' }}
          overflow="hidden"
          touchAction="pan-y pinch-zoom"
          onPointerDown={onStageDown}
          onPointerUp={onStageUp}
          onPointerCancel={() => (swipe.current = null)}
          data-viewer-stage=""
        >
          {generation && names ? (
            <ResultStage generation={generation} sourcePhotoUrl={sourcePhotoUrl} label={names.label} onMediaError={onMediaError} />
          ) : detail.isError ? (
            <Center h="full" px="6" textAlign="center" color="fg.muted">
              {VIEWER_TEXT.gone}
            </Center>
          ) : (
            <PageSpinner label="Loading the result" />
          )}
        </Box>
        <Center hideBelow="md" flexShrink="0">
          {navButton('next')}
        </Center>
      </Flex>

      <Stack gap="2" px={{ base: '3', md: '6' }} pb={{ base: '3', md: '4' }} pt="1">
        {generation && sourcePhotoUrl && generation.type === 'image' ? (
          <HStack justify="space-between" fontSize="xs" color="fg.muted" aria-hidden>
            <Text>← {VIEWER_TEXT.beforeLegend}</Text>
            <Text hideBelow="sm">{VIEWER_TEXT.compareHint}</Text>
            <Text>{VIEWER_TEXT.afterLegend} →</Text>
          </HStack>
        ) : null}
        <HStack justify="space-between" hideFrom="md">
          {navButton('previous')}
          {navButton('next')}
        </HStack>
        {generation ? (
          <HStack gap="2" wrap="wrap" justify="center" role="group" aria-label="Actions on this result">
            <Button size="sm" variant="solid" loading={downloading} onClick={() => onDownload(generation)}>
              <DownloadIcon /> {VIEWER_TEXT.download}
            </Button>
            <Button size="sm" variant="outline" onClick={() => onShare(generation)}>
              <ShareIcon /> {VIEWER_TEXT.share}
            </Button>
            {shopUrl ? (
              <Button asChild size="sm" variant="outline">
                <a href={shopUrl} target="_blank" rel="noopener noreferrer">
                  <BagIcon /> {VIEWER_TEXT.shop}
                </a>
              </Button>
            ) : null}
            <Button asChild size="sm" variant="ghost">
              <RouterLink to={`${paths.contact}?kind=abuse_report&generation=${encodeURIComponent(generation.id)}`}>
                <FlagIcon /> {VIEWER_TEXT.report}
              </RouterLink>
            </Button>
            <Button size="sm" variant="ghost" colorPalette="red" onClick={() => onDelete(generation)}>
              <TrashIcon /> {VIEWER_TEXT.delete}
            </Button>
          </HStack>
        ) : null}
      </Stack>
    </Dialog.Content>
  );
}
