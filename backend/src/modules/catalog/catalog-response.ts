import {
  CATEGORIES,
  CREDIT_PACKS,
  CUSTOM_POSE,
  PLANS,
  catalogScenes,
  catalogTemplates,
  VIDEO_SURCHARGE,
  sceneCategory,
  scenesForCategory,
  templatesForCategory,
} from './catalog';
import { canGenerateVideo, isWatermarked, lockedFor } from './entitlements';
import { CatalogFeatures, isCategoryEnabled } from './feature-flags';
import { planFeatures } from './generation-cost';
import { TIERS, Tier } from './tiers';
import type { CatalogResponseDto } from './dto/catalog-response.dto';

export interface CatalogResponseInput {
  tier: Tier;
  features: CatalogFeatures;
  /** Relative URL of an item's thumbnail */
  thumbnail: (id: string) => string;
}

/**
 * GET /api/catalog for a caller of `tier`: the whole catalogue with `locked` flags. Categories
 * switched off (FEATURE_SPICY) are left out together with their templates and scenes, and so are
 * templates and scenes an admin disabled.
 */
export function buildCatalogResponse({ tier, features, thumbnail }: CatalogResponseInput): CatalogResponseDto {
  const locked = lockedFor(tier);
  const categories = CATEGORIES.filter((c) => isCategoryEnabled(c.id, features));
  const enabled = new Set(categories.map((c) => c.id));
  const sceneShown = (s: { id: string }) => {
    const owner = sceneCategory(s.id);
    return owner === null || enabled.has(owner);
  };
  return {
    categories: categories.map((c) => ({
      id: c.id,
      label: c.label,
      slug: c.slug,
      path: `/dashboard/${c.slug}`,
      customPoseHint: c.customPoseHint,
      templateIds: templatesForCategory(c.id).map((t) => t.id),
      sceneIds: scenesForCategory(c.id).map((s) => s.id),
    })),
    templates: catalogTemplates()
      .filter((t) => t.enabled && enabled.has(t.category))
      .map((t) => ({
        id: t.id,
        name: t.name,
        category: t.category,
        description: t.description,
        promptDescription: t.promptDescription,
        requiredTier: t.requiredTier,
        thumbnail: thumbnail(t.id),
        locked: locked(t),
        shopUrl: t.shopUrl,
      })),
    scenes: catalogScenes()
      .filter((s) => s.enabled && sceneShown(s))
      .map((s) => ({
        id: s.id,
        name: s.name,
        category: sceneCategory(s.id),
        description: s.description,
        promptDescription: s.promptDescription,
        requiredTier: s.requiredTier,
        creditCost: s.creditCost,
        thumbnail: thumbnail(s.id),
        locked: locked(s),
      })),
    customPose: {
      id: CUSTOM_POSE.id,
      name: CUSTOM_POSE.name,
      description: CUSTOM_POSE.description,
      requiredTier: CUSTOM_POSE.requiredTier,
      creditCost: CUSTOM_POSE.creditCost,
      thumbnail: thumbnail(CUSTOM_POSE.id),
      locked: locked(CUSTOM_POSE),
    },
    plans: PLANS.map((p) => ({ ...p, features: planFeatures(p, sceneShown), currency: 'USD' })),
    packs: CREDIT_PACKS.map((p) => ({
      id: p.id,
      credits: p.credits,
      bonus: p.bonus,
      totalCredits: p.credits + p.bonus,
      price: p.price,
      currency: 'USD',
    })),
    tiers: [...TIERS],
    videoSurcharge: VIDEO_SURCHARGE,
    features: { ...features },
    viewer: { tier, canGenerateVideo: features.video && canGenerateVideo(tier), watermarked: isWatermarked(tier) },
  };
}
