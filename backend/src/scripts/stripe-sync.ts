import 'reflect-metadata';
import { run } from '../bootstrap/run';
import { appLink, APP_PAGES } from '../common/app-links';
import { loadConfig } from '../config/app-config';
import { syncStripeAccount } from '../modules/billing/stripe-catalog';
import { createStripeClient } from '../modules/billing/stripe.client';

/**
 * `npm run stripe:sync`: creates the Stripe Products and Prices of the catalogue (the paid plans as
 * monthly prices, the credit packs as one-time prices), or finds them by lookup key, then the
 * billing portal configuration (plan switching between the plans' prices, cancel at the period
 * end, payment method, invoices), found by its metadata. A price that changed gets a new Price
 * which takes the lookup key over, and the portal then offers the new one; nothing is ever edited
 * but the portal configuration. Idempotent: a second run changes nothing.
 */
run(async () => {
  const config = loadConfig();
  const stripe = createStripeClient(config.stripe);
  if (!stripe) {
    process.stderr.write('STRIPE_SECRET_KEY is not set: there is nothing to sync (payments stay off).\n');
    process.exit(64);
  }
  const { catalog, portal } = await syncStripeAccount(stripe, appLink(config.appUrl, APP_PAGES.subscription));
  for (const line of catalog) {
    process.stdout.write(`${line.lookupKey}: product ${line.product}, price ${line.price} (${line.priceId})\n`);
  }
  process.stdout.write(`billing portal configuration: ${portal.portal} (${portal.configurationId})\n`);
});
