/** The settings of AI_PROVIDER=fashn (FASHN_*), read by the configuration loader. */
export interface FashnSettings {
  apiKey?: string;
  baseUrl: string;
  imageModel: string;
  videoModel: string;
  /** enables FASHN webhooks (an HMAC token per generation in the callback URL); polling otherwise */
  webhookSecret?: string;
}

/** FASHN's API and its documented models by default. */
export const FASHN_DEFAULTS = {
  baseUrl: 'https://api.fashn.ai',
  imageModel: 'tryon-v1.6',
  videoModel: 'image-to-video',
} as const;

/** FASHN_* (already validated by the environment schema) as the provider's settings. */
export function fashnSettings(e: {
  FASHN_API_KEY?: string;
  FASHN_BASE_URL?: string;
  FASHN_IMAGE_MODEL?: string;
  FASHN_VIDEO_MODEL?: string;
  FASHN_WEBHOOK_SECRET?: string;
}): FashnSettings {
  return {
    apiKey: e.FASHN_API_KEY,
    baseUrl: (e.FASHN_BASE_URL ?? FASHN_DEFAULTS.baseUrl).replace(/\/+$/, ''),
    imageModel: e.FASHN_IMAGE_MODEL ?? FASHN_DEFAULTS.imageModel,
    videoModel: e.FASHN_VIDEO_MODEL ?? FASHN_DEFAULTS.videoModel,
    webhookSecret: e.FASHN_WEBHOOK_SECRET,
  };
}
