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
  /** runs of the job that applies a webhook event before it counts as failed for good (admins told, replay in the console) */
  eventAttempts: number;
  /** wait before the first retry of that job; each next one waits twice as long */
  eventRetryMs: number;
  /** calls of the webhook route per client IP per window: an anonymous route must not be a free way to flood the API and its log */
  webhookRateLimit: { max: number; windowSeconds: number };
}

/** STRIPE_* (already validated by the environment schema) as the billing module's settings. */
export function stripeSettings(e: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_API_URL?: string;
  STRIPE_EVENT_ATTEMPTS: number;
  STRIPE_EVENT_RETRY_MS: number;
  STRIPE_WEBHOOK_RATE_LIMIT_MAX: number;
  STRIPE_WEBHOOK_RATE_LIMIT_WINDOW_SECONDS: number;
}): StripeSettings {
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    apiUrl: e.STRIPE_API_URL?.replace(/\/+$/, ''),
    eventAttempts: e.STRIPE_EVENT_ATTEMPTS,
    eventRetryMs: e.STRIPE_EVENT_RETRY_MS,
    webhookRateLimit: { max: e.STRIPE_WEBHOOK_RATE_LIMIT_MAX, windowSeconds: e.STRIPE_WEBHOOK_RATE_LIMIT_WINDOW_SECONDS },
  };
}

/** The SDK's `host`, `port` and `protocol` options for STRIPE_API_URL (none: the SDK's default, api.stripe.com). */
export function stripeHostOptions(apiUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}
