import type { SceneArtwork } from '../catalog.types';
import type { Tier } from '../tiers';

/** Credits a video adds to the scene's cost (docs/product.md). */
export const VIDEO_SURCHARGE = 3;

/** The "+ Custom" pose: the user types the pose; always available, 3 credits (+3 for video). */
export const CUSTOM_POSE = {
  id: 'custom',
  name: 'Custom',
  description: 'Describe your own pose or setting.',
  requiredTier: 'free' as Tier,
  creditCost: 3,
  artwork: { setting: 'custom', pose: 'standing' } satisfies SceneArtwork as SceneArtwork,
} as const;
