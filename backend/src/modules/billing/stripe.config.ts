/**
 * The settings of payments through Stripe (STRIPE_*), read by the configuration loader. Without a
 * secret key there are no payments: checkout and the billing portal answer 501 and every balance
 * behaves as before (the monthly reset of the free tier).
 */
export interface StripeSettings {
  /** the secret API key (sk_live_... / sk_test_...); payments are on only with it */
  secretKey?: string;
  /** the signing secret of the webhook endpoint (whsec_...); required with the secret key */
  webhookSecret?: string;
  /** the publishable key (pk_...), for the user app; the API itself never uses it */
  publishableKey?: string;
  /** another Stripe API base URL (a local fake in tests, a mock on staging); Stripe's own by default */
  apiUrl?: string;
}

/** STRIPE_* (already validated by the environment schema) as the billing module's settings. */
export function stripeSettings(e: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_API_URL?: string;
}): StripeSettings {
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    apiUrl: e.STRIPE_API_URL?.replace(/\/+$/, ''),
  };
}

/** The SDK's `host`, `port` and `protocol` options for STRIPE_API_URL (none: the SDK's default, api.stripe.com). */
export function stripeHostOptions(apiUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}
