import { useMemo } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { RoleProvider } from './auth/role';
import { Dashboard } from './dashboard/Dashboard';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { createAuthProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { QueuesPage } from './queues/QueuesPage';
import auditLog from './resources/audit-log';
import generations from './resources/generations';
import notifications from './resources/notifications';
import outbox from './resources/outbox';
import payments from './resources/payments';
import scenes from './resources/scenes';
import supportInquiries from './resources/support-inquiries';
import templates from './resources/templates';
import users from './resources/users';

/**
 * The console, mounted at /admin/* once the access gate (auth/AccessGate.tsx) has let the person
 * in. Which resource, page and button each role gets is the API's access policy (authProvider.canAccess).
 */
export function App({ role }: { role: string }) {
  const authProvider = useMemo(() => createAuthProvider(role), [role]);
  return (
    <RoleProvider role={role}>
      <Admin
        basename="/admin"
        title="Console"
        dataProvider={dataProvider}
        authProvider={authProvider}
        loginPage={false}
        layout={ConsoleLayout}
        dashboard={Dashboard}
        disableTelemetry
      >
        <Resource name="users" {...users} />
        <Resource name="support-inquiries" {...supportInquiries} />
        <Resource name="notifications" {...notifications} />
        <Resource name="generations" {...generations} />
        <Resource name="payments" {...payments} />
        <Resource name="audit-log" {...auditLog} />
        <Resource name="outbox" {...outbox} />
        <Resource name="templates" {...templates} />
        <Resource name="scenes" {...scenes} />
        <CustomRoutes>
          <Route path="/queues" element={<QueuesPage />} />
        </CustomRoutes>
      </Admin>
    </RoleProvider>
  );
}
