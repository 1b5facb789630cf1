import { Box, CloseButton, Container, Drawer, Flex, HStack, IconButton, Icon, Portal, chakra } from '@chakra-ui/react';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { MAIN_CONTENT_ID } from '../../app/layout-ids';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { Wordmark } from '../../components/Wordmark';
import { PreviewModeBanner } from '../health/PreviewModeNote';
import { PaymentFailedBanner } from '../subscription/PaymentFailedBanner';
import { useReturnToConsole } from './ConsoleLink';
import { DashboardNav } from './DashboardNav';
import { VerifyEmailBanner } from './VerifyEmailBanner';

function MenuIcon() {
  return (
    <Icon boxSize="5">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M4 6h16M4 12h16M4 18h16" />
      </svg>
    </Icon>
  );
}

/** Phones and tablets: a top bar with the wordmark and a menu button that opens the navigation. */
function MobileTopBar() {
  const [open, setOpen] = useState(false);
  const dismissGuard = useOutsideDismissGuard();
  return (
    <HStack
      as="header"
      hideFrom="lg"
      justify="space-between"
      px="4"
      py="3"
      bg="bg"
      borderBottomWidth="1px"
      borderColor="border"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      <Wordmark />
      <Drawer.Root
        onInteractOutside={dismissGuard.onInteractOutside}
        placement="start"
        open={open}
        onOpenChange={(details) => setOpen(details.open)}
        lazyMount
        unmountOnExit
      >
        <Drawer.Trigger asChild>
          <IconButton aria-label="Open menu" variant="ghost">
            <MenuIcon />
          </IconButton>
        </Drawer.Trigger>
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content ref={dismissGuard.contentRef} maxW="xs">
              <Drawer.Header>
                <Drawer.Title fontFamily="heading" fontSize="lg">
                  Menu
                </Drawer.Title>
              </Drawer.Header>
              <Drawer.Body display="flex" flexDirection="column" pb="6">
                <DashboardNav onNavigate={() => setOpen(false)} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close menu" />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </HStack>
  );
}

/**
 * The signed-in app's shell (docs/product.md): a sidebar with the wordmark and the navigation on
 * wide screens, a top bar with a menu drawer on phones, and the current screen beside or below.
 */
export function DashboardLayout() {
  useReturnToConsole();
  return (
    <Flex minH="100dvh" bg="bg">
      <Flex
        as="aside"
        hideBelow="lg"
        direction="column"
        gap="8"
        w="64"
        flexShrink="0"
        px="4"
        py="6"
        position="sticky"
        top="0"
        h="100dvh"
        overflowY="auto"
        bg="bg.panel"
        borderRightWidth="1px"
        borderColor="border"
      >
        <Box px="3">
          <Wordmark />
        </Box>
        <DashboardNav />
      </Flex>
      <Flex direction="column" flex="1" minW="0">
        <MobileTopBar />
        <chakra.main id={MAIN_CONTENT_ID} tabIndex={-1} outline="none" flex="1">
          <Container maxW="5xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '8' }}>
            <VerifyEmailBanner />
            <PaymentFailedBanner />
            <PreviewModeBanner />
            <Outlet />
          </Container>
        </chakra.main>
      </Flex>
    </Flex>
  );
}
