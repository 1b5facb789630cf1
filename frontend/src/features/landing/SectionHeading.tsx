import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  /** `dark` for a section on a dark background. */
  tone?: 'light' | 'dark';
}

/** The heading block of a landing section: a small label, the h2 (its id labels the section), a line of text. */
export function SectionHeading({ id, eyebrow, title, children, tone = 'light' }: SectionHeadingProps) {
  const dark = tone === 'dark';
  return (
    <Stack gap="3" textAlign="center" align="center" maxW="2xl" mx="auto" mb={{ base: '8', md: '12' }}>
      <Text textTransform="uppercase" letterSpacing="widest" fontSize="xs" fontWeight="semibold" color={dark ? 'brand.200' : 'brand.fg'}>
        {eyebrow}
      </Text>
      <Heading
        as="h2"
        lineHeight="1.2"
        id={id}
        fontSize={{ base: '3xl', md: '4xl' }}
        fontWeight="medium"
        letterSpacing="tight"
        textWrap="balance"
        color={dark ? 'white' : 'fg'}
      >
        {title}
      </Heading>
      {children ? (
        <Text color={dark ? 'sand.200' : 'fg.muted'} fontSize={{ base: 'md', md: 'lg' }} textWrap="pretty">
          {children}
        </Text>
      ) : null}
    </Stack>
  );
}
