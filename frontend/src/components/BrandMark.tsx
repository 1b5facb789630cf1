import { Icon, type IconProps } from '@chakra-ui/react';

/** The brand's hanger glyph (the favicon draws the same paths). Decorative: hidden from readers. */
export function BrandMark(props: IconProps) {
  return (
    <Icon {...props}>
      <svg viewBox="0 0 32 32" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M13 8.5a3 3 0 1 1 4.2 2.75c-.75.33-1.2 1.05-1.2 1.87V14" />
        <path d="M16 14 4.6 22.1a1.6 1.6 0 0 0 .93 2.9h20.94a1.6 1.6 0 0 0 .93-2.9Z" />
      </svg>
    </Icon>
  );
}
