import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from '../components/layout/PublicLayout';
import { dashboardCategories } from '../features/dashboard/nav-items';
import { LandingPage } from '../features/landing/LandingPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { paths } from './paths';
import { RootLayout } from './RootLayout';

const toGenerations = <Navigate to={paths.generations} replace />;

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
            path: paths.pricing,
            lazy: async () => ({ Component: (await import('../features/pricing/PricingPage')).PricingPage }),
          },
          {
            path: paths.terms,
            lazy: async () => ({ Component: (await import('../features/legal/TermsPage')).TermsPage }),
          },
          {
            path: paths.privacy,
            lazy: async () => ({ Component: (await import('../features/legal/PrivacyPage')).PrivacyPage }),
          },
          {
            path: paths.refund,
            lazy: async () => ({ Component: (await import('../features/legal/RefundPage')).RefundPage }),
          },
          {
            path: paths.contact,
            lazy: async () => ({ Component: (await import('../features/support/ContactPage')).ContactPage }),
          },
          // Pages that mailed links open (one chunk for the three).
          ...([paths.verifyEmail, paths.resetPassword, paths.unsubscribe] as const).map((path) => ({
            path,
            lazy: async () => ({ Component: (await import('../features/email-links/pages')).emailLinkPages[path] }),
          })),
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
              {
                path: 'generations',
                lazy: async () => ({ Component: (await import('../features/generations/AllGenerationsPage')).AllGenerationsPage }),
              },
              // One shared screen; `key` makes a change of category start afresh (template, pose, photos).
              ...dashboardCategories.map(({ slug }) => ({
                path: slug,
                lazy: async () => {
                  const { CategoryPage } = await import('../features/category/CategoryPage');
                  return { element: <CategoryPage key={slug} slug={slug} /> };
                },
              })),
              {
                path: 'profile',
                lazy: async () => ({ Component: (await import('../features/profile/ProfilePage')).ProfilePage }),
              },
              {
                path: 'subscription',
                lazy: async () => ({ Component: (await import('../features/subscription/SubscriptionPage')).SubscriptionPage }),
              },
              {
                path: 'tickets',
                lazy: async () => ({ Component: (await import('../features/support/MyTicketsPage')).MyTicketsPage }),
              },
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

/**
 * The browser's router. `hydrating`: the page was pre-rendered and the app starts over it, maybe
 * after the visitor has scrolled (src/boot.ts starts it on their first scroll, touch or key). The
 * router then keeps the scroll where it is; without hydration data, its `<ScrollRestoration>`
 * would scroll a fresh start to the top, taking a reader who had scrolled back up the page.
 */
export function createRouter({ hydrating = false }: { hydrating?: boolean } = {}): AppRouter {
  return createBrowserRouter(routes, hydrating ? { hydrationData: { loaderData: {} } } : undefined);
}

/**
 * Loads the code of the lazy routes that `pathname` matches and puts it in their route objects, so
 * that a router created afterwards renders the page at once: hydrating a pre-rendered page must not
 * start from the (empty) HydrateFallback.
 */
export async function resolveLazyRoutes(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}
