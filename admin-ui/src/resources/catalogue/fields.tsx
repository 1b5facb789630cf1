import { getCatalog } from '@fitting-room/api-client';
import { callApi } from '@fitting-room/shared/browser';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { useTierName } from '../users/tiers';
import type { ConsoleDataProvider } from '../../providers/dataProvider';

/** The categories come from the catalogue (GET /api/catalog), not from a copy here. */
export function useCategoryChoices(): { id: string; name: string }[] {
  const { data } = useQuery({
    queryKey: ['catalog'],
    staleTime: Infinity,
    queryFn: async ({ signal }) => (await callApi(getCatalog({ signal }))).data,
  });
  return data?.categories.map((c) => ({ id: c.id, name: c.label })) ?? [];
}

const THUMB = { width: 48, height: 64, borderRadius: 1 } as const;

/** The illustrated artwork (what users see as the thumbnail). */
export function ThumbnailField(_props: { source?: string; label?: string }) {
  const record = useRecordContext<{ thumbnail?: string; name?: string }>();
  if (!record?.thumbnail) return <Box sx={{ ...THUMB, bgcolor: 'action.hover' }} />;
  return <Box component="img" src={record.thumbnail} alt="" loading="lazy" sx={{ ...THUMB, objectFit: 'cover' }} />;
}

/** A required tier as a chip with the plan's name. */
export function RequiredTierField(_props: { source?: string; label?: string }) {
  const record = useRecordContext<{ required_tier?: string }>();
  const name = useTierName(record?.required_tier);
  if (!record?.required_tier) return null;
  return <Chip size="small" label={name} variant={record.required_tier === 'free' ? 'outlined' : 'filled'} />;
}

interface PhotoRecord {
  id: string;
  name: string;
  garment_photo_url?: string | null;
  reference_photo_url?: string | null;
}

/** What becomes of a scene's reference photo (docs/ai-providers.md, "Scene reference photos"): said as it is. */
export const SCENE_REFERENCE_NOTE =
  "Only DashScope's Wan image editing (AI_PROVIDER=dashscope) receives it, as the scene image next to the prompt, in place of " +
  'the illustrated artwork. FASHN, the fal.ai try-on models and every video model take no scene image: with them it is not used.';

/**
 * The template's garment photo (what AI vendors receive) or the scene's reference photo: the
 * current one through the admin-only signed link, and a button to upload a new one (PUT .../garment).
 */
export function CatalogPhotoInput({ resource, label }: { resource: 'templates' | 'scenes'; label: string }) {
  const record = useRecordContext<PhotoRecord>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const url = resource === 'templates' ? record.garment_photo_url : record.reference_photo_url;

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      await dataProvider.uploadCatalogPhoto(resource, record.id, file);
      notify(`${label} saved`, { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : `Failed to upload the ${label.toLowerCase()}`, { type: 'error' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Stack spacing={1} sx={{ my: 2 }} data-testid="catalog-photo">
      <Typography variant="subtitle2" component="h2">
        {label}
      </Typography>
      {url ? (
        <Box component="img" src={url} alt={`${label} of ${record.name}`} sx={{ maxWidth: 240, maxHeight: 320, objectFit: 'contain' }} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {resource === 'templates' ? 'No photo yet: AI vendors receive the illustrated artwork.' : 'No photo yet.'}
        </Typography>
      )}
      {resource === 'scenes' && (
        <Typography variant="caption" color="text.secondary" sx={{ maxWidth: 480 }}>
          {SCENE_REFERENCE_NOTE}
        </Typography>
      )}
      <Box>
        <Button variant="outlined" disabled={busy} onClick={() => input.current?.click()}>
          {url ? `Replace ${label.toLowerCase()}` : `Upload ${label.toLowerCase()}`}
        </Button>
        <input
          ref={input}
          hidden
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-label={`${label} file`}
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      </Box>
    </Stack>
  );
}

/**
 * A template's thumbnail: the picture the catalogue shows (public), the illustrated artwork until an
 * admin uploads one here (PUT .../thumbnail). AI vendors never receive it.
 */
export function TemplateThumbnailInput() {
  const record = useRecordContext<{ id: string; name: string; thumbnail?: string; has_uploaded_thumbnail?: boolean }>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  if (!record) return null;

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      await dataProvider.uploadTemplateThumbnail(record.id, file);
      notify('Thumbnail saved', { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : 'Failed to upload the thumbnail', { type: 'error' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Stack spacing={1} sx={{ my: 2 }} data-testid="template-thumbnail">
      <Typography variant="subtitle2" component="h2">
        Thumbnail
      </Typography>
      {record.thumbnail && (
        <Box
          component="img"
          src={record.thumbnail}
          alt={`Thumbnail of ${record.name}`}
          sx={{ width: 120, height: 160, objectFit: 'cover' }}
        />
      )}
      <Typography variant="caption" color="text.secondary" sx={{ maxWidth: 480 }}>
        {record.has_uploaded_thumbnail
          ? 'Shown in the catalogue (public). AI vendors never receive it.'
          : 'The illustrated artwork is shown until you upload a picture (shown in the catalogue, public; AI vendors never receive it).'}
      </Typography>
      <Box>
        <Button variant="outlined" disabled={busy} onClick={() => input.current?.click()}>
          {record.has_uploaded_thumbnail ? 'Replace thumbnail' : 'Upload thumbnail'}
        </Button>
        <input
          ref={input}
          hidden
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-label="Thumbnail file"
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      </Box>
    </Stack>
  );
}
