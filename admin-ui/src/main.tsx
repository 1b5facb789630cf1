import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { AccessGate } from './auth/AccessGate';
import { configureApiClient, sessionStore } from './auth/session';

configureApiClient();
// Restores the user app's session from its refresh cookie and keeps it fresh (checks every 30 s).
sessionStore.start();

// A data router (react-admin needs one for its unsaved-changes guard); the console owns /admin/*.
const router = createBrowserRouter([{ path: '/admin/*', Component: () => <AccessGate>{(viewer) => <App viewer={viewer} />}</AccessGate> }]);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
