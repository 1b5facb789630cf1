import Stripe from 'stripe';
import { stripeHostOptions, type StripeSettings } from './stripe.config';

/** Injection token of the Stripe SDK client, or null when payments are off (no STRIPE_SECRET_KEY). */
export const STRIPE_CLIENT = Symbol('STRIPE_CLIENT');

/** The official SDK, pointed at STRIPE_API_URL when set (a local fake in tests). */
export function createStripeClient(settings: StripeSettings | undefined): Stripe | null {
  if (!settings?.secretKey) return null;
  return new Stripe(settings.secretKey, {
    ...stripeHostOptions(settings.apiUrl),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'fitting-room' },
  });
}
