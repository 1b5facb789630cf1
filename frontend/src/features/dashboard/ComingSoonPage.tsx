import { Card, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { DashboardPageHeader } from './DashboardPageHeader';

/** A dashboard screen whose content comes in a later release: says so plainly, inside the shell. */
export function ComingSoonPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <>
      <DashboardPageHeader title={title} />
      <Card.Root variant="subtle" bg="bg.subtle">
        <Card.Body>
          <Text color="fg.muted">This screen is coming in a later release.</Text>
        </Card.Body>
      </Card.Root>
    </>
  );
}
