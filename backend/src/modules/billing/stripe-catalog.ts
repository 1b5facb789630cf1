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

/** The tier a lookup key stands for; undefined for a key that is not one of our plans'. */
export function tierOfLookupKey(lookupKey: string | null | undefined): Tier | undefined {
  const match = lookupKey ? new RegExp(`^${PREFIX}_plan_([a-z_]+)_monthly$`).exec(lookupKey) : null;
  return match && isTier(match[1]) ? match[1] : undefined;
}

/** The paid tier a catalogue id names (the free plan is never sold). */
function paidTier(id: string | null | undefined): Tier | undefined {
  return id && isTier(id) && stripeCatalog().some((i) => i.kind === 'plan' && i.id === id) ? id : undefined;
}

/**
 * The plan a subscription's price stands for: its Product (`fitting_room_plan_<tier>`, ours for
 * good), else its metadata (`kind: plan`, `catalog_id: <tier>`; both set by stripe:sync), else its
 * lookup key. Not the lookup key first: when a plan's price changes, the new Price takes the key
 * over and the old one, which existing subscriptions keep paying, has none
 * (https://docs.stripe.com/api/prices/create#create_price-transfer_lookup_key). Undefined for a
 * price that is not ours.
 */
export function tierOfPrice(
  price:
    { product: string | { id: string } | null; metadata?: Record<string, string> | null; lookup_key?: string | null } | null | undefined,
): Tier | undefined {
  if (!price) return undefined;
  const productId = typeof price.product === 'string' ? price.product : price.product?.id;
  const byProduct = stripeCatalog().find((i) => i.kind === 'plan' && i.productId === productId);
  if (byProduct) return paidTier(byProduct.id);
  if (price.metadata?.kind === 'plan') {
    const byMetadata = paidTier(price.metadata.catalog_id);
    if (byMetadata) return byMetadata;
  }
  return tierOfLookupKey(price.lookup_key);
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
      // the plan the price stands for, beside its Product: read when the lookup key has moved on (tierOfPrice)
      metadata: { kind: item.kind, catalog_id: item.id },
    });
    if (current) await stripe.prices.update(current.id, { active: false });
    lines.push({ lookupKey: item.lookupKey, product, price: current ? 'replaced' : 'created', priceId: created.id });
  }
  return lines;
}

/** How stripe:sync marks the billing portal configuration it manages, to find it again. */
export const PORTAL_METADATA = { managed_by: `${PREFIX}_stripe_sync` } as const;

/**
 * The billing portal the app opens: plan switching between the plans' current prices (upgrades
 * and downgrades charged or credited at once, `always_invoice`), cancelling at the end of the
 * period, the payment method and the invoice history. Plans change here, never through a second
 * Checkout. https://docs.stripe.com/api/customer_portal/configurations/create
 */
export function portalFeatures(
  planPrices: { productId: string; priceId: string }[],
): Stripe.BillingPortal.ConfigurationCreateParams.Features {
  return {
    subscription_update: {
      enabled: true,
      default_allowed_updates: ['price'],
      proration_behavior: 'always_invoice',
      products: planPrices.map((p) => ({ product: p.productId, prices: [p.priceId] })),
    },
    subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
    payment_method_update: { enabled: true },
    invoice_history: { enabled: true },
    customer_update: { enabled: false },
  };
}

/** Our portal configuration at Stripe (active, with PORTAL_METADATA), or undefined before stripe:sync made it. */
export async function findPortalConfiguration(stripe: Stripe): Promise<Stripe.BillingPortal.Configuration | undefined> {
  for await (const configuration of stripe.billingPortal.configurations.list({ active: true, limit: 100 })) {
    if (configuration.metadata?.managed_by === PORTAL_METADATA.managed_by) return configuration;
  }
  return undefined;
}

/** Whether a stored configuration already is what `wanted` describes (compared on what we set). */
function portalMatches(
  current: Stripe.BillingPortal.Configuration,
  wanted: Stripe.BillingPortal.ConfigurationCreateParams.Features,
  returnUrl: string,
): boolean {
  const f = current.features;
  const update = wanted.subscription_update!;
  const products = (update.products as { product: string; prices: string[] }[]).map((p) => `${p.product}:${p.prices.join(',')}`).sort();
  const currentProducts = (f.subscription_update.products ?? []).map((p) => `${p.product}:${p.prices.join(',')}`).sort();
  return (
    current.default_return_url === returnUrl &&
    f.subscription_update.enabled &&
    f.subscription_update.default_allowed_updates.join() === (update.default_allowed_updates as string[]).join() &&
    f.subscription_update.proration_behavior === update.proration_behavior &&
    currentProducts.join('|') === products.join('|') &&
    f.subscription_cancel.enabled &&
    f.subscription_cancel.mode === wanted.subscription_cancel!.mode &&
    f.subscription_cancel.proration_behavior === wanted.subscription_cancel!.proration_behavior &&
    f.payment_method_update.enabled &&
    f.invoice_history.enabled &&
    !f.customer_update.enabled
  );
}

export interface PortalSyncLine {
  portal: 'created' | 'updated' | 'unchanged';
  configurationId: string;
}

/**
 * stripe:sync's second step: the billing portal configuration that lets a subscriber switch between
 * the plans' current prices (`planPrices`, from syncStripeCatalog), cancel at the period end, update
 * the payment method and read invoices. Found again by its metadata and updated when the prices (or
 * anything we set) changed; a second run changes nothing.
 * https://docs.stripe.com/api/customer_portal/configurations/update
 */
export async function syncPortalConfiguration(
  stripe: Stripe,
  planPrices: { productId: string; priceId: string }[],
  returnUrl: string,
): Promise<PortalSyncLine> {
  const features = portalFeatures(planPrices);
  const current = await findPortalConfiguration(stripe);
  if (!current) {
    const created = await stripe.billingPortal.configurations.create({
      features,
      default_return_url: returnUrl,
      metadata: { ...PORTAL_METADATA },
    });
    return { portal: 'created', configurationId: created.id };
  }
  if (portalMatches(current, features, returnUrl)) return { portal: 'unchanged', configurationId: current.id };
  await stripe.billingPortal.configurations.update(current.id, { features, default_return_url: returnUrl });
  return { portal: 'updated', configurationId: current.id };
}

/**
 * `npm run stripe:sync`: the catalogue's Products and Prices (syncStripeCatalog), then the billing
 * portal configuration that switches between the plans' current prices (syncPortalConfiguration).
 * `returnUrl`: where the portal's link back goes (the Subscription page). Idempotent.
 */
export async function syncStripeAccount(
  stripe: Stripe,
  returnUrl: string,
  items = stripeCatalog(),
): Promise<{ catalog: SyncLine[]; portal: PortalSyncLine }> {
  const catalog = await syncStripeCatalog(stripe, items);
  const planPrices = items
    .filter((i) => i.kind === 'plan')
    .map((i) => ({ productId: i.productId, priceId: catalog.find((l) => l.lookupKey === i.lookupKey)!.priceId }));
  return { catalog, portal: await syncPortalConfiguration(stripe, planPrices, returnUrl) };
}
