import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from './api/client';
import { App } from './app/App';
import { createQueryClient } from './app/query-client';
import { createRouter } from './app/router';
import { formatDocumentTitle } from './app/useDocumentTitle';

configureApiClient();
document.title = formatDocumentTitle();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App router={createRouter()} queryClient={createQueryClient()} />
  </StrictMode>,
);
