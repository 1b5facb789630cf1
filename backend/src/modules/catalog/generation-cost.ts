import { ValidationError } from '../../common/errors';
import { CUSTOM_POSE, findScene, VIDEO_SURCHARGE } from './catalog';
import type { GenerationType } from './catalog.types';

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
