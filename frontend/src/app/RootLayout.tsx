import { SkipNavLink } from '@chakra-ui/react';
import { Outlet, ScrollRestoration } from 'react-router';
import { MAIN_CONTENT_ID } from './layout-ids';

/** The root route: what every screen shares, whatever its layout. */
export function RootLayout() {
  return (
    <>
      <SkipNavLink id={MAIN_CONTENT_ID}>Skip to content</SkipNavLink>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
