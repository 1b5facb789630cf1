import AnalyticsIcon from '@mui/icons-material/Analytics';
import DashboardIcon from '@mui/icons-material/Dashboard';
import LogoutIcon from '@mui/icons-material/Logout';
import ViewListIcon from '@mui/icons-material/ViewList';
import { Button } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { AppBar, Layout, LoadingIndicator, Menu, TitlePortal, useBasename, useNotify } from 'react-admin';
import { useCan } from '../auth/role';
import { goToLanding, sessionStore } from '../auth/session';
import { RESOURCE_NAMES } from '../resources';

/** Sign Out: ends the session on the server (and in the user app's tabs), then the landing page. */
function SignOutButton() {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      color="inherit"
      startIcon={<LogoutIcon />}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await sessionStore.signOut();
          goToLanding();
        } catch (error) {
          setBusy(false);
          notify(error instanceof Error ? error.message : 'Sign out failed', { type: 'error' });
        }
      }}
    >
      Sign Out
    </Button>
  );
}

function ConsoleAppBar() {
  return (
    <AppBar
      userMenu={false}
      toolbar={
        <>
          <LoadingIndicator />
          {/* The user app: a full page load, it is another application. */}
          <Button color="inherit" href="/dashboard" startIcon={<DashboardIcon />}>
            Dashboard
          </Button>
          <SignOutButton />
        </>
      }
    >
      <TitlePortal />
    </AppBar>
  );
}

/** The menu shows only what the role may open (the API's access policy decides). */
function ConsoleMenu() {
  const analytics = useCan('dashboard', 'list');
  const queues = useCan('queues', 'list');
  // The console's routes sit under /admin (react-admin's basename); Menu.Item links are absolute.
  const basename = useBasename();
  return (
    <Menu>
      {analytics && <Menu.Item to={`${basename}/`} primaryText="Analytics" leftIcon={<AnalyticsIcon />} />}
      {RESOURCE_NAMES.map((name) => (
        <MenuResource key={name} name={name} />
      ))}
      {queues && <Menu.Item to={`${basename}/queues`} primaryText="Queues" leftIcon={<ViewListIcon />} />}
    </Menu>
  );
}

function MenuResource({ name }: { name: (typeof RESOURCE_NAMES)[number] }) {
  const visible = useCan(name, 'list');
  return visible ? <Menu.ResourceItem name={name} /> : null;
}

export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={ConsoleAppBar} menu={ConsoleMenu}>
      {children}
    </Layout>
  );
}
