import { Box, Container, Flex, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { APP_NAME, BUSINESS_EMAIL, SUPPORT_EMAIL } from '../../config/app-config';
import { useDemoPath } from '../../features/auth/useDemoPath';
import { ApiStatusLine } from '../../features/health/ApiStatusLine';
import { Wordmark } from '../Wordmark';

const footerLinks = (demoPath: string) => [
  { to: paths.pricing, label: 'Pricing' },
  { to: demoPath, label: 'Demo' },
  { to: paths.privacy, label: 'Privacy' },
  { to: paths.terms, label: 'Terms' },
  { to: paths.refund, label: 'Refund policy' },
  { to: paths.contact, label: 'Contact / Report an image' },
];

// a function: the addresses are the server's configuration, read at render time (config/app-config.ts)
const mailLinks = () =>
  [
    { address: SUPPORT_EMAIL, label: 'Support' },
    { address: BUSINESS_EMAIL, label: 'Business' },
  ] as const;

/** Footer of the public pages: links, the support and business addresses, copyright and the API status line. */
export function SiteFooter() {
  const demoPath = useDemoPath();
  return (
    <Box as="footer" borderTopWidth="1px" borderColor="border" bg="bg.subtle">
      <Container maxW="7xl" py={{ base: '8', md: '10' }}>
        <Stack gap="6">
          <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'flex-start', md: 'center' }} gap="4">
            <Wordmark />
            <HStack as="nav" aria-label="Footer" gap={{ base: '4', md: '6' }} wrap="wrap">
              {footerLinks(demoPath).map(({ to, label }) => (
                <Link key={to} asChild color="fg.muted" fontSize="sm" _hover={{ color: 'brand.fg' }}>
                  <RouterLink to={to}>{label}</RouterLink>
                </Link>
              ))}
            </HStack>
          </Flex>
          <HStack gap={{ base: '4', md: '6' }} wrap="wrap" fontSize="sm" color="fg.muted">
            {mailLinks().map(({ address, label }) => (
              <Text key={label}>
                {label}:{' '}
                <Link
                  href={`mailto:${address}`}
                  color="fg"
                  textDecoration="underline"
                  textUnderlineOffset="3px"
                  wordBreak="break-all"
                  _hover={{ color: 'brand.fg' }}
                >
                  {address}
                </Link>
              </Text>
            ))}
          </HStack>
          <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" gap="2" fontSize="sm" color="fg.muted">
            <Text>
              © {new Date().getFullYear()} {APP_NAME}. For adults 18 and over.
            </Text>
            <ApiStatusLine />
          </Flex>
        </Stack>
      </Container>
    </Box>
  );
}
