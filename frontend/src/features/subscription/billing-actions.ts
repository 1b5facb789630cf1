import { type CheckoutRequestDto, createCheckoutSession, createPortalSession } from '@fitting-room/api-client';
import { ErrorCode, ErrorMessages } from '@fitting-room/shared';
import { ApiError, errorMessage, unwrap } from '@fitting-room/shared/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { notify } from '../../components/toaster';
import { sessionKnown, useSessionStore } from '../auth/useAuth';
import { meQueryOptions } from '../profile/profile-queries';
import { rememberCheckoutBaseline } from './CheckoutOutcome';

/** What a plan or pack button buys: a paid plan (a monthly subscription) or a credit pack (one-time). */
export type CheckoutItem = { plan: string } | { pack: string };

/** The browser leaves for Stripe's page (Checkout or the billing portal). */
function leaveFor(url: string): void {
  window.location.assign(url);
}

/**
 * A failed checkout or portal call: without Stripe keys the API answers 501 with the spec's
 * "Stripe integration coming soon!" (the shared error catalogue's checkoutComingSoon), shown as the
 * neutral alert it always was; anything else is an error.
 */
function showFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 501) notify.info({ title: error.message });
  else notify.error({ title: errorMessage(error) });
}

/**
 * The plan and pack buttons: a signed-out visitor goes to /try (the auth guard sends them to sign
 * in first); a signed-in one gets a Stripe Checkout Session (POST /api/billing/checkout) and goes
 * there. Stripe sends them back to the Subscription page (`?checkout=success` or `cancelled`).
 */
export function useCheckout() {
  const store = useSessionStore();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (item: CheckoutItem) => {
      const me = await queryClient.fetchQuery(meQueryOptions).catch(() => undefined);
      // payments are off (the profile says so): the API's answer is known, no need to ask for it
      if (me?.billing && !me.billing.payments_enabled) {
        throw new ApiError(ErrorMessages.checkoutComingSoon, 501, ErrorCode.SERVICE_UNAVAILABLE);
      }
      // the plan and credits as they are before paying: back from Stripe, the page sees them change
      if (me) rememberCheckoutBaseline(me);
      return unwrap(createCheckoutSession({ body: item as CheckoutRequestDto }));
    },
    onSuccess: ({ url }) => leaveFor(url),
    onError: showFailure,
  });
  // a click may come while the session is still being restored (a pre-rendered page): wait for it
  const start = (item: CheckoutItem) =>
    void sessionKnown(store).then((status) => {
      if (status !== 'signed-in') void navigate(paths.try);
      else if (!mutation.isPending) mutation.mutate(item);
    });
  /** the item whose button waits (while the session is made, and until the browser has left) */
  const busy = mutation.isPending || mutation.isSuccess ? mutation.variables : undefined;
  return { start, busy };
}

/** Stripe's billing portal (payment methods, invoices, cancelling): POST /api/billing/portal, then there. */
export function useBillingPortal() {
  const mutation = useMutation({
    mutationFn: () => unwrap(createPortalSession()),
    onSuccess: ({ url }) => leaveFor(url),
    onError: showFailure,
  });
  return { open: () => mutation.mutate(), busy: mutation.isPending || mutation.isSuccess };
}

/** `true` when the item of a button is the one `busy` names. */
export function isBusy(busy: CheckoutItem | undefined, item: CheckoutItem): boolean {
  if (!busy) return false;
  return 'plan' in item ? 'plan' in busy && busy.plan === item.plan : 'pack' in busy && busy.pack === item.pack;
}
