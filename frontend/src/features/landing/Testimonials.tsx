import { Box, Circle, Container, Grid, HStack, Stack, Text } from '@chakra-ui/react';
import { APP_NAME } from '../../config/app-config';
import { SectionHeading } from './SectionHeading';

/**
 * Three static testimonials (docs/product.md). Initials instead of portraits: no photos of real people.
 * A function: the product name is read at render time (config/app-config.ts).
 */
const testimonials = () =>
  [
    {
      quote: 'I tried three summer dresses on myself before ordering one. It is the first time nothing went back.',
      name: 'Maya R.',
      detail: 'Dresses',
    },
    {
      quote: `Finding a swimsuit online used to be guesswork. With ${APP_NAME} I could see the cut on me in seconds.`,
      name: 'Jess T.',
      detail: 'Bikini',
    },
    {
      quote: 'The video try-on sold me: watching the leggings move is so much better than a flat product photo.',
      name: 'Priya K.',
      detail: 'Active Wear',
    },
  ] as const;

export function Testimonials() {
  return (
    <Box as="section" aria-labelledby="testimonials-title">
      <Container maxW="7xl" py={{ base: '14', md: '20' }}>
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="Loved by people who shop online" />
        <Grid as="ul" listStyleType="none" templateColumns={{ base: '1fr', md: 'repeat(3, 1fr)' }} gap={{ base: '4', md: '6' }}>
          {testimonials().map(({ quote, name, detail }) => (
            <Stack
              as="li"
              key={name}
              gap="5"
              p={{ base: '6', md: '8' }}
              borderRadius="2xl"
              bg="bg.panel"
              borderWidth="1px"
              borderColor="border"
              justify="space-between"
            >
              <Box as="figure" m="0">
                <Text as="blockquote" fontFamily="heading" fontSize={{ base: 'lg', md: 'xl' }} lineHeight="snug" textWrap="pretty">
                  “{quote}”
                </Text>
                <HStack as="figcaption" gap="3" mt="5">
                  <Circle size="10" bg="brand.subtle" color="brand.fg" fontWeight="semibold" fontSize="sm" aria-hidden="true">
                    {name
                      .split(' ')
                      .map((part) => part[0])
                      .join('')}
                  </Circle>
                  <Box>
                    <Text fontWeight="medium">{name}</Text>
                    <Text fontSize="sm" color="fg.muted">
                      Tried on: {detail}
                    </Text>
                  </Box>
                </HStack>
              </Box>
            </Stack>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}
