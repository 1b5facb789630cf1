import Stripe from 'stripe';
import { CREDIT_PACKS, PLANS } from '../catalog/plans';
import { packLookupKey, planLookupKey, portalFeatures, stripeCatalog, tierOfLookupKey, tierOfPrice } from './stripe-catalog';
import { createStripeClient, isMissing, STRIPE_API_VERSION } from './stripe.client';
import { stripeHostOptions } from './stripe.config';

describe('what is sold through Stripe comes from the catalogue', () => {
  it('has a monthly price for every paid plan and a one-time price for every pack, at the catalogue amount in cents', () => {
    const items = stripeCatalog();
    const paid = PLANS.filter((p) => p.price > 0);
    expect(items.filter((i) => i.kind === 'plan').map((i) => [i.id, i.unitAmount, i.recurring])).toEqual(
      paid.map((p) => [p.id, Math.round(p.price * 100), true]),
    );
    expect(items.filter((i) => i.kind === 'pack').map((i) => [i.id, i.unitAmount, i.recurring])).toEqual(
      CREDIT_PACKS.map((p) => [p.id, Math.round(p.price * 100), false]),
    );
    expect(items.find((i) => i.id === 'free')).toBeUndefined();
  });

  it('gives each item its own lookup key (at most 200 characters) and reads a plan back from its key', () => {
    const keys = stripeCatalog().map((i) => i.lookupKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every((k) => k.length <= 200)).toBe(true);
    for (const plan of PLANS) expect(tierOfLookupKey(planLookupKey(plan.id))).toBe(plan.id);
    expect(tierOfLookupKey(packLookupKey('pack-70'))).toBeUndefined();
    expect(tierOfLookupKey('someone_elses_price')).toBeUndefined();
    expect(tierOfLookupKey(null)).toBeUndefined();
  });

  it('reads the plan of a price from its product or metadata, so an archived price that lost its lookup key still counts', () => {
    const plans = stripeCatalog().filter((i) => i.kind === 'plan');
    for (const plan of plans) {
      // the old price after a price change: archived, no lookup key, its product and metadata still ours
      expect(tierOfPrice({ product: plan.productId, lookup_key: null, metadata: {} })).toBe(plan.id);
      expect(tierOfPrice({ product: { id: plan.productId }, lookup_key: null })).toBe(plan.id);
      expect(tierOfPrice({ product: 'prod_someone_else', lookup_key: null, metadata: { kind: 'plan', catalog_id: plan.id } })).toBe(
        plan.id,
      );
      expect(tierOfPrice({ product: 'prod_someone_else', lookup_key: plan.lookupKey })).toBe(plan.id);
    }
    // the product wins over what the metadata says
    expect(tierOfPrice({ product: plans[0].productId, metadata: { kind: 'plan', catalog_id: plans[1].id } })).toBe(plans[0].id);
    const pack = stripeCatalog().find((i) => i.kind === 'pack')!;
    expect(
      tierOfPrice({ product: pack.productId, lookup_key: pack.lookupKey, metadata: { kind: 'pack', catalog_id: pack.id } }),
    ).toBeUndefined();
    expect(tierOfPrice({ product: 'prod_x', metadata: { kind: 'plan', catalog_id: 'free' } })).toBeUndefined();
    expect(tierOfPrice({ product: 'prod_x', metadata: { kind: 'plan', catalog_id: 'platinum' } })).toBeUndefined();
    expect(tierOfPrice(null)).toBeUndefined();
  });

  it('lets the portal switch between every paid plan, cancel at the period end, update the payment method and show invoices', () => {
    const plans = stripeCatalog()
      .filter((i) => i.kind === 'plan')
      .map((i) => ({ productId: i.productId, priceId: `price_${i.id}` }));
    const features = portalFeatures(plans);
    expect(features.subscription_update).toMatchObject({ enabled: true, default_allowed_updates: ['price'] });
    expect(features.subscription_update!.products).toEqual(plans.map((p) => ({ product: p.productId, prices: [p.priceId] })));
    expect(features.subscription_cancel).toMatchObject({ enabled: true, mode: 'at_period_end' });
    expect(features.payment_method_update).toEqual({ enabled: true });
    expect(features.invoice_history).toEqual({ enabled: true });
  });

  it('pins the API version the installed SDK describes, and sends it', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    const client = createStripeClient({
      secretKey: 'sk_test_x',
      eventAttempts: 1,
      eventRetryMs: 10,
      webhookRateLimit: { max: 300, windowSeconds: 60 },
    })!;
    expect(client.getApiField('version')).toBe(STRIPE_API_VERSION);
  });

  it("recognises Stripe's resource_missing, and on which parameter", () => {
    const missing = { type: 'StripeInvalidRequestError', code: 'resource_missing', param: 'customer' };
    expect(isMissing(missing)).toBe(true);
    expect(isMissing(missing, 'customer')).toBe(true);
    expect(isMissing(missing, 'configuration')).toBe(false);
    expect(isMissing({ type: 'StripeAPIError', code: 'resource_missing' })).toBe(false);
    expect(isMissing(new Error('No such customer'))).toBe(false);
  });

  it("points the SDK at STRIPE_API_URL's host, port and protocol, or leaves its default", () => {
    expect(stripeHostOptions(undefined)).toEqual({});
    expect(stripeHostOptions('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeHostOptions('https://stripe-mock.staging.example')).toEqual({
      host: 'stripe-mock.staging.example',
      port: 443,
      protocol: 'https',
    });
  });
});
