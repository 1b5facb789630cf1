import { SessionStore } from '@fitting-room/shared/browser';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { configureApiClient } from './api/client';
import { App } from './app/App';
import { createQueryClient } from './app/query-client';
import { createRouter, resolveLazyRoutes } from './app/router';
import { formatDocumentTitle } from './app/useDocumentTitle';
import { preloadAuthDialog } from './features/auth/AuthDialogHost';
import { sessionApi } from './features/auth/session-api';
import { sessionHint, shouldRestoreSession } from './features/auth/session-hint';
import { readPageData, seedQueries } from './prerender/page-data';
import { appSystem } from './theme/system';

// The app: src/boot.ts (the page's entry) imports this module when the app should start.
const sessionStore = new SessionStore(sessionApi, {
  restore: shouldRestoreSession(window.location.pathname),
  hint: sessionHint,
});
configureApiClient(sessionStore);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const pageData = readPageData();
if (pageData) seedQueries(queryClient, pageData);
// a pre-rendered page has its own title already (the server's configuration and the page's name)
else document.title = formatDocumentTitle();

const app = (hydrating = false) => (
  <StrictMode>
    <App queryClient={queryClient} sessionStore={sessionStore}>
      <RouterProvider router={createRouter({ hydrating })} />
    </App>
  </StrictMode>
);

// The first render as a transition: React renders it in slices and yields to the browser between them,
// so a large page never blocks the main thread for long (Lighthouse's Total Blocking Time, `npm run bench:web`).
function render(): void {
  const root = createRoot(container!);
  startTransition(() => root.render(app()));
}

/** Ends the current task: the browser may paint and handle input before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The start in a few tasks rather than one long one (Lighthouse's Total Blocking Time): the modules'
// evaluation, the design system, then the first render or hydration (itself in slices).
async function start(): Promise<void> {
  await nextTask();
  appSystem();
  await nextTask();
  if (container!.firstElementChild && pageData) {
    // The app starts on a visitor's first intent (src/boot.ts), and most first clicks on these pages
    // open the sign-up or log-in dialog: fetch its code while the page hydrates.
    preloadAuthDialog();
    // The server pre-rendered this page (docs/frontend-performance.md): hydrate its markup, once the
    // code of the page's lazy route is here (the router must start on the page, not on its fallback).
    try {
      await resolveLazyRoutes(window.location.pathname);
    } catch {
      render(); // the route's code did not load: render afresh (the route's error page)
      return;
    }
    startTransition(() => void hydrateRoot(container!, app(true)));
  } else {
    render();
  }
}

void start();
