import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from '../components/layout/PublicLayout';
import { LandingPage } from '../features/landing/LandingPage';
import { dashboardCategories } from '../features/dashboard/nav-items';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { paths } from './paths';
import { RootLayout } from './RootLayout';

const toGenerations = <Navigate to={paths.generations} replace />;

/** A dashboard screen that a later release fills in: an honest placeholder inside the shell. */
const placeholder = (title: string): RouteObject['lazy'] => async () => {
  const { ComingSoonPage } = await import('../features/dashboard/ComingSoonPage');
  return { element: <ComingSoonPage title={title} /> };
};

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
      {
        // The auth guard: a spinner while the session loads, `/` (history replaced) when signed out.
        lazy: async () => ({ Component: (await import('../features/auth/RequireAuth')).RequireAuth }),
        children: [
          { path: paths.try, element: toGenerations },
          { path: paths.app, element: toGenerations },
          {
            path: paths.dashboard,
            lazy: async () => ({ Component: (await import('../features/dashboard/DashboardLayout')).DashboardLayout }),
            children: [
              { index: true, element: toGenerations },
              { path: 'generations', lazy: placeholder('All Generations') },
              ...dashboardCategories.map((category) => ({ path: category.slug, lazy: placeholder(category.label) })),
              {
                path: 'profile',
                lazy: async () => ({ Component: (await import('../features/profile/ProfilePage')).ProfilePage }),
              },
              { path: 'subscription', lazy: placeholder('Subscription') },
              {
                path: 'settings',
                lazy: async () => ({ Component: (await import('../features/settings/SettingsPage')).SettingsPage }),
              },
            ],
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
