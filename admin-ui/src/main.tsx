import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { configureApiClient } from './api/client';
import { App } from './App';

configureApiClient();

// A data router (react-admin needs one for its unsaved-changes guard); the console owns /admin/*.
const router = createBrowserRouter([{ path: '/admin/*', Component: App }]);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
