import { PLANS } from './data/plans.data';
import { isTier } from './tiers';
import type { PlanDefinition } from './catalog.types';

export { CREDIT_PACKS, PLANS } from './data/plans.data';

/** The plan of a tier (its price, monthly credits, features). Throws on a value that is not a tier. */
export function planForTier(tier: string): PlanDefinition {
  const plan = isTier(tier) ? PLANS.find((p) => p.id === tier) : undefined;
  if (!plan) throw new TypeError(`Unknown tier: ${tier}`);
  return plan;
}
