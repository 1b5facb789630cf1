/**
 * Subscription tiers in ascending order (docs/product.md): the single source of the tier
 * order. Other modules (users, generations, the UIs through GET /api/catalog) import it from here.
 */
export const TIERS = ['free', 'starter', 'glow_up', 'model_mode'] as const;

export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** 0 for free up to 3 for model_mode. */
export function tierRank(tier: Tier): number {
  const rank = TIERS.indexOf(tier);
  if (rank < 0) throw new TypeError(`Unknown tier: ${String(tier)}`);
  return rank;
}

/** true when `tier` is `minimum` or above it. */
export function tierAtLeast(tier: Tier, minimum: Tier): boolean {
  return tierRank(tier) >= tierRank(minimum);
}
