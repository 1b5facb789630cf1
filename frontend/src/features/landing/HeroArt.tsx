import { Badge, Box, type BoxProps } from '@chakra-ui/react';
import { BrandMark } from '../../components/BrandMark';
import { CatalogPicture } from '../catalog/CatalogPicture';
import { useCatalog } from '../catalog/useCatalog';
import { heroPictures } from './landing-catalog';

// A 3:4 arch: the top corners' radii are half the width, i.e. 37.5 % of the height.
const archRadius = {
  borderTopLeftRadius: '50% 37.5%',
  borderTopRightRadius: '50% 37.5%',
  borderBottomRadius: '2xl',
} as const;

/**
 * A catalogue picture filling its frame (300 x 400, sized so nothing shifts while it loads). The
 * hero's pictures are the first screen's largest (on a phone the before/after pair side by side):
 * fetched first, and the pre-rendered page preloads them.
 */
function Artwork({ src }: { src: string }) {
  return (
    // the img as a child: Chakra's element does not pass fetchPriority on
    <CatalogPicture asChild src={src} decoding="async" position="absolute" inset="0" w="full" h="full">
      <img fetchPriority="high" />
    </CatalogPicture>
  );
}

/**
 * The fitting-room mirror beside the hero title: the catalogue's first look ("after") with the
 * same figure in everyday clothes ("before") as a small card in front. Until the catalogue has
 * answered, the empty mirror with the brand's hanger. Decorative: the before/after grid below
 * says the same in words.
 */
export function HeroArt(props: BoxProps) {
  const { data: catalog } = useCatalog();
  const look = catalog ? heroPictures(catalog) : undefined;
  return (
    <Box aria-hidden="true" position="relative" w="full" maxW="sm" {...props}>
      <Box
        {...archRadius}
        aspectRatio={3 / 4}
        w="full"
        position="relative"
        overflow="hidden"
        bgGradient="to-br"
        gradientFrom="brand.100"
        gradientVia="sand.100"
        gradientTo="brand.200"
        boxShadow="0 40px 80px -40px {colors.brand.800/40}"
      >
        {look ? (
          <Artwork src={look.after} />
        ) : (
          <BrandMark position="absolute" top="50%" left="50%" translate="-50% -50%" boxSize="36%" color="brand.400" />
        )}
        {/* Soft reflection on the glass. */}
        <Box position="absolute" inset="0" bgImage="radial-gradient(ellipse at 28% 18%, {colors.white/55}, transparent 55%)" />
        {/* Inner frame. */}
        <Box
          position="absolute"
          inset="5"
          borderTopLeftRadius="50% 36%"
          borderTopRightRadius="50% 36%"
          borderBottomRadius="xl"
          borderWidth="1px"
          borderColor="brand.300"
        />
        {look ? (
          <Badge position="absolute" right="6" bottom="6" variant="solid" bg="brand.solid" color="white" borderRadius="full" px="3">
            After
          </Badge>
        ) : null}
      </Box>
      {look ? (
        <Box
          position="absolute"
          left="-10"
          bottom="-8"
          w="40%"
          aspectRatio={3 / 4}
          borderRadius="xl"
          overflow="hidden"
          borderWidth="4px"
          borderColor="bg.panel"
          bg="bg.muted"
          boxShadow="0 20px 40px -20px {colors.brand.900/45}"
        >
          <Artwork src={look.before} />
          <Badge position="absolute" left="2" bottom="2" size="sm" variant="solid" bg="sand.800" color="white" borderRadius="full" px="2.5">
            Before
          </Badge>
        </Box>
      ) : null}
    </Box>
  );
}

/** The hero's picture on phones and tablets: the same before/after pair, side by side. */
export function HeroArtCompact(props: BoxProps) {
  const { data: catalog } = useCatalog();
  const look = catalog ? heroPictures(catalog) : undefined;
  const frames = [
    { label: 'Before', src: look?.before, badge: 'sand.800' },
    { label: 'After', src: look?.after, badge: 'brand.solid' },
  ];
  return (
    <Box aria-hidden="true" display="grid" gridTemplateColumns="1fr 1fr" gap="3" w="full" maxW="md" {...props}>
      {frames.map(({ label, src, badge }) => (
        <Box
          key={label}
          {...archRadius}
          position="relative"
          overflow="hidden"
          aspectRatio={3 / 4}
          bgGradient="to-br"
          gradientFrom="brand.100"
          gradientTo="sand.100"
          boxShadow="0 24px 48px -32px {colors.brand.800/45}"
        >
          {src ? <Artwork src={src} /> : null}
          <Badge
            position="absolute"
            left="50%"
            translate="-50% 0"
            bottom="3"
            size="sm"
            variant="solid"
            bg={badge}
            color="white"
            borderRadius="full"
            px="2.5"
          >
            {label}
          </Badge>
        </Box>
      ))}
    </Box>
  );
}
