import { Badge, Button, Card, chakra, HStack, List, SimpleGrid, Stack, Stat, type StatRootProps, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { CheckIcon } from '../../components/icons';
import { PageSpinner } from '../../components/PageSpinner';
import { notify } from '../../components/toaster';
import { useAuth } from '../auth/useAuth';
import { type Catalog, formatCredits, formatPrice, planFor } from '../catalog/catalog-helpers';
import { useCatalog } from '../catalog/useCatalog';
import { DashboardPageHeader } from '../dashboard/DashboardPageHeader';
import { LoadFailed } from '../dashboard/LoadFailed';
import { meQueryOptions } from '../profile/profile-queries';
import { tierLabel } from '../profile/tier-label';
import { useBillingPortal } from './billing-actions';
import { CHECKOUT_POLL_MS, CheckoutOutcome, useCheckoutOutcome, useCreditsArrival } from './CheckoutOutcome';
import type { CatalogPlanDto, ProfileResponseDto } from '@fitting-room/api-client';

export const SUBSCRIPTION_LOAD_FAILED = 'Failed to load subscription data';

function CreditStat({ label, value, help, ...props }: StatRootProps & { label: string; value: number; help?: string }) {
  return (
    <Stat.Root borderWidth="1px" borderColor="border" borderRadius="lg" p={{ base: '3', md: '4' }} {...props}>
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText fontFamily="heading" fontWeight="medium">
        {value}
      </Stat.ValueText>
      {help ? (
        // In a <dl> only <dt> and <dd> may stand: the help text is a second description.
        <Stat.HelpText asChild color="fg.muted">
          <dd>{help}</dd>
        </Stat.HelpText>
      ) : null}
    </Stat.Root>
  );
}

/** Credits remaining, and where they come from: the plan's (monthly, no rollover) and bought ones (never expire). */
function CreditStats({ plan, profile }: { plan: CatalogPlanDto | undefined; profile: ProfileResponseDto }) {
  const { subscription, purchased, held } = profile.credit_balance;
  return (
    <SimpleGrid columns={{ base: 2, md: 3 }} gap={{ base: '3', md: '4' }} mt="6">
      <CreditStat
        gridColumn={{ base: 'span 2', md: 'auto' }}
        label="Credits remaining"
        value={profile.credits}
        help={held > 0 ? `${formatCredits(held)} held by a generation in progress` : undefined}
      />
      <CreditStat
        label="Plan credits"
        value={subscription}
        help={plan ? `${formatCredits(plan.monthlyCredits)} each month, without rollover` : 'Reset each month, without rollover'}
      />
      <CreditStat label="Pack credits" value={purchased} help="Purchased; never expire" />
    </SimpleGrid>
  );
}

/** The plan's name, description, price, credits remaining and (below the top tier) Upgrade Plan. */
function CurrentPlan({ plan, profile, isTopTier }: { plan: CatalogPlanDto | undefined; profile: ProfileResponseDto; isTopTier: boolean }) {
  return (
    <Card.Root as="section" aria-labelledby="current-plan">
      <Card.Body>
        <Stack direction={{ base: 'column', md: 'row' }} gap="6" justify="space-between" align={{ base: 'stretch', md: 'flex-start' }}>
          <Stack gap="2" minW="0">
            <Text fontSize="sm" color="fg.muted">
              Current plan
            </Text>
            <HStack gap="3" wrap="wrap">
              <chakra.h2 id="current-plan" fontFamily="heading" fontWeight="medium" fontSize={{ base: '2xl', md: '3xl' }}>
                {plan?.displayName ?? tierLabel(profile.tier)}
              </chakra.h2>
              {plan && plan.price > 0 ? (
                <Badge size="lg" variant="subtle" colorPalette="brand">
                  {formatPrice(plan.price, plan.currency)} per month
                </Badge>
              ) : null}
            </HStack>
            {plan ? <Text color="fg.muted">{plan.description}</Text> : null}
          </Stack>
          {isTopTier ? null : (
            <Button asChild flexShrink="0" alignSelf={{ base: 'flex-start', md: 'auto' }}>
              <RouterLink to={paths.pricing}>Upgrade Plan</RouterLink>
            </Button>
          )}
        </Stack>
        <CreditStats plan={plan} profile={profile} />
      </Card.Body>
    </Card.Root>
  );
}

/** "Your Plan Includes": the plan's features, as the catalogue lists them. */
function PlanIncludes({ plan }: { plan: CatalogPlanDto }) {
  return (
    <Card.Root as="section" aria-labelledby="plan-includes">
      <Card.Header>
        <Card.Title as="h2" id="plan-includes">
          Your Plan Includes
        </Card.Title>
      </Card.Header>
      <Card.Body>
        <List.Root variant="plain" gap="3">
          {plan.features.map((feature) => (
            <List.Item key={feature} alignItems="flex-start">
              <List.Indicator asChild color="brand.solid" mt="1">
                <CheckIcon />
              </List.Indicator>
              {feature}
            </List.Item>
          ))}
          <List.Item alignItems="flex-start">
            <List.Indicator asChild color="brand.solid" mt="1">
              <CheckIcon />
            </List.Indicator>
            {formatCredits(plan.monthlyCredits)} every month
          </List.Item>
        </List.Root>
      </Card.Body>
    </Card.Root>
  );
}

/** Billing without Stripe keys (spec: a non-functional Update Payment Method): the button is there, disabled, and says why. */
function BillingComingSoon() {
  const hintId = useId();
  return (
    <Card.Root as="section" aria-labelledby="billing">
      <Card.Header>
        <Card.Title as="h2" id="billing">
          Billing
        </Card.Title>
        <Card.Description id={hintId}>Checkout is coming soon: there is no payment method to update yet.</Card.Description>
      </Card.Header>
      <Card.Body>
        <div>
          <Button variant="outline" disabled aria-describedby={hintId}>
            Update Payment Method
          </Button>
        </div>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Billing through Stripe: "Update Payment Method" and (on a paid plan) "Cancel plan" open Stripe's
 * billing portal, once the account has bought something (before that there is nothing to manage).
 */
function Billing({ profile }: { profile: ProfileResponseDto }) {
  const hintId = useId();
  const { open, busy } = useBillingPortal();
  const billing = profile.billing;
  if (!billing?.payments_enabled) return <BillingComingSoon />;
  const portal = billing.portal_available;
  return (
    <Card.Root as="section" aria-labelledby="billing">
      <Card.Header>
        <Card.Title as="h2" id="billing">
          Billing
        </Card.Title>
        <Card.Description id={hintId}>
          {portal
            ? 'Payment methods, invoices and cancelling are handled by Stripe, our payment provider. A cancelled plan keeps its access until the end of the period.'
            : 'Your payment method is kept by Stripe, our payment provider, once you choose a plan or buy a credit pack.'}
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <HStack gap="3" wrap="wrap">
          <Button variant="outline" disabled={!portal} aria-describedby={hintId} loading={busy} onClick={open}>
            Update Payment Method
          </Button>
          {portal && profile.tier !== 'free' ? (
            <Button variant="outline" colorPalette="red" loading={busy} onClick={open}>
              Cancel plan
            </Button>
          ) : null}
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function SubscriptionContent({ catalog, profile }: { catalog: Catalog; profile: ProfileResponseDto }) {
  const plan = planFor(catalog, profile.tier);
  const isTopTier = catalog.tiers.at(-1) === profile.tier;
  return (
    <Stack gap="6">
      <CurrentPlan plan={plan} profile={profile} isTopTier={isTopTier} />
      {plan ? <PlanIncludes plan={plan} /> : null}
      <Billing profile={profile} />
    </Stack>
  );
}

/** Subscription (docs/product.md): the current plan, its credits and features, and Billing. */
export function SubscriptionPage() {
  useDocumentTitle('Subscription');
  const { outcome, dismiss } = useCheckoutOutcome();
  // back from a payment: the profile is read again until the webhook's plan or credits show
  const polling = useRef(false);
  const me = useQuery({ ...meQueryOptions, refetchInterval: () => (polling.current ? CHECKOUT_POLL_MS : false) });
  const arrival = useCreditsArrival(outcome === 'success', me.data);
  useEffect(() => {
    polling.current = outcome === 'success' && arrival === 'waiting';
  }, [outcome, arrival]);
  // the session's copy of the tier (the pricing page marks the current plan with it)
  const { user, updateUser } = useAuth();
  const tier = me.data?.tier;
  useEffect(() => {
    if (user && tier && user.tier !== tier) updateUser({ tier });
  }, [user, tier, updateUser]);
  const catalog = useCatalog();
  const isError = me.isError || catalog.isError;

  useEffect(() => {
    if (isError) notify.error({ title: SUBSCRIPTION_LOAD_FAILED });
  }, [isError]);

  const retry = () => {
    if (me.isError) void me.refetch();
    if (catalog.isError) void catalog.refetch();
  };

  return (
    <>
      <DashboardPageHeader title="Subscription" description="Your plan, your credits and billing." />
      {outcome ? <CheckoutOutcome outcome={outcome} arrival={arrival} onDismiss={dismiss} /> : null}
      {isError ? (
        <LoadFailed message={SUBSCRIPTION_LOAD_FAILED} onRetry={retry} />
      ) : me.isPending || catalog.isPending ? (
        <PageSpinner label="Loading your subscription" />
      ) : (
        <SubscriptionContent catalog={catalog.data} profile={me.data} />
      )}
    </>
  );
}
