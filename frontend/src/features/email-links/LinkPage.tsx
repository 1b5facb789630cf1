import { Card, Container, Heading, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The frame of a page a mailed link opens: one card, its h1, and what happened. */
export function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container maxW="lg" py={{ base: '10', md: '16' }} px={{ base: '4', md: '6' }}>
      <Card.Root>
        <Card.Body>
          <Stack gap="5">
            <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="medium" letterSpacing="tight">
              {title}
            </Heading>
            {children}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Container>
  );
}
