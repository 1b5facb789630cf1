import { ValidationError } from '../../common/errors';
import { catalogScenes, CUSTOM_POSE, findScene, VIDEO_SURCHARGE } from './catalog';
import { canGenerateVideo, canUseScene } from './entitlements';
import type { GenerationType, PlanDefinition, SceneDefinition } from './catalog.types';
import type { Tier } from './tiers';

export type GenerationCostInput =
  { sceneId: string; custom?: false; type: GenerationType } | { custom: true; sceneId?: undefined; type: GenerationType };

/**
 * The cost rule (docs/product.md), in credits: the scene's creditCost, plus
 * VIDEO_SURCHARGE for a video; a custom pose costs CUSTOM_POSE.creditCost (plus the surcharge).
 * An unknown scene is a VALIDATION_ERROR.
 */
export function generationCost(input: GenerationCostInput): number {
  let base: number;
  if (input.custom) {
    base = CUSTOM_POSE.creditCost;
  } else {
    const scene = input.sceneId === CUSTOM_POSE.id ? CUSTOM_POSE : findScene(input.sceneId);
    if (!scene) throw new ValidationError(`Unknown scene: ${input.sceneId}`);
    base = scene.creditCost;
  }
  if (input.type !== 'image' && input.type !== 'video') throw new ValidationError(`Unknown generation type: ${String(input.type)}`);
  return base + (input.type === 'video' ? VIDEO_SURCHARGE : 0);
}

/**
 * The least and most a video costs on `tier`, by the cost rule over the live catalogue: every
 * enabled scene the tier may use (and `available` lets through), and the custom pose. Null for a
 * tier without video.
 */
export function videoCostRange(
  tier: Tier,
  available: (scene: SceneDefinition) => boolean = () => true,
): { min: number; max: number } | null {
  if (!canGenerateVideo(tier)) return null;
  const costs = [
    ...catalogScenes()
      .filter((s) => s.enabled && canUseScene(tier, s) && available(s))
      .map((s) => generationCost({ sceneId: s.id, type: 'video' })),
    generationCost({ custom: true, type: 'video' }),
  ];
  return { min: Math.min(...costs), max: Math.max(...costs) };
}

/** A plan card's lines, the figures made from the live catalogue (a line may be a function of its costs). */
export function planFeatures(plan: PlanDefinition, available?: (scene: SceneDefinition) => boolean): string[] {
  const costs = { video: videoCostRange(plan.id, available) };
  return plan.features.map((line) => (typeof line === 'string' ? line : line(costs)));
}
