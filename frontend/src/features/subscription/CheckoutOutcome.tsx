import { Alert, CloseButton } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ProfileResponseDto } from '@fitting-room/api-client';

/** How often the profile is read again while a payment's credits are awaited, and for how long. */
export const CHECKOUT_POLL_MS = 1500;
export const CHECKOUT_WAIT_MS = 60_000;

export const CHECKOUT_SUCCESS = 'Payment received – your credits will appear in a moment';
export const CHECKOUT_CANCELLED = 'Checkout cancelled – you were not charged';

export type CheckoutOutcomeKind = 'success' | 'cancelled';

/** `?checkout=` of the page Stripe sends the person back to (the API's success_url and cancel_url). */
export function useCheckoutOutcome(): { outcome: CheckoutOutcomeKind | null; dismiss(): void } {
  const [params, setParams] = useSearchParams();
  const value = params.get('checkout');
  const outcome = value === 'success' || value === 'cancelled' ? value : null;
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        return next;
      },
      // the same page without the notice: it stays where the person is
      { replace: true, preventScrollReset: true },
    );
  return { outcome, dismiss };
}

export type ArrivalState = 'waiting' | 'arrived' | 'late';

const BASELINE_KEY = 'fitting-room:checkout-baseline';

function fingerprintOf(profile: ProfileResponseDto): string {
  return `${profile.tier} ${profile.credit_balance.subscription} ${profile.credit_balance.purchased}`;
}

/** Kept for this tab while the person is on Stripe's page: what the profile was before paying. */
export function rememberCheckoutBaseline(profile: ProfileResponseDto): void {
  try {
    sessionStorage.setItem(BASELINE_KEY, fingerprintOf(profile));
  } catch {
    /* no storage: the first profile read after coming back is the baseline */
  }
}

function readCheckoutBaseline(): string | null {
  try {
    return sessionStorage.getItem(BASELINE_KEY);
  } catch {
    return null;
  }
}

function forgetCheckoutBaseline(): void {
  try {
    sessionStorage.removeItem(BASELINE_KEY);
  } catch {
    /* nothing kept */
  }
}

/**
 * After a payment the plan or credits come with Stripe's webhook, moments later: 'waiting' while the
 * profile (read again every CHECKOUT_POLL_MS by the caller) is as it was before paying (or, not
 * known, when the page opened),
 * 'arrived' once its tier or credits changed, 'late' after CHECKOUT_WAIT_MS without a change.
 */
export function useCreditsArrival(active: boolean, profile: ProfileResponseDto | undefined): ArrivalState {
  // before paying (kept by useCheckout), else the first profile read here
  const [baseline] = useState(() => (active ? readCheckoutBaseline() : null));
  const first = useRef<string | null>(baseline);
  const [state, setState] = useState<ArrivalState>('waiting');
  const fingerprint = profile ? fingerprintOf(profile) : null;
  useEffect(() => {
    if (!active || fingerprint === null || state !== 'waiting') return;
    if (first.current === null) first.current = fingerprint;
    else if (first.current !== fingerprint) setState('arrived');
  }, [active, fingerprint, state]);
  useEffect(() => {
    if (!active || state !== 'waiting') forgetCheckoutBaseline();
  }, [active, state]);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setState((s) => (s === 'waiting' ? 'late' : s)), CHECKOUT_WAIT_MS);
    return () => clearTimeout(timer);
  }, [active]);
  return state;
}

const ARRIVAL_DETAIL: Record<ArrivalState, string> = {
  waiting: 'Stripe is confirming the payment; this page updates by itself.',
  arrived: 'Your plan and credits below are up to date. Stripe emails you the receipt.',
  late: 'This is taking longer than usual. Reload the page in a minute; if nothing changes, contact support.',
};

/** The state Stripe's Checkout comes back to: paid (and the credits on their way) or cancelled. */
export function CheckoutOutcome({
  outcome,
  arrival,
  onDismiss,
}: {
  outcome: CheckoutOutcomeKind;
  arrival: ArrivalState;
  onDismiss(): void;
}) {
  const paid = outcome === 'success';
  return (
    <Alert.Root status={paid ? 'success' : 'info'} role="status" mb={{ base: '6', md: '8' }} alignItems="flex-start">
      <Alert.Indicator mt="0.5" />
      <Alert.Content>
        <Alert.Title fontWeight="semibold">{paid ? CHECKOUT_SUCCESS : CHECKOUT_CANCELLED}</Alert.Title>
        <Alert.Description>
          {paid ? ARRIVAL_DETAIL[arrival] : 'Nothing was bought. You can choose a plan or a credit pack at any time.'}
        </Alert.Description>
      </Alert.Content>
      <CloseButton size="sm" aria-label="Dismiss" onClick={onDismiss} />
    </Alert.Root>
  );
}
