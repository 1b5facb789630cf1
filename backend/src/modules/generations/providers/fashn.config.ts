import type { ProviderInputSpec } from './ai-provider';

/**
 * FASHN's own moderation of the garment images (`moderation_level` of the try-on models):
 * `conservative` also blocks underwear, swimwear and revealing outfits, `permissive` blocks explicit
 * nudity and lets swimwear and lingerie through, `none` moderates nothing. `none` is never allowed
 * (docs/safety.md: no nudity, ever).
 * https://docs.fashn.ai/api-reference/tryon-v1-6
 */
export const FASHN_MODERATION_LEVELS = ['conservative', 'permissive'] as const;
export type FashnModerationLevel = (typeof FASHN_MODERATION_LEVELS)[number];

/** The settings of AI_PROVIDER=fashn (FASHN_*), read by the configuration loader. */
export interface FashnSettings {
  apiKey?: string;
  baseUrl: string;
  imageModel: string;
  videoModel: string;
  /** enables FASHN webhooks (an HMAC token per generation in the callback URL); polling otherwise */
  webhookSecret?: string;
  /** FASHN_MODERATION_LEVEL, sent with every try-on */
  moderationLevel: FashnModerationLevel;
}

/** FASHN's API and its documented models by default. */
export const FASHN_DEFAULTS = {
  baseUrl: 'https://api.fashn.ai',
  imageModel: 'tryon-v1.6',
  videoModel: 'image-to-video',
  /**
   * The strictest level the catalogue survives: `conservative` would refuse its bikinis and
   * lingerie, `permissive` still blocks explicit nudity.
   */
  moderationLevel: 'permissive',
} as const;

/**
 * Input images of every FASHN model: a public URL or `data:image/<format>;base64,<data>`. FASHN
 * advises at most 2000 px on the longer side for its 1K models (try-on v1.6, image to video) and JPEG
 * (https://docs.fashn.ai/guides/image-preprocessing-best-practices). It documents no minimum; ours
 * is 360 px a side (a smaller photo would be enlarged more than 3.5 times to try-on v1.6's 864x1296).
 */
export const FASHN_INPUT_SPEC: ProviderInputSpec = { minSide: 360, maxSide: 2000, acceptsDataUri: true };

/** FASHN_* (already validated by the environment schema) as the provider's settings. */
export function fashnSettings(e: {
  FASHN_API_KEY?: string;
  FASHN_BASE_URL?: string;
  FASHN_IMAGE_MODEL?: string;
  FASHN_VIDEO_MODEL?: string;
  FASHN_WEBHOOK_SECRET?: string;
  FASHN_MODERATION_LEVEL?: FashnModerationLevel;
}): FashnSettings {
  return {
    apiKey: e.FASHN_API_KEY,
    baseUrl: (e.FASHN_BASE_URL ?? FASHN_DEFAULTS.baseUrl).replace(/\/+$/, ''),
    imageModel: e.FASHN_IMAGE_MODEL ?? FASHN_DEFAULTS.imageModel,
    videoModel: e.FASHN_VIDEO_MODEL ?? FASHN_DEFAULTS.videoModel,
    webhookSecret: e.FASHN_WEBHOOK_SECRET,
    moderationLevel: e.FASHN_MODERATION_LEVEL ?? FASHN_DEFAULTS.moderationLevel,
  };
}
