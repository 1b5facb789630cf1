import Stripe from 'stripe';
import { stripeHostOptions, type StripeSettings } from './stripe.config';

/** Injection token of the Stripe SDK client, or null when payments are off (no STRIPE_SECRET_KEY). */
export const STRIPE_CLIENT = Symbol('STRIPE_CLIENT');

/**
 * The Stripe API version every call of ours is made in (the `Stripe-Version` header), pinned in code
 * rather than left to the account's default, which changes when someone upgrades it in the
 * Dashboard (https://docs.stripe.com/api/versioning). It is the version the SDK's types describe
 * (`Stripe.API_VERSION` of the installed `stripe` package): an SDK upgrade that moves it is a type
 * error here, to be re-pinned on purpose after reading Stripe's changelog. Webhook events are
 * rendered in their endpoint's version: create the endpoint with this one (docs/payments.md).
 */
export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

/** The official SDK, pointed at STRIPE_API_URL when set (a local fake in tests). */
export function createStripeClient(settings: StripeSettings | undefined): Stripe | null {
  if (!settings?.secretKey) return null;
  return new Stripe(settings.secretKey, {
    ...stripeHostOptions(settings.apiUrl),
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'fitting-room' },
  });
}

/**
 * Whether a Stripe error says that the object named by `param` does not exist (deleted, or made
 * with other keys: test keys switched to live). https://docs.stripe.com/error-codes#resource-missing
 */
export function isMissing(error: unknown, param?: string): boolean {
  const e = error as { type?: string; code?: string; param?: string } | null;
  return !!e && e.type === 'StripeInvalidRequestError' && e.code === 'resource_missing' && (param === undefined || e.param === param);
}
