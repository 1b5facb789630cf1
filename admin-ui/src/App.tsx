import { Admin, Layout } from 'react-admin';
import { Dashboard } from './dashboard/Dashboard';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';

/** Until the first resource exists react-admin shows its `ready` screen: make it the dashboard. */
function ConsoleHome() {
  return (
    <Layout>
      <Dashboard />
    </Layout>
  );
}

/**
 * The console, mounted by the router at /admin/*. Resources (one folder each under
 * src/resources/, exporting `{ list, show, edit, icon }`) are added as children by later issues.
 */
export function App() {
  return (
    <Admin
      basename="/admin"
      title="Console"
      dataProvider={dataProvider}
      authProvider={authProvider}
      requireAuth={false}
      loginPage={false}
      dashboard={Dashboard}
      ready={ConsoleHome}
      disableTelemetry
    />
  );
}
