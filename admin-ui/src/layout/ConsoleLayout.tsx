import AnalyticsIcon from '@mui/icons-material/Analytics';
import DashboardIcon from '@mui/icons-material/Dashboard';
import LogoutIcon from '@mui/icons-material/Logout';
import ViewListIcon from '@mui/icons-material/ViewList';
import { Button, IconButton, Tooltip, useMediaQuery, type Theme } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { AppBar, Layout, LoadingIndicator, Menu, TitlePortal, useBasename, useNotify } from 'react-admin';
import { useCan } from '../auth/role';
import { goToLanding, sessionStore } from '../auth/session';
import { RESOURCE_NAMES } from '../resources';

/** Phones (below `sm`, 600 px): the app bar's buttons are icons with their names, so the title has the room. */
const useCompact = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

/** Sign Out: ends the session on the server (and in the user app's tabs), then the landing page. */
function SignOutButton() {
  const notify = useNotify();
  const compact = useCompact();
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    try {
      await sessionStore.signOut();
      goToLanding();
    } catch (error) {
      setBusy(false);
      notify(error instanceof Error ? error.message : 'Sign out failed', { type: 'error' });
    }
  };
  return compact ? (
    <Tooltip title="Sign Out">
      <span>
        <IconButton color="inherit" aria-label="Sign Out" disabled={busy} onClick={signOut}>
          <LogoutIcon />
        </IconButton>
      </span>
    </Tooltip>
  ) : (
    <Button color="inherit" startIcon={<LogoutIcon />} disabled={busy} onClick={signOut}>
      Sign Out
    </Button>
  );
}

/** The user app: a full page load, it is another application. */
function UserAppLink() {
  return useCompact() ? (
    <Tooltip title="Dashboard">
      <IconButton color="inherit" href="/dashboard" aria-label="Dashboard">
        <DashboardIcon />
      </IconButton>
    </Tooltip>
  ) : (
    <Button color="inherit" href="/dashboard" startIcon={<DashboardIcon />}>
      Dashboard
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
          <UserAppLink />
          <SignOutButton />
        </>
      }
    >
      {/* the page's title, its one h1 (every page sets it with <Title> or its List/Show title), takes the
          room left and may shrink (the title itself is short: "Analytics", "Users") */}
      <TitlePortal component="h1" sx={{ minWidth: 0 }} />
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

/**
 * On a phone the page never scrolls sideways (docs/console.md): the content may shrink below its
 * widest child, and a list's table scrolls inside its own box.
 */
const FIT_THE_SCREEN = {
  // react-admin's layout is at least as wide as its content ('fit-content'): the screen's width instead
  minWidth: 0,
  '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 },
  '& .RaList-main, & .RaShow-main, & .RaShow-card': { minWidth: 0 },
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
} as const;

export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={ConsoleAppBar} menu={ConsoleMenu} sx={FIT_THE_SCREEN}>
      {children}
    </Layout>
  );
}
