import { Badge, Box, Card, Center, chakra, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { BagIcon, DownloadIcon, PlayIcon, TrashIcon } from '../../components/icons';
import type { Generation } from './generation-api';
import type { ResultNames } from './result-names';

/** Results are rendered at the product's output size (2953*4096): the media box keeps that shape. */
export const RESULT_WIDTH = 2953;
export const RESULT_HEIGHT = 4096;

interface GenerationCardProps {
  generation: Generation;
  /** its names: the outfit's (the title), the pose's, the category, the date */
  names: ResultNames;
  downloading: boolean;
  /** opens the result viewer on this result */
  onOpen(generation: Generation, opener: HTMLElement): void;
  onDownload(generation: Generation): void;
  /** The template's "Shop this look" link (https, set by an admin), when there is one. */
  shopUrl?: string | null;
  onDelete(generation: Generation): void;
  /** The result's signed URL failed to load (it may have expired): fetch fresh ones. */
  onMediaError(): void;
}

/** The media fills its box at the result's shape; width and height attributes reserve the space. */
const mediaCss = {
  '& img, & video': {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: `${RESULT_WIDTH} / ${RESULT_HEIGHT}`,
    objectFit: 'cover',
  },
} as const;

/**
 * The result, which opens the viewer: a picture, or a video's first frame with a play mark (it plays
 * in the viewer). A transparent button over it takes the click (the picture stays an image for
 * assistive technology); nothing visible is laid over the picture but the play mark, so a result's
 * own label ("PREVIEW - NOT AI") stays readable.
 */
function ResultMedia({
  generation,
  label,
  onOpen,
  onError,
}: {
  generation: Generation;
  label: string;
  onOpen(opener: HTMLElement): void;
  onError(): void;
}) {
  const size = { width: RESULT_WIDTH, height: RESULT_HEIGHT };
  // The URL that failed to load; a fresh signed URL (after the list is fetched again) is tried anew.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const fail = () => {
    setFailedUrl(generation.url);
    onError();
  };
  const unavailable = !generation.url || failedUrl === generation.url;
  return (
    <Box position="relative" bg="bg.muted" aspectRatio={`${RESULT_WIDTH} / ${RESULT_HEIGHT}`} css={mediaCss}>
      {unavailable ? (
        <Center h="full" px="4" textAlign="center" color="fg.muted" fontSize="sm">
          Preview not available right now
        </Center>
      ) : generation.type === 'video' ? (
        <>
          <video {...size} src={generation.url ?? undefined} muted playsInline preload="metadata" aria-label={label} onError={fail} />
          <Center
            aria-hidden
            position="absolute"
            bottom="2"
            right="2"
            boxSize="9"
            borderRadius="full"
            bg="blackAlpha.700"
            color="white"
            pointerEvents="none"
          >
            <PlayIcon boxSize="4" />
          </Center>
        </>
      ) : (
        <img {...size} src={generation.url ?? undefined} alt={label} loading="lazy" decoding="async" onError={fail} />
      )}
      <chakra.button
        type="button"
        position="absolute"
        inset="0"
        w="full"
        h="full"
        cursor="zoom-in"
        onClick={(event) => onOpen(event.currentTarget)}
        aria-label={`Open ${label}`}
        data-open-result=""
        _focusVisible={{ outline: '3px solid', outlineColor: 'brand.focusRing', outlineOffset: '-3px' }}
      />
    </Box>
  );
}

/** One completed generation: the result (opens the viewer), its outfit and pose, type and date, and its actions. */
export function GenerationCard({
  generation,
  names,
  downloading,
  onOpen,
  onDownload,
  shopUrl,
  onDelete,
  onMediaError,
}: GenerationCardProps) {
  return (
    <Card.Root as="article" overflow="hidden" variant="outline" bg="bg.panel" aria-label={names.label}>
      <ResultMedia
        generation={generation}
        label={`Your ${names.label}`}
        onOpen={(opener) => onOpen(generation, opener)}
        onError={onMediaError}
      />
      <Stack gap="2" p={{ base: '2.5', md: '3' }}>
        <Stack gap="0.5" minW="0">
          <Text fontSize="sm" fontWeight="semibold" lineClamp="2" data-result-title="">
            {names.title}
          </Text>
          {names.pose ? (
            <Text fontSize="xs" color="fg.muted" truncate>
              {names.pose}
            </Text>
          ) : null}
          <HStack gap="1.5" fontSize="xs" color="fg.muted" wrap="wrap">
            {/* the type reads here, under the picture, never over it */}
            <Badge size="sm" variant="subtle" colorPalette="gray">
              {names.type}
            </Badge>
            <time dateTime={generation.created_at}>{names.date}</time>
          </HStack>
        </Stack>
        <HStack gap="1" justify="space-between">
          <IconButton
            aria-label="Download"
            title="Download"
            size="sm"
            variant="subtle"
            loading={downloading}
            onClick={() => onDownload(generation)}
          >
            <DownloadIcon />
          </IconButton>
          {shopUrl ? (
            <IconButton asChild aria-label="Shop this look" title="Shop this look" size="sm" variant="ghost">
              <a href={shopUrl} target="_blank" rel="noopener noreferrer">
                <BagIcon />
              </a>
            </IconButton>
          ) : null}
          <IconButton aria-label="Delete" title="Delete" size="sm" variant="ghost" colorPalette="red" onClick={() => onDelete(generation)}>
            <TrashIcon />
          </IconButton>
        </HStack>
      </Stack>
    </Card.Root>
  );
}
