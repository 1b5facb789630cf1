import { ValidationError } from '../../common/errors';
import { isGenerationCategory } from './catalog';
import type { GenerationCategory } from './catalog.types';

/** Product switches from configuration (FEATURE_SPICY, FEATURE_VIDEO, FEATURE_ANALYTICS); all on by default. */
export interface CatalogFeatures {
  spicy: boolean;
  video: boolean;
  analytics: boolean;
}

export const ALL_FEATURES_ON: CatalogFeatures = { spicy: true, video: true, analytics: true };

export const FEATURE_MESSAGES = {
  unknownCategory: (category: string) => `Unknown category: ${category}`,
  categoryDisabled: 'This category is not available.',
  videoDisabled: 'Video generation is not available.',
} as const;

export function isCategoryEnabled(category: GenerationCategory, features: CatalogFeatures): boolean {
  return category !== 'spicy' || features.spicy;
}

/** Refuses (VALIDATION_ERROR) an unknown category label and a category switched off. */
export function assertCategoryEnabled(category: string, features: CatalogFeatures): asserts category is GenerationCategory {
  if (!isGenerationCategory(category)) throw new ValidationError(FEATURE_MESSAGES.unknownCategory(category));
  if (!isCategoryEnabled(category, features)) throw new ValidationError(FEATURE_MESSAGES.categoryDisabled);
}

/** Refuses (VALIDATION_ERROR) a video when FEATURE_VIDEO is off. */
export function assertVideoEnabled(features: CatalogFeatures): void {
  if (!features.video) throw new ValidationError(FEATURE_MESSAGES.videoDisabled);
}
