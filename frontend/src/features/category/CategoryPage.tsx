import { Badge, Box, Button, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { LockIcon } from '../../components/icons';
import { PageSpinner } from '../../components/PageSpinner';
import { type Catalog, categoryBySlug, categoryTemplates, tierName } from '../catalog/catalog-helpers';
import { useCatalog, useCatalogTierSync } from '../catalog/useCatalog';
import { LoadFailed } from '../dashboard/LoadFailed';
import { GeneratePanel } from '../generate/GeneratePanel';
import { GenerationList } from '../generations/GenerationList';
import { meQueryOptions } from '../profile/profile-queries';
import { TemplateCard } from './TemplateCard';
import { UpgradeDialog } from './UpgradeDialog';
import type { CatalogTemplateDto } from '@fitting-room/api-client';

const RESULTS_HEADING_ID = 'category-generations';

function SectionHeading({ id, children }: { id?: string; children: string }) {
  return (
    <Heading id={id} as="h2" fontFamily="heading" fontWeight="medium" fontSize={{ base: 'xl', md: '2xl' }} scrollMarginTop="20">
      {children}
    </Heading>
  );
}

/** "n locked templates • Upgrade to unlock more options", with the way to the plans. */
function LockedBanner({ count }: { count: number }) {
  return (
    <HStack
      role="note"
      gap="3"
      justify="space-between"
      wrap="wrap"
      px="4"
      py="3"
      borderRadius="xl"
      bg="brand.subtle"
      borderWidth="1px"
      borderColor="brand.muted"
    >
      <HStack gap="2" color="brand.fg" fontSize="sm" fontWeight="medium">
        <LockIcon flexShrink="0" />
        <Text>
          {count} locked {count === 1 ? 'template' : 'templates'} • Upgrade to unlock more options
        </Text>
      </HStack>
      <Button asChild size="sm" variant="solid">
        <RouterLink to={paths.pricing}>View plans</RouterLink>
      </Button>
    </HStack>
  );
}

/** Not in the catalogue: a category switched off by configuration (Spicy) or unknown. */
function CategoryUnavailable() {
  return (
    <Stack gap="4" align="flex-start" py="8">
      <Heading as="h1" fontFamily="heading" fontWeight="medium" fontSize="2xl">
        This category is not available
      </Heading>
      <Text color="fg.muted">It may have been switched off. Every other category is in the menu.</Text>
      <Button asChild variant="outline">
        <RouterLink to={paths.generations}>Go to All Generations</RouterLink>
      </Button>
    </Stack>
  );
}

function CategoryScreen({ catalog, slug }: { catalog: Catalog; slug: string }) {
  const category = categoryBySlug(catalog, slug);
  const { data: me } = useQuery(meQueryOptions);
  useCatalogTierSync(catalog, me?.tier);
  useDocumentTitle(category?.label ?? 'Category not available');

  const templates = useMemo(() => (category ? categoryTemplates(catalog, category) : []), [catalog, category]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [upgradeFor, setUpgradeFor] = useState<CatalogTemplateDto | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const selected = templates.find((template) => template.id === selectedId && !template.locked) ?? null;
  const lockedCount = templates.filter((template) => template.locked).length;
  const tier = me?.tier ?? catalog.viewer.tier;

  // When the panel first appears below the fold, bring it into view.
  const hadSelection = useRef(false);
  useEffect(() => {
    if (selected && !hadSelection.current) {
      const panel = panelRef.current;
      if (panel && panel.getBoundingClientRect().top > window.innerHeight - 120) {
        const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        panel.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
      }
    }
    hadSelection.current = selected !== null;
  }, [selected]);

  if (!category) return <CategoryUnavailable />;

  const choose = (template: CatalogTemplateDto) => {
    if (template.locked) setUpgradeFor(template);
    else setSelectedId((current) => (current === template.id ? current : template.id));
  };

  return (
    <Stack gap={{ base: '8', md: '10' }}>
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'flex-start', sm: 'center' }} gap="3">
        <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="medium" letterSpacing="tight">
          {category.label}
        </Heading>
        <HStack gap="2" wrap="wrap">
          <Badge size="lg" variant="subtle" colorPalette="brand">
            Credits: {me ? me.credits : '…'}
          </Badge>
          <Badge size="lg" variant="outline" colorPalette="gray">
            Tier: {tierName(catalog, tier)}
          </Badge>
        </HStack>
      </Stack>

      <Stack as="section" aria-labelledby="choose-template" gap="4">
        <HStack justify="space-between" align="baseline" wrap="wrap" gap="2">
          <SectionHeading id="choose-template">Choose a Template</SectionHeading>
          <Text fontSize="sm" color="fg.muted">
            {templates.length} templates
          </Text>
        </HStack>
        {lockedCount > 0 ? <LockedBanner count={lockedCount} /> : null}
        <SimpleGrid
          as="ul"
          listStyle="none"
          columns={{ base: 2, sm: 3, lg: 4 }}
          gap={{ base: '3', md: '4' }}
          aria-labelledby="choose-template"
        >
          {templates.map((template) => (
            <li key={template.id}>
              <TemplateCard
                template={template}
                tierName={tierName(catalog, template.requiredTier)}
                selected={template.id === selected?.id}
                onChoose={choose}
              />
            </li>
          ))}
        </SimpleGrid>
      </Stack>

      <Box ref={panelRef} scrollMarginTop="20">
        {selected ? (
          <GeneratePanel
            catalog={catalog}
            category={category}
            template={selected}
            credits={me?.credits}
            resultsHeadingId={RESULTS_HEADING_ID}
          />
        ) : (
          <Box borderWidth="1px" borderStyle="dashed" borderColor="border" borderRadius="xl" px="6" py="5" color="fg.muted" fontSize="sm">
            Choose a template above to generate your look.
          </Box>
        )}
      </Box>

      <Stack as="section" aria-labelledby={RESULTS_HEADING_ID} gap="4">
        <SectionHeading id={RESULTS_HEADING_ID}>{`Your ${category.label} Generations`}</SectionHeading>
        <GenerationList
          category={category.id}
          labelledBy={RESULTS_HEADING_ID}
          empty={
            <Text color="fg.muted" fontSize="sm" py="4">
              No {category.label} generations yet. Your looks will appear here.
            </Text>
          }
        />
      </Stack>

      <UpgradeDialog catalog={catalog} template={upgradeFor} onClose={() => setUpgradeFor(null)} />
    </Stack>
  );
}

/**
 * A category screen (docs/product.md): the header with credits and tier,
 * "Choose a Template", the "Generate Your Look" panel once a template is picked, and the
 * category's generations. The route renders it with `key={slug}`: changing category starts afresh
 * (template, pose and photos reset).
 */
export function CategoryPage({ slug }: { slug: string }) {
  const { data: catalog, isPending, isError, refetch } = useCatalog();
  if (isPending) return <PageSpinner label="Loading the templates" />;
  if (isError) return <LoadFailed message="Failed to load the templates" onRetry={() => void refetch()} />;
  return <CategoryScreen catalog={catalog} slug={slug} />;
}
