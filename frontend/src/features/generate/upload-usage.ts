import { queryOptions } from '@tanstack/react-query';
import { generationApi, type UploadUsage } from '../generations/generation-api';

/** The caller's upload usage: invalidate it after an upload or a removal. */
export const uploadUsageQueryKey = ['uploads', 'usage'] as const;

/** GET /api/uploads/usage: photos this hour and bytes kept, against the quotas. */
export const uploadUsageQueryOptions = queryOptions({
  queryKey: uploadUsageQueryKey,
  queryFn: ({ signal }) => generationApi.uploadUsage(signal),
  // The hour's window moves on by itself: look again now and then while the panel is open.
  staleTime: 30_000,
  refetchInterval: 5 * 60_000,
});

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/** One decimal below 10 ("1.5 MB"), none above ("12 MB"); a whole number keeps no ".0". */
function scaled(bytes: number, unit: number, label: string): string {
  const value = bytes / unit;
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${rounded} ${label}`;
}

/** Bytes as a person reads them, in the API's units (1 MB = 1024 kB, as UPLOAD_QUOTA_MB_* count). */
export function formatBytes(bytes: number): string {
  if (bytes <= 0) return '0 MB';
  if (bytes < MB) return `${Math.max(1, Math.round(bytes / KB))} kB`;
  if (bytes < GB) return scaled(bytes, MB, 'MB');
  return scaled(bytes, GB, 'GB');
}

/** "3 of 50 photos this hour · 12 MB of 1 GB kept" */
export function usageLine(usage: UploadUsage): string {
  return (
    `${usage.photos_this_hour} of ${usage.photos_per_hour} photos this hour · ` +
    `${formatBytes(usage.bytes_kept)} of ${formatBytes(usage.bytes_kept_limit)} kept`
  );
}
