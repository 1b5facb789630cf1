import { chakra, type HTMLChakraProps } from '@chakra-ui/react';

/** The catalogue's pictures (templates, scenes, "before" figures) are 300 x 400 SVGs. */
export const CATALOG_PICTURE = { width: 300, height: 400 } as const;

/**
 * A catalogue picture: its intrinsic size given up front, so that the layout stays still while it
 * loads, and cropped to fill its box. Decorative unless an `alt` is given.
 */
export function CatalogPicture({ alt = '', ...props }: HTMLChakraProps<'img'>) {
  return <chakra.img alt={alt} htmlWidth={CATALOG_PICTURE.width} htmlHeight={CATALOG_PICTURE.height} objectFit="cover" {...props} />;
}
