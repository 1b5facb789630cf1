import { ChakraProvider } from '@chakra-ui/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, startTransition, Suspense, useEffect, useState } from 'react';
import { AuthProvider } from '../features/auth/AuthProvider';
import { appSystem } from '../theme/system';
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
  queryClient: QueryClient;
  sessionStore: SessionStore;
  /** The router: `<RouterProvider>` in the browser, `<StaticRouterProvider>` in the server's pre-render. */
  children: ReactNode;
}

/**
 * The app's providers around its router. The caller creates the router, query client and session
 * store once. The server's pre-render (entry-server.tsx) renders this same tree, so hydration matches.
 */
export function App({ queryClient, sessionStore, children }: AppProps) {
  const painted = useAfterFirstPaint();
  useEffect(() => {
    // The page's markup is live (hydrated, or rendered here): src/boot.ts replays a click it held
    // while the app started on a pre-rendered page.
    document.documentElement.dataset.app = 'ready';
  }, []);
  return (
    <ChakraProvider value={appSystem()}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider store={sessionStore}>
          {children}
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
