import { useMemo } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { guardViews } from './auth/guard-views';
import { RoleProvider, type Viewer } from './auth/role';
import { Dashboard } from './dashboard/Dashboard';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { consoleDarkTheme, consoleLightTheme } from './layout/theme';
import { createAuthProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { QueuesPage } from './queues/QueuesPage';
import auditLog from './resources/audit-log';
import generations from './resources/generations';
import notifications from './resources/notifications';
import outbox from './resources/outbox';
import payments from './resources/payments';
import scenes from './resources/scenes';
import stripeEvents from './resources/stripe-events';
import supportInquiries from './resources/support-inquiries';
import templates from './resources/templates';
import users from './resources/users';

/**
 * The console, mounted at /admin/* once the access gate (auth/AccessGate.tsx) has let the person
 * in. Which resource, page and button each role gets is the API's access policy (authProvider.canAccess);
 * a page the role may not open is the denial from the start (guardViews), so it never asks the API.
 */
export function App({ viewer }: { viewer: Viewer }) {
  const { role } = viewer;
  const authProvider = useMemo(() => createAuthProvider(role), [role]);
  return (
    <RoleProvider viewer={viewer}>
      <Admin
        basename="/admin"
        title="Console"
        dataProvider={dataProvider}
        authProvider={authProvider}
        loginPage={false}
        layout={ConsoleLayout}
        theme={consoleLightTheme}
        darkTheme={consoleDarkTheme}
        dashboard={Dashboard}
        disableTelemetry
      >
        <Resource {...guardViews(role, 'users', users)} />
        <Resource {...guardViews(role, 'support-inquiries', supportInquiries)} />
        <Resource {...guardViews(role, 'notifications', notifications)} />
        <Resource {...guardViews(role, 'generations', generations)} />
        <Resource {...guardViews(role, 'payments', payments)} />
        <Resource {...guardViews(role, 'stripe-events', stripeEvents)} />
        <Resource {...guardViews(role, 'audit-log', auditLog)} />
        <Resource {...guardViews(role, 'outbox', outbox)} />
        <Resource {...guardViews(role, 'templates', templates)} />
        <Resource {...guardViews(role, 'scenes', scenes)} />
        <CustomRoutes>
          <Route path="/queues" element={<QueuesPage />} />
        </CustomRoutes>
      </Admin>
    </RoleProvider>
  );
}
