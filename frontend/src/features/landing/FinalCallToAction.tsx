import { Box, Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { preloadAuthDialog } from '../auth/AuthDialogHost';

/** The closing call to action: Get started free (the sign-up dialog) and View pricing. */
export function FinalCallToAction() {
  return (
    <Box as="section" aria-labelledby="cta-title">
      <Container maxW="7xl" pb={{ base: '14', md: '20' }}>
        <Stack
          gap="5"
          align="center"
          textAlign="center"
          px={{ base: '6', md: '12' }}
          py={{ base: '12', md: '16' }}
          borderRadius="3xl"
          bgGradient="to-br"
          gradientFrom="brand.700"
          gradientTo="brand.900"
          color="white"
        >
          <Heading
            as="h2"
            lineHeight="1.2"
            id="cta-title"
            fontSize={{ base: '3xl', md: '5xl' }}
            fontWeight="medium"
            letterSpacing="tight"
            textWrap="balance"
            color="white"
          >
            Ready to see yourself in something new?
          </Heading>
          <Text fontSize={{ base: 'md', md: 'lg' }} color="brand.100" maxW="xl" textWrap="pretty">
            Create your free account and try your first look in under a minute.
          </Text>
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3" pt="2" w={{ base: 'full', sm: 'auto' }}>
            <Button asChild size="xl" px="8" bg="white" color="brand.800" _hover={{ bg: 'brand.50' }}>
              {/* the dialog opens over this page: closed, it leaves the visitor here, not at the top */}
              <RouterLink to={paths.signUp} preventScrollReset onPointerEnter={preloadAuthDialog} onFocus={preloadAuthDialog}>
                Get started free
              </RouterLink>
            </Button>
            <Button asChild size="xl" px="8" variant="outline" color="white" borderColor="whiteAlpha.700" _hover={{ bg: 'whiteAlpha.200' }}>
              <RouterLink to={paths.pricing}>View pricing</RouterLink>
            </Button>
          </Stack>
        </Stack>
      </Container>
    </Box>
  );
}
