import { CREDIT_PACKS, PLANS } from '../catalog/plans';
import { packLookupKey, planLookupKey, stripeCatalog, tierOfLookupKey } from './stripe-catalog';
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
