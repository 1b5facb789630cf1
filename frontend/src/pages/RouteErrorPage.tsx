import { Button, Center, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { MAIN_CONTENT_ID } from '../app/layout-ids';
import { paths } from '../app/paths';
import { useDocumentTitle } from '../app/useDocumentTitle';

/** Loading a route's code failed: usually a new deployment replaced the chunk files. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof TypeError && /dynamically imported module|module script failed|error loading dynamically imported/i.test(error.message)
  );
}

/**
 * The generic error screen (docs/product.md), rendered by the router when a screen throws.
 * Try Again renders the current URL afresh (its data fetched again); Go Home goes to the landing page.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useDocumentTitle('Something went wrong');

  useEffect(() => {
    console.error(error);
  }, [error]);

  // Cached data may be what the screen choked on: whatever shows next fetches its data afresh.
  const clearCachedData = () => void queryClient.resetQueries();

  const goHome = () => {
    clearCachedData();
    void navigate(paths.home);
  };

  const tryAgain = () => {
    // A missing chunk will not appear by navigating again: fetch the new build instead.
    if (isChunkLoadError(error)) {
      window.location.reload();
      return;
    }
    clearCachedData();
    // Navigating to the same location clears the router's error state and renders the route again.
    void navigate(location, { replace: true, state: location.state });
  };

  return (
    <chakra.main id={MAIN_CONTENT_ID} tabIndex={-1} outline="none" minH="100dvh" display="flex">
      <Center flex="1" px="6" py="24">
        <Stack gap="4" align="center" textAlign="center" maxW="md">
          <Heading as="h1" fontSize={{ base: '3xl', md: '4xl' }} fontWeight="medium">
            Something went wrong
          </Heading>
          <Text color="fg.muted">We apologize for the inconvenience. An unexpected error occurred.</Text>
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3" mt="2">
            <Button onClick={tryAgain}>Try Again</Button>
            <Button variant="outline" onClick={goHome}>
              Go Home
            </Button>
          </Stack>
        </Stack>
      </Center>
    </chakra.main>
  );
}
