import { Box, type BoxProps } from '@chakra-ui/react';
import { BrandMark } from '../../components/BrandMark';

// A 3:4 arch: the top corners' radii are half the width, i.e. 37.5 % of the height.
const archRadius = {
  borderTopLeftRadius: '50% 37.5%',
  borderTopRightRadius: '50% 37.5%',
  borderBottomRadius: '2xl',
} as const;

/** Decorative fitting-room mirror beside the hero title; real before/after images come later. */
export function HeroArt(props: BoxProps) {
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
        {/* Soft reflection on the glass. */}
        <Box
          position="absolute"
          inset="0"
          bgImage="radial-gradient(ellipse at 28% 18%, {colors.white/75}, transparent 55%)"
        />
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
        <BrandMark
          position="absolute"
          top="50%"
          left="50%"
          translate="-50% -50%"
          boxSize="36%"
          color="brand.400"
        />
      </Box>
    </Box>
  );
}
