import { Badge, Box, Button, chakra, Container, Grid, Heading, List, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { CheckIcon } from '../../components/icons';
import { sessionKnown, useAuth, useSessionStore } from '../auth/useAuth';
import { type Catalog, formatPrice } from '../catalog/catalog-helpers';
import { useCatalog } from '../catalog/useCatalog';
import { isBusy, useCheckout } from '../subscription/billing-actions';
import { PricingFaq } from './PricingFaq';
import type { CatalogPackDto, CatalogPlanDto } from '@fitting-room/api-client';

/** "70 + 5 bonus credits", or "20 credits" for a pack without a bonus. */
export function packCreditsLabel(pack: CatalogPackDto): string {
  return pack.bonus > 0 ? `${pack.credits} + ${pack.bonus} bonus credits` : `${pack.credits} credits`;
}

/** The pricing page (route /pricing): the catalogue's four plans and four credit packs, and the FAQ. */
export function PricingPage() {
  useDocumentTitle('Pricing');
  const { data: catalog, isPending, isError, refetch } = useCatalog();
  const { user } = useAuth();
  const store = useSessionStore();
  const navigate = useNavigate();
  const { start, busy } = useCheckout();
  // the Free plan needs no payment: signed in, its button leads to the Subscription page (Cancel plan);
  // a click while the session is still being restored waits for it
  const chooseFree = () => void sessionKnown(store).then((status) => navigate(status === 'signed-in' ? paths.subscription : paths.try));

  return (
    <Box>
      <Container maxW="7xl" pt={{ base: '10', md: '16' }} pb={{ base: '8', md: '12' }}>
        <Stack gap="4" textAlign="center" align="center" maxW="2xl" mx="auto">
          <Text textTransform="uppercase" letterSpacing="widest" fontSize="xs" fontWeight="semibold" color="brand.fg">
            Pricing
          </Text>
          <Heading
            as="h1"
            lineHeight="1.2"
            fontSize={{ base: '4xl', md: '5xl' }}
            fontWeight="medium"
            letterSpacing="tight"
            textWrap="balance"
          >
            Simple plans for every wardrobe
          </Heading>
          <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" textWrap="pretty">
            Start free, upgrade when you want more looks. Every try-on costs credits; plans refill them every month and credit packs top
            them up.
          </Text>
        </Stack>
      </Container>

      <Container maxW="7xl" pb={{ base: '14', md: '20' }}>
        {isError ? (
          <Stack align="center" gap="3" py="10" textAlign="center" role="alert">
            <Text>The plans could not be loaded.</Text>
            <Button variant="outline" onClick={() => void refetch()}>
              Try again
            </Button>
          </Stack>
        ) : (
          <Stack gap={{ base: '14', md: '20' }}>
            <Box as="section" aria-labelledby="plans-title">
              <Heading as="h2" id="plans-title" srOnly>
                Monthly plans
              </Heading>
              <Grid templateColumns={{ base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(4, 1fr)' }} gap="5" alignItems="stretch">
                {isPending
                  ? [0, 1, 2, 3].map((i) => <Skeleton key={i} h="md" borderRadius="2xl" />)
                  : catalog.plans.map((plan) => (
                      <PlanCard
                        key={plan.id}
                        plan={plan}
                        current={user?.tier === plan.id}
                        busy={isBusy(busy, { plan: plan.id })}
                        onChoose={plan.price === 0 ? chooseFree : () => start({ plan: plan.id })}
                      />
                    ))}
              </Grid>
            </Box>

            <Box as="section" aria-labelledby="packs-title">
              <Stack gap="2" mb="6">
                <Heading as="h2" lineHeight="1.2" id="packs-title" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="medium">
                  Credit packs
                </Heading>
                <Text color="fg.muted">One-off top-ups on any plan. Purchased credits never expire.</Text>
              </Stack>
              <Grid templateColumns={{ base: '1fr', sm: 'repeat(2, 1fr)', xl: 'repeat(4, 1fr)' }} gap="4">
                {isPending
                  ? [0, 1, 2, 3].map((i) => <Skeleton key={i} h="44" borderRadius="2xl" />)
                  : catalog.packs.map((pack) => (
                      <PackCard key={pack.id} pack={pack} busy={isBusy(busy, { pack: pack.id })} onBuy={() => start({ pack: pack.id })} />
                    ))}
              </Grid>
            </Box>

            <PricingFaq catalog={catalog as Catalog | undefined} />
          </Stack>
        )}
      </Container>
    </Box>
  );
}

function PlanCard({ plan, current, busy, onChoose }: { plan: CatalogPlanDto; current: boolean; busy: boolean; onChoose(): void }) {
  const headingId = `plan-${plan.id}`;
  return (
    <Stack
      as="article"
      aria-labelledby={headingId}
      position="relative"
      gap="5"
      p={{ base: '6', md: '7' }}
      bg="bg.panel"
      borderWidth={plan.mostPopular ? '2px' : '1px'}
      borderColor={plan.mostPopular ? 'brand.solid' : 'border'}
      borderRadius="2xl"
      boxShadow={plan.mostPopular ? '0 24px 48px -28px {colors.brand.800/45}' : 'none'}
    >
      <Stack gap="2">
        {plan.mostPopular ? (
          // On the card's top edge, so every card's content starts at the same height.
          <Badge
            position="absolute"
            top="0"
            left="50%"
            translate="-50% -50%"
            colorPalette="brand"
            variant="solid"
            size="md"
            borderRadius="full"
            px="3"
            whiteSpace="nowrap"
          >
            Most popular
          </Badge>
        ) : null}
        <Heading as="h3" lineHeight="1.2" id={headingId} fontSize="xl" fontWeight="medium">
          {plan.displayName}
        </Heading>
        <Text>
          <chakra.span fontSize="4xl" fontWeight="semibold" letterSpacing="tight">
            {formatPrice(plan.price, plan.currency)}
          </chakra.span>
          <chakra.span color="fg.muted"> / month</chakra.span>
        </Text>
        <Text fontWeight="medium" color="brand.fg">
          {plan.monthlyCredits} credits every month
        </Text>
        <Text fontSize="sm" color="fg.muted" textWrap="pretty">
          {plan.description}
        </Text>
      </Stack>
      <List.Root variant="plain" gap="2.5" fontSize="sm" flex="1">
        {plan.features.map((feature) => (
          <List.Item key={feature} alignItems="flex-start">
            <List.Indicator asChild color="brand.solid" mt="0.5">
              <CheckIcon />
            </List.Indicator>
            {feature}
          </List.Item>
        ))}
      </List.Root>
      {current ? (
        <Button variant="outline" disabled>
          Your current plan
        </Button>
      ) : (
        <Button variant={plan.mostPopular ? 'solid' : 'outline'} onClick={onChoose} loading={busy}>
          {plan.price === 0 ? 'Start free' : `Choose ${plan.name}`}
        </Button>
      )}
    </Stack>
  );
}

function PackCard({ pack, busy, onBuy }: { pack: CatalogPackDto; busy: boolean; onBuy(): void }) {
  const headingId = `pack-${pack.id}`;
  return (
    <Stack as="article" aria-labelledby={headingId} gap="4" p="6" bg="bg.panel" borderWidth="1px" borderColor="border" borderRadius="2xl">
      <Stack gap="1">
        <Heading as="h3" lineHeight="1.2" id={headingId} fontSize="lg" fontWeight="medium">
          {packCreditsLabel(pack)}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {pack.bonus > 0 ? `${pack.totalCredits} credits in total` : 'No bonus'}
        </Text>
      </Stack>
      <Text fontSize="2xl" fontWeight="semibold">
        {formatPrice(pack.price, pack.currency)}
      </Text>
      <Button variant="outline" onClick={onBuy} loading={busy}>
        Buy {pack.totalCredits} credits
      </Button>
    </Stack>
  );
}
