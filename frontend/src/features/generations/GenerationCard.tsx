import { Badge, Box, Card, Center, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DownloadIcon, SearchIcon, TrashIcon } from '../../components/icons';
import type { Generation } from './generation-api';

/** Results are rendered at the product's output size (2953*4096): the media box keeps that shape. */
export const RESULT_WIDTH = 2953;
export const RESULT_HEIGHT = 4096;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatGenerationDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

const TYPE_LABEL = { image: 'Image', video: 'Video' } as const;

interface GenerationCardProps {
  generation: Generation;
  categoryLabel: string;
  downloading: boolean;
  onDownload(generation: Generation): void;
  onSearch(generation: Generation): void;
  /** The template's "Shop this look" link (https, set by an admin): Search opens it in a new tab instead. */
  shopUrl?: string | null;
  onDelete(generation: Generation): void;
  /** The result's signed URL failed to load (it may have expired): fetch fresh ones. */
  onMediaError(): void;
}

/** The media fills its box at the result's shape; width and height attributes reserve the space. */
const mediaCss = {
  '& > img, & > video': {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: `${RESULT_WIDTH} / ${RESULT_HEIGHT}`,
    objectFit: 'cover',
  },
} as const;

function ResultMedia({ generation, label, onError }: { generation: Generation; label: string; onError(): void }) {
  const size = { width: RESULT_WIDTH, height: RESULT_HEIGHT };
  // The URL that failed to load; a fresh signed URL (after the list is fetched again) is tried anew.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const fail = () => {
    setFailedUrl(generation.url);
    onError();
  };
  const unavailable = !generation.url || failedUrl === generation.url;
  return (
    <Box css={mediaCss} bg="bg.muted" aspectRatio={`${RESULT_WIDTH} / ${RESULT_HEIGHT}`}>
      {unavailable ? (
        <Center h="full" px="4" textAlign="center" color="fg.muted" fontSize="sm" role="img" aria-label={`${label} (not available)`}>
          Preview not available right now
        </Center>
      ) : generation.type === 'video' ? (
        <video
          {...size}
          src={generation.url ?? undefined}
          controls
          playsInline
          muted
          preload="metadata"
          aria-label={label}
          onError={fail}
        />
      ) : (
        <img {...size} src={generation.url ?? undefined} alt={label} loading="lazy" decoding="async" onError={fail} />
      )}
    </Box>
  );
}

/** One completed generation: the result, its type, category and date, and its actions. */
export function GenerationCard({
  generation,
  categoryLabel,
  downloading,
  onDownload,
  onSearch,
  shopUrl,
  onDelete,
  onMediaError,
}: GenerationCardProps) {
  const date = formatGenerationDate(generation.created_at);
  const typeLabel = TYPE_LABEL[generation.type];
  const label = `${categoryLabel} ${typeLabel.toLowerCase()} from ${date}`;
  return (
    <Card.Root as="article" overflow="hidden" variant="outline" bg="bg.panel" aria-label={label}>
      <Box position="relative">
        <ResultMedia generation={generation} label={`Your ${label}`} onError={onMediaError} />
        <Badge position="absolute" top="2" left="2" size="sm" variant="solid" colorPalette="gray" bg="blackAlpha.700" pointerEvents="none">
          {typeLabel}
        </Badge>
      </Box>
      <Stack gap="2" p={{ base: '2.5', md: '3' }}>
        <Stack gap="0" minW="0">
          <Text fontSize="sm" fontWeight="semibold" truncate>
            {categoryLabel}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            <time dateTime={generation.created_at}>{date}</time>
          </Text>
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
                <SearchIcon />
              </a>
            </IconButton>
          ) : (
            <IconButton
              aria-label="Search"
              title="Find similar items to buy"
              size="sm"
              variant="ghost"
              onClick={() => onSearch(generation)}
            >
              <SearchIcon />
            </IconButton>
          )}
          <IconButton aria-label="Delete" title="Delete" size="sm" variant="ghost" colorPalette="red" onClick={() => onDelete(generation)}>
            <TrashIcon />
          </IconButton>
        </HStack>
      </Stack>
    </Card.Root>
  );
}
