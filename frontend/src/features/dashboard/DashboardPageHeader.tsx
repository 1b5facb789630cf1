import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The one h1 of a dashboard screen, with an optional line below it. */
export function DashboardPageHeader({ title, description }: { title: string; description?: ReactNode }) {
  return (
    <Stack gap="1" mb={{ base: '6', md: '8' }}>
      <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="medium" letterSpacing="tight">
        {title}
      </Heading>
      {description ? <Text color="fg.muted">{description}</Text> : null}
    </Stack>
  );
}
