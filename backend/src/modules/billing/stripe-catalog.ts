import { CREDIT_PACKS, PLANS } from '../catalog/plans';
import { isTier, type Tier } from '../catalog/tiers';
import type Stripe from 'stripe';

/**
 * What is sold through Stripe, derived from the one catalogue (catalog/data/plans.data.ts): a
 * monthly Price per paid plan and a one-time Price per credit pack, each found by its `lookup_key`
 * (https://docs.stripe.com/products-prices/manage-prices#lookup-keys). Amounts are in cents, USD.
 */
export interface StripeCatalogItem {
  kind: 'plan' | 'pack';
  /** the plan's tier or the pack's id */
  id: string;
  lookupKey: string;
  /** a Product id of our own choosing, so that a sync finds it again */
  productId: string;
  name: string;
  unitAmount: number;
  currency: typeof CATALOG_CURRENCY;
  recurring: boolean;
}

const PREFIX = 'fitting_room';

/** The one currency the catalogue's prices are in. */
export const CATALOG_CURRENCY = 'usd' as const;

export function planLookupKey(tier: Tier): string {
  return `${PREFIX}_plan_${tier}_monthly`;
}

export function packLookupKey(packId: string): string {
  return `${PREFIX}_${packId.replace(/[^a-z0-9]+/gi, '_')}`;
}

function cents(price: number): number {
  return Math.round(price * 100);
}

/** Every paid plan (the free plan is not sold) and every pack. */
export function stripeCatalog(): StripeCatalogItem[] {
  const plans = PLANS.filter((p) => p.price > 0).map((p): StripeCatalogItem => ({
    kind: 'plan',
    id: p.id,
    lookupKey: planLookupKey(p.id),
    productId: `${PREFIX}_plan_${p.id}`,
    name: `${p.displayName} (monthly)`,
    unitAmount: cents(p.price),
    currency: CATALOG_CURRENCY,
    recurring: true,
  }));
  const packs = CREDIT_PACKS.map((p): StripeCatalogItem => ({
    kind: 'pack',
    id: p.id,
    lookupKey: packLookupKey(p.id),
    productId: `${PREFIX}_${p.id.replace(/[^a-z0-9]+/gi, '_')}`,
    name: p.bonus > 0 ? `${p.credits} credits + ${p.bonus} bonus` : `${p.credits} credits`,
    unitAmount: cents(p.price),
    currency: CATALOG_CURRENCY,
    recurring: false,
  }));
  return [...plans, ...packs];
}

/** The tier a subscription's price stands for, from its lookup key; undefined for a price that is not ours. */
export function tierOfLookupKey(lookupKey: string | null | undefined): Tier | undefined {
  const match = lookupKey ? new RegExp(`^${PREFIX}_plan_([a-z_]+)_monthly$`).exec(lookupKey) : null;
  return match && isTier(match[1]) ? match[1] : undefined;
}

function priceMatches(price: Stripe.Price, item: StripeCatalogItem): boolean {
  return (
    price.active &&
    price.unit_amount === item.unitAmount &&
    price.currency === item.currency &&
    (item.recurring ? price.recurring?.interval === 'month' && price.recurring.interval_count === 1 : !price.recurring)
  );
}

export interface SyncLine {
  lookupKey: string;
  product: 'found' | 'created';
  price: 'unchanged' | 'created' | 'replaced';
  priceId: string;
}

/**
 * `npm run stripe:sync`: creates the Products and Prices the catalogue needs, or finds them by
 * lookup key. A price that changed in the catalogue gets a new Price that takes the lookup key over
 * (`transfer_lookup_key`); a Price is never edited (Stripe does not allow changing an amount) and
 * the old one is archived. Running it again changes nothing.
 * https://docs.stripe.com/api/prices/create
 */
export async function syncStripeCatalog(stripe: Stripe, items = stripeCatalog()): Promise<SyncLine[]> {
  const lines: SyncLine[] = [];
  const existing: Stripe.Price[] = [];
  // Stripe takes at most 10 lookup keys per list call
  for (let i = 0; i < items.length; i += 10) {
    existing.push(...(await stripe.prices.list({ lookup_keys: items.slice(i, i + 10).map((x) => x.lookupKey), limit: 100 })).data);
  }
  for (const item of items) {
    let product: SyncLine['product'] = 'found';
    try {
      await stripe.products.retrieve(item.productId);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      await stripe.products.create({ id: item.productId, name: item.name, metadata: { kind: item.kind, catalog_id: item.id } });
      product = 'created';
    }
    const current = existing.find((p) => p.lookup_key === item.lookupKey);
    if (current && priceMatches(current, item)) {
      lines.push({ lookupKey: item.lookupKey, product, price: 'unchanged', priceId: current.id });
      continue;
    }
    const created = await stripe.prices.create({
      product: item.productId,
      unit_amount: item.unitAmount,
      currency: item.currency,
      ...(item.recurring ? { recurring: { interval: 'month' as const } } : {}),
      lookup_key: item.lookupKey,
      transfer_lookup_key: true,
      metadata: { kind: item.kind, catalog_id: item.id },
    });
    if (current) await stripe.prices.update(current.id, { active: false });
    lines.push({ lookupKey: item.lookupKey, product, price: current ? 'replaced' : 'created', priceId: created.id });
  }
  return lines;
}
