import { getHealth, type AiModeDto, type HealthResponseDto } from '@fitting-room/api-client';
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

/** The `ai` part of a health answer (a 503 carries it too), when it has the documented shape. */
export function aiModeOf(body: unknown): AiModeDto | undefined {
  const ai = (body as Partial<HealthResponseDto> | null | undefined)?.ai;
  return typeof ai?.provider === 'string' && typeof ai.generates_with_ai === 'boolean' ? ai : undefined;
}

/**
 * What renders generations on this server (`ai` of GET /api/health): undefined until known. The
 * provider cannot change while the server runs, so one answer is kept for the page's life.
 */
export function useAiMode(): AiModeDto | undefined {
  const { data, error } = useQuery({ ...healthQueryOptions, staleTime: Infinity });
  return aiModeOf(data) ?? aiModeOf(error?.cause);
}

/** True only once the server has said that no AI is configured (the local preview renderer). */
export function usePreviewOnly(): boolean {
  return useAiMode()?.generates_with_ai === false;
}
