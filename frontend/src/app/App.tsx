import { ChakraProvider } from '@chakra-ui/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from '../features/auth/AuthProvider';
import type { SessionStore } from '../features/auth/session-store';
import { system } from '../theme/system';
import type { AppRouter } from './router';

// The toast area is not needed for the first paint: its code loads just after.
const AppToaster = lazy(async () => ({ default: (await import('../components/AppToaster')).AppToaster }));

interface AppProps {
  router: AppRouter;
  queryClient: QueryClient;
  sessionStore: SessionStore;
}

/** The app's providers around its router. The caller creates the router, query client and session store once. */
export function App({ router, queryClient, sessionStore }: AppProps) {
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider store={sessionStore}>
          <RouterProvider router={router} />
          <Suspense fallback={null}>
            <AppToaster />
          </Suspense>
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
