import { Box, Button, Container, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { preloadAuthDialog } from '../auth/AuthDialogHost';
import { useDemoPath } from '../auth/useDemoPath';
import { HeroArt, HeroArtCompact } from './HeroArt';

export function HeroSection() {
  const demoPath = useDemoPath();
  return (
    <Box as="section" aria-labelledby="hero-title">
      <Container maxW="7xl" py={{ base: '14', md: '20', lg: '24' }}>
        <Grid templateColumns={{ base: '1fr', lg: '1.15fr 0.85fr' }} gap={{ base: '10', lg: '16' }} alignItems="center">
          <Stack gap={{ base: '5', md: '6' }} maxW="2xl">
            <Text textTransform="uppercase" letterSpacing="widest" fontSize="xs" fontWeight="semibold" color="brand.fg">
              AI virtual try-on
            </Text>
            <Heading
              as="h1"
              id="hero-title"
              fontSize={{ base: '4xl', md: '6xl', lg: '7xl' }}
              lineHeight="1.05"
              letterSpacing="tight"
              fontWeight="medium"
              textWrap="balance"
            >
              See Yourself in Any Outfit Before You Buy
            </Heading>
            <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" textWrap="pretty">
              Upload a photo, choose an outfit and see how it looks on you in seconds.
            </Text>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3" pt="2">
              <Button asChild size="xl" px="8">
                {/* the dialog opens over this page: the page stays where the visitor is */}
                <RouterLink to={paths.signUp} preventScrollReset onPointerEnter={preloadAuthDialog} onFocus={preloadAuthDialog}>
                  Get started
                </RouterLink>
              </Button>
              <Button asChild size="xl" px="8" variant="outline" bg="bg.panel">
                <RouterLink
                  to={demoPath}
                  preventScrollReset={demoPath === paths.demoSignUp}
                  onPointerEnter={preloadAuthDialog}
                  onFocus={preloadAuthDialog}
                >
                  Watch demo
                </RouterLink>
              </Button>
            </Stack>
          </Stack>
          <HeroArt hideBelow="lg" justifySelf="end" />
          <HeroArtCompact hideFrom="lg" justifySelf="center" />
        </Grid>
      </Container>
    </Box>
  );
}
