import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../app/paths';
import { useDocumentTitle } from '../app/useDocumentTitle';

/** Any URL the app has no screen for. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');

  return (
    <Center flex="1" px="6" py="24">
      <Stack gap="4" align="center" textAlign="center" maxW="md">
        <Text fontSize="sm" fontWeight="semibold" letterSpacing="widest" color="brand.fg">
          404
        </Text>
        <Heading as="h1" fontSize={{ base: '3xl', md: '4xl' }} fontWeight="medium">
          Page not found
        </Heading>
        <Text color="fg.muted">The page you are looking for does not exist or has moved.</Text>
        <Button asChild mt="2">
          <RouterLink to={paths.home}>Go to the home page</RouterLink>
        </Button>
      </Stack>
    </Center>
  );
}
