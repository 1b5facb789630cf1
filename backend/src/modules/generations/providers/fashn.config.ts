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

/**
 * The models the adapter can call with the bodies it builds (fashn.provider.ts, buildRunBody): the
 * try-on models take a person and a garment (`tryon-v1.6`: model_image + garment_image; `tryon-max`:
 * model_image + product_image), the video model animates one image. FASHN's other models take other
 * inputs (`product-to-model` makes up a person from a product photo, `model-create` a prompt, ...) and
 * are refused at start-up.
 * https://docs.fashn.ai/api-reference/tryon-v1-6 , https://docs.fashn.ai/api-reference/tryon-max ,
 * https://docs.fashn.ai/api-reference/image-to-video ; the request types of the official SDK
 * (fashn-AI/fashn-typescript-sdk src/resources/predictions.ts: TryOnRequest, ImageToVideoRequest).
 */
export const FASHN_IMAGE_MODELS = ['tryon-v1.6', 'tryon-max'] as const;
export const FASHN_VIDEO_MODELS = ['image-to-video'] as const;

/**
 * The largest picture each try-on model returns, in pixels: try-on v1.6 works at 864x1296
 * (https://docs.fashn.ai/api-reference/tryon-v1-6, "Processing Resolution"); Try-On Max goes up to
 * 4K, about 16 megapixels (https://docs.fashn.ai/api-reference/tryon-max, "up to 4K";
 * https://help.fashn.ai/using-fashn/guides/parameter-deep-dives/resolution: "4K (~16 megapixels)").
 */
export const FASHN_OUTPUT_PIXELS: Record<(typeof FASHN_IMAGE_MODELS)[number], number> = {
  'tryon-v1.6': 864 * 1296,
  'tryon-max': 4096 * 4096,
};

/**
 * The largest webhook call FASHN sends for `imageModel`: a try-on result comes back as base64
 * (`return_base64`, JPEG) inside the status payload, so the call carries the whole picture. A JPEG
 * of a photo weighs well under a byte per pixel at any quality (about 0.3 to 0.6); a byte per pixel,
 * times 4/3 for base64, plus a quarter and 64 KB for the JSON around it, is the limit.
 */
export function fashnWebhookBodyLimit(imageModel: string): number {
  const pixels = FASHN_OUTPUT_PIXELS[imageModel as (typeof FASHN_IMAGE_MODELS)[number]] ?? FASHN_OUTPUT_PIXELS['tryon-max'];
  return Math.ceil(((pixels * 4) / 3) * 1.25) + 64 * 1024;
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
