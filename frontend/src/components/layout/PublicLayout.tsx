import { Flex, chakra } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { MAIN_CONTENT_ID } from '../../app/layout-ids';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

/** Layout of the public pages: top bar, the page, footer. */
export function PublicLayout() {
  return (
    <Flex direction="column" minH="100dvh">
      <SiteHeader />
      <chakra.main id={MAIN_CONTENT_ID} tabIndex={-1} flex="1" display="flex" flexDirection="column" outline="none">
        <Outlet />
      </chakra.main>
      <SiteFooter />
    </Flex>
  );
}
