import { Box, Button, Container, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { BUSINESS_EMAIL, SUPPORT_EMAIL } from '../../config/app-config';
import type { ReactNode } from 'react';

/** When the legal texts last changed; shown under each page title. */
export const LEGAL_LAST_UPDATED = '21 November 2026';

/** Support's promised answer time (docs/product.md). */
export const SUPPORT_RESPONSE_TIME = '24-48 hours';

function hasHistory(): boolean {
  // React Router numbers the entries of this tab's history it created: 0 is the first page seen.
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * Opened by a link of this site that loaded the page afresh (before the app ran there): the
 * browser's own Back returns. The Navigation API lists only this site's entries of the tab; where
 * it is missing, a same-origin referrer says the same (when the referrer policy sends one).
 */
function cameFromThisSite(): boolean {
  const navigation = (window as { navigation?: { currentEntry?: { index: number } | null } }).navigation;
  if (navigation?.currentEntry) return navigation.currentEntry.index > 0;
  try {
    return window.history.length > 1 && document.referrer !== '' && new URL(document.referrer).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** Back to the previous page, or home when this page was the first one opened in the tab. */
export function BackButton() {
  const navigate = useNavigate();
  return (
    <Button
      variant="ghost"
      size="sm"
      ms="-3"
      onClick={() => {
        if (hasHistory()) void navigate(-1);
        else if (cameFromThisSite()) window.history.back();
        else void navigate(paths.home);
      }}
    >
      <span aria-hidden="true">←</span> Back
    </Button>
  );
}

interface LegalPageProps {
  title: string;
  /** One or two sentences on what the page covers. */
  summary: ReactNode;
  children: ReactNode;
}

/** The frame of the terms, privacy and refund pages: Back, the title, the text in a readable column. */
export function LegalPage({ title, summary, children }: LegalPageProps) {
  useDocumentTitle(title);
  return (
    <Container maxW="3xl" py={{ base: '6', md: '10' }} px={{ base: '5', md: '8' }}>
      <Stack gap="6">
        <Box>
          <BackButton />
        </Box>
        <Stack gap="3" pb="2" borderBottomWidth="1px" borderColor="border">
          <Heading as="h1" lineHeight="1.2" fontSize={{ base: '3xl', md: '5xl' }} fontWeight="medium" letterSpacing="tight">
            {title}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            Last updated {LEGAL_LAST_UPDATED}
          </Text>
          <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" textWrap="pretty" pb="4">
            {summary}
          </Text>
        </Stack>
        <Stack gap="8" fontSize={{ base: 'md', md: 'md' }} lineHeight="tall">
          {children}
        </Stack>
      </Stack>
    </Container>
  );
}

/** A numbered part of a legal text: an h2 and its paragraphs. */
export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  const id = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return (
    <Stack as="section" gap="3" aria-labelledby={id}>
      <Heading as="h2" lineHeight="1.2" id={id} fontSize={{ base: 'xl', md: '2xl' }} fontWeight="medium" scrollMarginTop="6">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

export function P({ children }: { children: ReactNode }) {
  return <Text textWrap="pretty">{children}</Text>;
}

export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <List.Root ps="5" gap="2">
      {items.map((item, index) => (
        <List.Item key={index}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

/** A link inside a legal text to another page of the app. */
export function PageLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link asChild color="brand.fg" textDecoration="underline" textUnderlineOffset="3px">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

export function MailLink({ address }: { address: string }) {
  return (
    <Link href={`mailto:${address}`} color="brand.fg" textDecoration="underline" textUnderlineOffset="3px" wordBreak="break-all">
      {address}
    </Link>
  );
}

/** Who to write to (SUPPORT_EMAIL and BUSINESS_EMAIL from the server's configuration). */
export function LegalContacts() {
  return (
    <LegalSection title="Contact us">
      <Bullets
        items={[
          <>
            Support: <MailLink address={SUPPORT_EMAIL} />
          </>,
          <>
            Billing: <MailLink address={SUPPORT_EMAIL} />
          </>,
          <>
            Privacy: <MailLink address={SUPPORT_EMAIL} />
          </>,
          <>
            Legal: <MailLink address={SUPPORT_EMAIL} />
          </>,
          <>
            Business and partnerships: <MailLink address={BUSINESS_EMAIL} />
          </>,
        ]}
      />
      <P>
        We answer support requests within {SUPPORT_RESPONSE_TIME}. To ask for an image of you to be taken down, use{' '}
        <PageLink to={paths.contact}>Contact / Report an image</PageLink>.
      </P>
    </LegalSection>
  );
}
