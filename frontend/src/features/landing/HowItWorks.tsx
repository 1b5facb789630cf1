import { Box, Circle, Container, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { PHOTO_RULES } from '../generate/photo-rules';
import { HangerIcon, SparkleIcon, UploadIcon } from './landing-icons';
import { SectionHeading } from './SectionHeading';

const steps = [
  {
    icon: UploadIcon,
    title: `Upload up to ${PHOTO_RULES.maxPhotos} photos`,
    text: 'Add a few clear photos of yourself. They stay private to your account.',
  },
  {
    icon: HangerIcon,
    title: 'Choose outfit templates',
    text: 'Browse looks in every category, then pick a pose or a scene, or describe your own.',
  },
  {
    icon: SparkleIcon,
    title: 'Get instant results',
    text: 'See yourself in the outfit in 10-30 seconds, in HD, ready to download.',
  },
] as const;

/** "How It Works": the three steps (upload, choose, get results). */
export function HowItWorks() {
  return (
    <Box as="section" aria-labelledby="how-it-works-title" bg="bg.panel" borderYWidth="1px" borderColor="border">
      <Container maxW="7xl" py={{ base: '14', md: '20' }}>
        <SectionHeading id="how-it-works-title" eyebrow="Three steps" title="How It Works" />
        <Grid as="ol" listStyleType="none" templateColumns={{ base: '1fr', md: 'repeat(3, 1fr)' }} gap={{ base: '5', md: '8' }}>
          {steps.map(({ icon: StepIcon, title, text }, index) => (
            <Stack as="li" key={title} gap="3" p={{ base: '6', md: '8' }} borderRadius="2xl" bg="bg" borderWidth="1px" borderColor="border">
              <Box position="relative" w="fit-content">
                <Circle size="12" bg="brand.subtle" color="brand.fg">
                  <StepIcon />
                </Circle>
                <Circle
                  size="6"
                  position="absolute"
                  top="-1"
                  right="-2"
                  bg="brand.solid"
                  color="brand.contrast"
                  fontSize="xs"
                  fontWeight="bold"
                  aria-hidden="true"
                >
                  {index + 1}
                </Circle>
              </Box>
              <Heading as="h3" lineHeight="1.2" fontSize="xl" fontWeight="medium">
                <Box as="span" srOnly>
                  Step {index + 1}:{' '}
                </Box>
                {title}
              </Heading>
              <Text color="fg.muted">{text}</Text>
            </Stack>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}
