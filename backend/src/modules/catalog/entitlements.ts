import { Tier, tierAtLeast } from './tiers';
import type { SceneDefinition, TemplateDefinition } from './catalog.types';

/**
 * What a subscription tier may do (docs/product.md). Pure functions: the API
 * checks them before a generation and GET /api/catalog uses them to mark items `locked`.
 */

/** A tier may use anything that requires its own tier or a lower one. */
export function canUseTier(userTier: Tier, required: Tier): boolean {
  return tierAtLeast(userTier, required);
}

export function canUseTemplate(userTier: Tier, template: Pick<TemplateDefinition, 'requiredTier'>): boolean {
  return canUseTier(userTier, template.requiredTier);
}

export function canUseScene(userTier: Tier, scene: Pick<SceneDefinition, 'requiredTier'>): boolean {
  return canUseTier(userTier, scene.requiredTier);
}

/** Video try-on comes with glow_up and model_mode. (The FEATURE_VIDEO switch is checked separately.) */
export function canGenerateVideo(tier: Tier): boolean {
  return tierAtLeast(tier, 'glow_up');
}

/** Free results carry a watermark. */
export function isWatermarked(tier: Tier): boolean {
  return tier === 'free';
}

/** A predicate telling whether an item (template, scene) is locked for `tier`. */
export function lockedFor(tier: Tier): (item: { requiredTier: Tier }) => boolean {
  return (item) => !canUseTier(tier, item.requiredTier);
}
