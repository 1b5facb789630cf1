import { getHealth } from '@fitting-room/api-client';
import { useQuery } from '@tanstack/react-query';

/**
 * The API's health: `/api/health` answers 200 when every check is up and 503 (same body) when
 * one is down. Both bodies are returned as data, so the console can say which check failed;
 * only an unreachable API is an error.
 */
export function useApiHealth() {
  return useQuery({
    queryKey: ['health'],
    // react-admin's query client retries 3 times with back-off: too slow to report an outage.
    retry: 1,
    queryFn: async ({ signal }) => {
      const { data, error, response } = await getHealth({ signal });
      const body = data ?? error;
      if (body === undefined || typeof body !== 'object' || body === null || !('status' in body)) {
        throw new Error(response ? `The API answered HTTP ${response.status} without a health report.` : 'The API cannot be reached.');
      }
      return body;
    },
  });
}
