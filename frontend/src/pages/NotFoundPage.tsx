import { Box, Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../app/paths';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { BrandMark } from '../components/BrandMark';

/** An empty fitting-room arch with a hanger: decorative. */
function EmptyRailArt() {
  return (
    <Box
      aria-hidden="true"
      position="relative"
      w={{ base: '32', md: '40' }}
      aspectRatio={3 / 4}
      borderTopLeftRadius="50% 37.5%"
      borderTopRightRadius="50% 37.5%"
      borderBottomRadius="xl"
      bgGradient="to-b"
      gradientFrom="brand.100"
      gradientTo="sand.100"
      borderWidth="1px"
      borderColor="brand.200"
    >
      <BrandMark position="absolute" top="22%" left="50%" translate="-50% 0" boxSize="45%" color="brand.400" />
    </Box>
  );
}

/** Any URL the app has no screen for: says so plainly and offers the way home. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  const { pathname } = useLocation();

  return (
    <Center flex="1" px="6" py={{ base: '16', md: '24' }}>
      <Stack gap="5" align="center" textAlign="center" maxW="lg">
        <EmptyRailArt />
        <Text fontSize="sm" fontWeight="semibold" letterSpacing="widest" color="brand.fg">
          ERROR 404
        </Text>
        <Heading as="h1" lineHeight="1.2" fontSize={{ base: '3xl', md: '5xl' }} fontWeight="medium" letterSpacing="tight">
          Page not found
        </Heading>
        <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }} textWrap="pretty">
          Nothing hangs on this rail: the page{' '}
          <Box as="code" fontFamily="mono" fontSize="0.9em" bg="bg.muted" px="1.5" py="0.5" borderRadius="sm" wordBreak="break-all">
            {pathname}
          </Box>{' '}
          does not exist or has moved.
        </Text>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" pt="2" w={{ base: 'full', sm: 'auto' }}>
          <Button asChild size="lg">
            <RouterLink to={paths.home}>Go to the home page</RouterLink>
          </Button>
          <Button asChild size="lg" variant="outline">
            <RouterLink to={paths.pricing}>See pricing</RouterLink>
          </Button>
        </Stack>
      </Stack>
    </Center>
  );
}
