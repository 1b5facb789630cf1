import { ChakraProvider } from '@chakra-ui/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from '../features/auth/AuthProvider';
import { system } from '../theme/system';
import type { AppRouter } from './router';
import type { SessionStore } from '@fitting-room/shared/browser';

// The toast area is not needed for the first paint: its code loads just after (toasts created
// earlier wait in the store), so it never competes with the page's own code.
const AppToaster = lazy(async () => ({ default: (await import('../components/AppToaster')).AppToaster }));

/**
 * True once the browser has painted the page's first content. Without paint timing: once the page
 * has loaded. At the latest after 5 s (a tab opened in the background paints only when shown).
 */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // a transition: its render yields to the browser instead of blocking the main thread
    const mark = () => startTransition(() => setPainted(true));
    const fallback = window.setTimeout(mark, 5000);
    if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) window.setTimeout(mark, 0);
      });
      observer.observe({ type: 'paint', buffered: true });
      return () => {
        observer.disconnect();
        window.clearTimeout(fallback);
      };
    }
    const onLoad = () => window.setTimeout(mark, 0);
    if (document.readyState === 'complete') onLoad();
    else window.addEventListener('load', onLoad, { once: true });
    return () => {
      window.removeEventListener('load', onLoad);
      window.clearTimeout(fallback);
    };
  }, []);
  return painted;
}

interface AppProps {
  router: AppRouter;
  queryClient: QueryClient;
  sessionStore: SessionStore;
}

/** The app's providers around its router. The caller creates the router, query client and session store once. */
export function App({ router, queryClient, sessionStore }: AppProps) {
  const painted = useAfterFirstPaint();
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider store={sessionStore}>
          <RouterProvider router={router} />
          {painted ? (
            <Suspense fallback={null}>
              <AppToaster />
            </Suspense>
          ) : null}
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
