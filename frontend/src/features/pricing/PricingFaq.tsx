import { Box, chakra, Heading, Stack, Text } from '@chakra-ui/react';
import { paths } from '../../app/paths';
import { type Catalog, formatPrice } from '../catalog/catalog-helpers';
import { PageLink } from '../legal/LegalPage';
import type { ReactNode } from 'react';

interface Question {
  question: string;
  answer: ReactNode;
}

/** "1-3": the range of a generation's image cost, from the catalogue's scenes and custom pose. */
function imageCostRange(catalog: Catalog): string {
  const costs = [...catalog.scenes.map((scene) => scene.creditCost), catalog.customPose.creditCost];
  const min = Math.min(...costs);
  const max = Math.max(...costs);
  return min === max ? `${min}` : `${min}-${max}`;
}

function questions(catalog: Catalog | undefined): Question[] {
  const free = catalog?.plans.find((plan) => plan.price === 0);
  return [
    {
      question: 'What is a credit?',
      answer: catalog ? (
        <>
          Credits pay for try-ons. An image costs {imageCostRange(catalog)} credits depending on the pose or scene, and a video costs{' '}
          {catalog.videoSurcharge} credits more than the same image. The cost is always shown before you generate, and credits are only
          taken when your result is delivered.
        </>
      ) : (
        'Credits pay for try-ons. The cost depends on the pose or scene and is always shown before you generate; credits are only taken when your result is delivered.'
      ),
    },
    {
      question: 'Do unused credits roll over?',
      answer:
        'Subscription credits reset monthly: unused subscription credits do not roll over to the next month. Credits from packs never expire.',
    },
    {
      question: 'Can I try it for free?',
      answer: free ? (
        <>
          Yes. The {free.displayName} costs {formatPrice(free.price, free.currency)} and includes {free.monthlyCredits} credits every month,
          with no credit card required. Free results are a watermarked preview.
        </>
      ) : (
        'Yes. The Free plan includes monthly credits, with no credit card required. Free results are a watermarked preview.'
      ),
    },
    {
      question: 'What happens when I cancel?',
      answer:
        'You can cancel at any time. You keep your plan and its credits until the end of the current billing period, then your account moves to the Free plan. Pack credits stay in your account.',
    },
    {
      question: 'Can I get a refund?',
      answer: (
        <>
          All purchases are final and non-refundable. If you were charged by mistake, tell us within 7 days and we will fix it. Read the
          full <PageLink to={paths.refund}>Refund Policy</PageLink>.
        </>
      ),
    },
    {
      question: 'Will prices change?',
      answer: 'If a price changes, we tell you at least 30 days before it applies to you, so you can decide in time.',
    },
    {
      question: 'Are my photos private?',
      answer: (
        <>
          Yes. Your photos and results are visible only to you, are never shared, and you can delete everything at any time. See the{' '}
          <PageLink to={paths.privacy}>Privacy Policy</PageLink>.
        </>
      ),
    },
  ];
}

const Details = chakra('details');
const Summary = chakra('summary');

/** The pricing FAQ: native disclosure widgets (keyboard and screen-reader friendly without script). */
export function PricingFaq({ catalog }: { catalog: Catalog | undefined }) {
  return (
    <Box as="section" aria-labelledby="faq-title" maxW="3xl" w="full" mx="auto">
      <Heading as="h2" lineHeight="1.2" id="faq-title" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="medium" mb="6" textAlign="center">
        Frequently asked questions
      </Heading>
      <Stack gap="3">
        {questions(catalog).map(({ question, answer }) => (
          <Details
            key={question}
            bg="bg.panel"
            borderWidth="1px"
            borderColor="border"
            borderRadius="xl"
            css={{ '&[open] .faq-chevron': { transform: 'rotate(180deg)' } }}
          >
            <Summary
              display="flex"
              justifyContent="space-between"
              alignItems="center"
              gap="4"
              px="5"
              py="4"
              cursor="pointer"
              fontWeight="medium"
              listStyle="none"
              borderRadius="xl"
              css={{ '&::-webkit-details-marker': { display: 'none' } }}
              _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
            >
              {question}
              <chakra.svg
                className="faq-chevron"
                aria-hidden="true"
                viewBox="0 0 24 24"
                w="5"
                h="5"
                flexShrink="0"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
                transition="transform 0.2s"
                color="brand.fg"
              >
                <path d="m6 9 6 6 6-6" />
              </chakra.svg>
            </Summary>
            <Text px="5" pb="5" color="fg.muted" textWrap="pretty">
              {answer}
            </Text>
          </Details>
        ))}
      </Stack>
    </Box>
  );
}
