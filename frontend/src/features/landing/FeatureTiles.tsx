import { Box, Circle, Container, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { BoltIcon, DownloadIcon, GiftIcon, GridIcon, HdIcon, PlayIcon, PoseIcon, ShieldIcon } from './landing-icons';
import { SectionHeading } from './SectionHeading';
import type { Catalog } from '../catalog/catalog-helpers';

/** "Bikini, Lingerie and Dresses": the catalogue's category labels as a phrase. */
function listPhrase(labels: string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

function tiles(catalog: Catalog | undefined) {
  const free = catalog?.plans.find((plan) => plan.price === 0);
  const categories = catalog?.categories.map((category) => category.label) ?? [];
  return [
    { icon: BoltIcon, title: 'Results in 10-30 seconds', text: 'No waiting rooms: your try-on is ready while you browse.' },
    { icon: HdIcon, title: 'HD quality', text: 'Sharp, detailed results you can zoom into and keep.' },
    {
      icon: ShieldIcon,
      title: 'Private by design',
      text: 'Your photos are encrypted in transit, visible only to you and never shared.',
    },
    {
      icon: GiftIcon,
      title: 'Free to start',
      text: free
        ? `${free.monthlyCredits} free credits every month. No credit card required.`
        : 'Your first try-on is free. No credit card required.',
    },
    {
      icon: GridIcon,
      title: categories.length ? `${categories.length} categories` : 'Every category',
      text: categories.length ? `${listPhrase(categories)}.` : 'Swimwear, dresses, active wear, sleepwear and more.',
    },
    { icon: PoseIcon, title: 'Poses and scenes', text: 'Pick a scene for every look, or describe a pose of your own.' },
    { icon: PlayIcon, title: 'Video try-on', text: 'Bring a look to life with a short clip of you wearing it.' },
    { icon: DownloadIcon, title: 'Yours to keep', text: 'Download every result, and delete any of them whenever you like.' },
  ];
}

/** Eight feature tiles: the product's landing claims (speed, HD, privacy, free start) and what the studio offers. */
export function FeatureTiles({ catalog }: { catalog: Catalog | undefined }) {
  return (
    <Box as="section" aria-labelledby="features-title" bg="bg.panel" borderYWidth="1px" borderColor="border">
      <Container maxW="7xl" py={{ base: '14', md: '20' }}>
        <SectionHeading id="features-title" eyebrow="Why people love it" title="Everything you need to shop with confidence" />
        <Grid
          as="ul"
          listStyleType="none"
          templateColumns={{ base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' }}
          gap={{ base: '4', md: '5' }}
        >
          {tiles(catalog).map(({ icon: TileIcon, title, text }) => (
            <Stack as="li" key={title} gap="3" p="6" borderRadius="2xl" bg="bg" borderWidth="1px" borderColor="border">
              <Circle size="11" bg="brand.subtle" color="brand.fg">
                <TileIcon />
              </Circle>
              <Heading as="h3" lineHeight="1.2" fontSize="lg" fontWeight="medium">
                {title}
              </Heading>
              <Text fontSize="sm" color="fg.muted" textWrap="pretty">
                {text}
              </Text>
            </Stack>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}
