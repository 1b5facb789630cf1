import { SessionStore } from '@fitting-room/shared/browser';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from './api/client';
import { App } from './app/App';
import { createQueryClient } from './app/query-client';
import { createRouter } from './app/router';
import { formatDocumentTitle } from './app/useDocumentTitle';
import { sessionApi } from './features/auth/session-api';
import { sessionHint, shouldRestoreSession } from './features/auth/session-hint';

const sessionStore = new SessionStore(sessionApi, {
  restore: shouldRestoreSession(window.location.pathname),
  hint: sessionHint,
});
configureApiClient(sessionStore);
document.title = formatDocumentTitle();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The first render as a transition: React renders it in slices and yields to the browser between them,
// so a large page never blocks the main thread for long (Lighthouse's Total Blocking Time, `npm run bench:web`).
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <App router={createRouter()} queryClient={createQueryClient()} sessionStore={sessionStore} />
    </StrictMode>,
  );
});
