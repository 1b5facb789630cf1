import { createBrowserRouter, type RouteObject } from 'react-router';
import { PublicLayout } from '../components/layout/PublicLayout';
import { LandingPage } from '../features/landing/LandingPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { RootLayout } from './RootLayout';

/**
 * Every screen of the app. The landing page is in the entry bundle (it is the first screen most
 * visitors see); every other screen is a `lazy` route so that its code loads only when visited.
 * The error page stays eager: it must render even when loading a route's code fails.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    // Shown while a lazy route needed by the first URL loads; the wait is short, so show nothing.
    HydrateFallback: () => null,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, Component: LandingPage },
          {
            path: '*',
            lazy: async () => ({ Component: (await import('../pages/NotFoundPage')).NotFoundPage }),
          },
        ],
      },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createRouter(): AppRouter {
  return createBrowserRouter(routes);
}
