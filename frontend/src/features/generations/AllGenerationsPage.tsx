import { Button, EmptyState, HStack, VStack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { SparkleIcon } from '../../components/icons';
import { useCatalog } from '../catalog/useCatalog';
import { DashboardPageHeader } from '../dashboard/DashboardPageHeader';
import { GenerationList } from './GenerationList';

export const NO_GENERATIONS = 'No generations yet. Start creating in any category!';

/** The empty state, with a way into each category the catalogue offers. */
function NoGenerations() {
  const { data: catalog } = useCatalog();
  return (
    <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderColor="border" borderRadius="xl" bg="bg.panel">
      <EmptyState.Content>
        <EmptyState.Indicator color="brand.solid">
          <SparkleIcon boxSize="8" />
        </EmptyState.Indicator>
        <VStack textAlign="center" gap="4">
          <EmptyState.Title as="p" fontFamily="heading" fontWeight="medium" fontSize="lg">
            {NO_GENERATIONS}
          </EmptyState.Title>
          {catalog ? (
            <HStack as="nav" aria-label="Categories" wrap="wrap" justify="center" gap="2">
              {catalog.categories.map((category) => (
                <Button key={category.id} asChild size="sm" variant="outline">
                  <RouterLink to={category.path}>{category.label}</RouterLink>
                </Button>
              ))}
            </HStack>
          ) : null}
        </VStack>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

/** All Generations (docs/product.md): every completed generation of the user, newest first. */
export function AllGenerationsPage() {
  useDocumentTitle('All Generations');
  return (
    <>
      <DashboardPageHeader title="All Generations" description="Every look you have created, newest first." />
      <GenerationList empty={<NoGenerations />} />
    </>
  );
}
