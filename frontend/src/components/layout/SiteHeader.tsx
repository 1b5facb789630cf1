import { Box, Button, Container, HStack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { preloadAuthDialog } from '../../features/auth/AuthDialogHost';
import { useAuth } from '../../features/auth/useAuth';
import { Wordmark } from '../Wordmark';

// Narrow phones: tighter padding so the whole wordmark and all three actions fit on one row (390 px and up;
// from 380 px down the wordmark drops its glyph).
const navButtonSize = { size: { base: 'sm', md: 'md' }, px: { base: '2', md: '4' } } as const;

/** Top bar of the public pages: wordmark, Pricing, and Log in and Sign up (or, signed in, the studio). */
export function SiteHeader() {
  const { status } = useAuth();
  return (
    <Box as="header" borderBottomWidth="1px" borderColor="border" bg="bg">
      <Container maxW="7xl" py={{ base: '3', md: '4' }}>
        <HStack justify="space-between" gap={{ base: '1.5', md: '4' }}>
          <Wordmark />
          <HStack as="nav" aria-label="Main" gap={{ base: '0', md: '2' }} flexShrink="0">
            <Button asChild variant="ghost" {...navButtonSize}>
              <RouterLink to={paths.pricing}>Pricing</RouterLink>
            </Button>
            {status === 'signed-in' ? (
              // Signed in: one way back to the studio (the dashboard) instead of Log in and Sign up.
              <Button asChild variant="solid" {...navButtonSize}>
                <RouterLink to={paths.try}>Open studio</RouterLink>
              </Button>
            ) : (
              <>
                <Button asChild variant="ghost" {...navButtonSize}>
                  <RouterLink to={paths.logIn} onPointerEnter={preloadAuthDialog} onFocus={preloadAuthDialog}>
                    Log in
                  </RouterLink>
                </Button>
                <Button asChild variant="solid" {...navButtonSize}>
                  <RouterLink to={paths.signUp} onPointerEnter={preloadAuthDialog} onFocus={preloadAuthDialog}>
                    Sign up
                  </RouterLink>
                </Button>
              </>
            )}
          </HStack>
        </HStack>
      </Container>
    </Box>
  );
}
