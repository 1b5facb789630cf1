import { Badge, Box, Container, Grid, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { CatalogPicture } from '../catalog/CatalogPicture';
import { beforeArtworkUrl, type CategoryShowcase, categoryShowcase, landingPicture } from './landing-catalog';
import { SectionHeading } from './SectionHeading';
import type { Catalog } from '../catalog/catalog-helpers';

function Picture({ src, alt, label }: { src: string; alt: string; label: string }) {
  return (
    <Box position="relative" borderRadius="xl" overflow="hidden" bg="bg.muted" aspectRatio="3 / 4">
      <CatalogPicture src={src} alt={alt} loading="lazy" decoding="async" display="block" w="full" h="full" />
      <Badge
        position="absolute"
        left="2"
        bottom="2"
        size="sm"
        variant="solid"
        borderRadius="full"
        px="2.5"
        bg={label === 'After' ? 'brand.solid' : 'sand.800'}
        color="white"
        aria-hidden="true"
      >
        {label}
      </Badge>
    </Box>
  );
}

function BeforeAfterCard({ category, template }: CategoryShowcase) {
  return (
    <Stack as="li" gap="3" p="3" pb="4" bg="bg.panel" borderWidth="1px" borderColor="border" borderRadius="2xl">
      <Grid templateColumns="1fr 1fr" gap="2">
        <Picture src={landingPicture(beforeArtworkUrl(template))} alt={`${category.label}, before: in everyday clothes`} label="Before" />
        <Picture src={landingPicture(template.thumbnail)} alt={`${category.label}, after: wearing the ${template.name}`} label="After" />
      </Grid>
      <Box px="1">
        <Heading as="h3" lineHeight="1.2" fontSize="lg" fontWeight="medium">
          {category.label}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {template.name}
        </Text>
      </Box>
    </Stack>
  );
}

/** Before/after pairs, one per category of the catalogue: the same figure in everyday clothes, then in an outfit. */
export function BeforeAfterGrid({ catalog, loading }: { catalog: Catalog | undefined; loading: boolean }) {
  if (!catalog && !loading) return null;
  return (
    <Box as="section" aria-labelledby="before-after-title">
      <Container maxW="7xl" py={{ base: '14', md: '20' }}>
        <SectionHeading id="before-after-title" eyebrow="Before and after" title="One photo, every category">
          The same person, first in everyday clothes, then trying on a look from each category.
        </SectionHeading>
        <Grid
          as="ul"
          listStyleType="none"
          templateColumns={{ base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' }}
          gap={{ base: '4', md: '6' }}
        >
          {catalog
            ? categoryShowcase(catalog).map((item) => <BeforeAfterCard key={item.category.id} {...item} />)
            : Array.from({ length: 6 }, (_, i) => (
                <Box as="li" key={i} p="3" bg="bg.panel" borderWidth="1px" borderColor="border" borderRadius="2xl">
                  <Grid templateColumns="1fr 1fr" gap="2">
                    <Skeleton aspectRatio="3 / 4" borderRadius="xl" />
                    <Skeleton aspectRatio="3 / 4" borderRadius="xl" />
                  </Grid>
                  <Skeleton h="12" mt="3" borderRadius="md" />
                </Box>
              ))}
        </Grid>
      </Container>
    </Box>
  );
}
