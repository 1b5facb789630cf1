import { Box, Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../app/paths';
import { APP_NAME } from '../config/app-config';
import { BrandMark } from './BrandMark';

/** The product name as a link home. */
export function Wordmark() {
  return (
    <Link
      asChild
      display="inline-flex"
      alignItems="center"
      gap={{ base: '1.5', md: '2' }}
      fontFamily="heading"
      fontSize={{ base: 'lg', sm: 'xl', md: '2xl' }}
      fontWeight="semibold"
      letterSpacing="tight"
      color="fg"
      whiteSpace="nowrap"
      minW="0"
      _hover={{ textDecoration: 'none', color: 'brand.fg' }}
    >
      <RouterLink to={paths.home}>
        <BrandMark
          color="brand.solid"
          boxSize="1.1em"
          flexShrink="0"
          // The smallest phones (360 px) need the room for the name and the top bar's actions.
          css={{ '@media (max-width: 379px)': { display: 'none' } }}
        />
        <Box as="span" truncate>
          {APP_NAME}
        </Box>
      </RouterLink>
    </Link>
  );
}
