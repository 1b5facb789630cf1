import { Box, Status } from '@chakra-ui/react';
import { useApiStatus } from './useApiStatus';

/**
 * A quiet status line: nothing while the API is fine (or still being asked), "Service degraded"
 * when it is not. The live region is always rendered so that screen readers announce the change.
 */
export function ApiStatusLine() {
  const degraded = useApiStatus() === 'degraded';

  return (
    <Box role="status" minH="5">
      {degraded ? (
        <Status.Root colorPalette="orange" size="sm" color="fg.muted">
          <Status.Indicator />
          Service degraded
        </Status.Root>
      ) : null}
    </Box>
  );
}
