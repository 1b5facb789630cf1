import 'reflect-metadata';
import { run } from '../bootstrap/run';
import { loadConfig } from '../config/app-config';
import { syncStripeCatalog } from '../modules/billing/stripe-catalog';
import { createStripeClient } from '../modules/billing/stripe.client';

/**
 * `npm run stripe:sync`: creates the Stripe Products and Prices of the catalogue (the paid plans as
 * monthly prices, the credit packs as one-time prices), or finds them by lookup key. A price that
 * changed gets a new Price which takes the lookup key over; nothing is ever edited. Idempotent.
 */
run(async () => {
  const stripe = createStripeClient(loadConfig().stripe);
  if (!stripe) {
    process.stderr.write('STRIPE_SECRET_KEY is not set: there is nothing to sync (payments stay off).\n');
    process.exit(64);
  }
  for (const line of await syncStripeCatalog(stripe)) {
    process.stdout.write(`${line.lookupKey}: product ${line.product}, price ${line.price} (${line.priceId})\n`);
  }
});
