import { Badge, Box, Container, Grid, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { keyframes } from '@emotion/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { CatalogPicture } from '../catalog/CatalogPicture';
import { categoryShowcase, landingPicture } from './landing-catalog';
import { PlayIcon } from './landing-icons';
import { SectionHeading } from './SectionHeading';
import type { Catalog } from '../catalog/catalog-helpers';

/** A slow push-in and sway: the still artwork hints at a short try-on clip. */
const drift = keyframes`
  0% { transform: scale(1) translate3d(0, 0, 0) rotate(0deg); }
  50% { transform: scale(1.06) translate3d(-1.5%, -1%, 0) rotate(-0.6deg); }
  100% { transform: scale(1.1) translate3d(1.5%, -2%, 0) rotate(0.6deg); }
`;
const progress = keyframes`
  from { transform: scaleX(0); }
  to { transform: scaleX(1); }
`;

const CLIPS = 4;

/**
 * The video try-on grid: four looks (the second template of the first categories) as short clips
 * that play (CSS only) while the pointer rests on them; never for people who ask for reduced
 * motion. Nothing moves on its own, so the page settles. Hidden when video is off.
 */
export function VideoTryOnGrid({ catalog, loading }: { catalog: Catalog | undefined; loading: boolean }) {
  if (catalog && !catalog.features.video) return null;
  if (!catalog && !loading) return null;
  const clips = catalog ? categoryShowcase(catalog, 1).slice(0, CLIPS) : [];
  return (
    <Box as="section" aria-labelledby="video-title" bg="sand.900" color="white">
      <Container maxW="7xl" py={{ base: '14', md: '20' }}>
        <SectionHeading id="video-title" eyebrow="Video try-on" title="See the outfit move" tone="dark">
          Turn a try-on into a short video: walk, turn and see how the look falls.
          {catalog ? ` A video costs ${catalog.videoSurcharge} credits more than the same image.` : ''}
        </SectionHeading>
        <Grid as="ul" listStyleType="none" templateColumns={{ base: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' }} gap={{ base: '3', md: '5' }}>
          {catalog
            ? clips.map(({ category, template }, index) => (
                <Stack as="li" key={category.id} gap="3" className="group">
                  <Box position="relative" borderRadius="2xl" overflow="hidden" aspectRatio="3 / 4" bg="sand.800">
                    <CatalogPicture
                      src={landingPicture(template.thumbnail)}
                      alt={`Video try-on: ${template.name} (${category.label})`}
                      loading="lazy"
                      decoding="async"
                      display="block"
                      w="full"
                      h="full"
                      transition="transform 0.6s ease"
                      _groupHover={{ animation: `${drift} 7s ease-in-out infinite alternate` }}
                      _motionReduce={{ _groupHover: { animation: 'none' } }}
                    />
                    <Badge
                      position="absolute"
                      top="2.5"
                      left="2.5"
                      variant="solid"
                      bg="blackAlpha.700"
                      color="white"
                      borderRadius="full"
                      gap="1"
                      px="2.5"
                    >
                      <PlayIcon boxSize="3.5" />
                      Video
                    </Badge>
                    <Box
                      position="absolute"
                      insetX="3"
                      bottom="3"
                      h="1"
                      borderRadius="full"
                      bg="whiteAlpha.500"
                      overflow="hidden"
                      aria-hidden="true"
                    >
                      <Box
                        h="full"
                        bg="white"
                        transformOrigin="left"
                        transform={`scaleX(${0.25 + index * 0.15})`}
                        _groupHover={{ animation: `${progress} 7s linear infinite` }}
                        _motionReduce={{ _groupHover: { animation: 'none' } }}
                      />
                    </Box>
                  </Box>
                  <Box>
                    <Text fontWeight="medium" color="white">
                      {template.name}
                    </Text>
                    <Text fontSize="sm" color="sand.200">
                      {category.label}
                    </Text>
                  </Box>
                </Stack>
              ))
            : Array.from({ length: CLIPS }, (_, i) => (
                <Box as="li" key={i}>
                  <Skeleton aspectRatio="3 / 4" borderRadius="2xl" />
                </Box>
              ))}
        </Grid>
        <HStack justify="center" mt={{ base: '8', md: '10' }}>
          <Link
            asChild
            color="brand.200"
            fontWeight="medium"
            textDecoration="underline"
            textUnderlineOffset="4px"
            _hover={{ color: 'white' }}
          >
            <RouterLink to={paths.pricing}>See which plans include video</RouterLink>
          </Link>
        </HStack>
      </Container>
    </Box>
  );
}
