import { getHealth } from '@fitting-room/api-client';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const healthQueryOptions = queryOptions({
  queryKey: ['health'],
  queryFn: async ({ signal }) => {
    // A failing check answers 503 with the same body; the client reports it as `error`.
    const { data, error } = await getHealth({ signal });
    if (error !== undefined || data === undefined) {
      throw new Error('API health check failed', { cause: error });
    }
    return data;
  },
});

export type ApiStatus = 'checking' | 'ok' | 'degraded';

/** The API's state as the user sees it: still checking, fine, or degraded. */
export function useApiStatus(): ApiStatus {
  const { data, isError } = useQuery(healthQueryOptions);
  if (isError) return 'degraded';
  if (data === undefined) return 'checking';
  return data.status === 'ok' ? 'ok' : 'degraded';
}
