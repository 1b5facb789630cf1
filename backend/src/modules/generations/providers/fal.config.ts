/**
 * fal.ai settings and the models the `fal` adapter knows: which input field of each model takes the
 * person photo, the garment and the prompt, what else it is sent, and which input images it
 * accepts. Pure data and functions, no I/O; fal.provider.ts does the HTTP. Sources are listed here
 * and at the top of fal.provider.ts.
 */
import type { GenerationType } from './ai-provider';

/** The settings of AI_PROVIDER=fal (FAL_*), read by the configuration loader. */
export interface FalSettings {
  apiKey?: string;
  /** the queue's base URL, without a trailing slash */
  queueUrl: string;
  imageModel: string;
  videoModel: string;
  /** where fal publishes the public keys of its webhook signatures */
  jwksUrl: string;
  /** sends our webhook URL with each request (`?fal_webhook=`); the worker polls either way */
  webhooks: boolean;
}

/**
 * fal's queue, its webhook keys and the default models.
 * - Queue: https://docs.fal.ai/model-endpoints/queue
 * - JWKS: "Verifying Your Webhook", https://docs.fal.ai/model-apis/model-endpoints/webhooks
 */
export const FAL_DEFAULTS = {
  queueUrl: 'https://queue.fal.run',
  imageModel: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
  videoModel: 'fal-ai/kling-video/v2.1/standard/image-to-video',
  jwksUrl: 'https://rest.alpha.fal.ai/.well-known/jwks.json',
} as const;

/** How one fal model is called. */
export interface FalModel {
  /** the endpoint id, e.g. `fal-ai/kling/v1-5/kolors-virtual-try-on` (owner/app/optional sub-path) */
  id: string;
  type: GenerationType;
  /** the input field that takes the person photo (a video model: the first frame) */
  person: string;
  /** the input field that takes the outfit's picture (try-on models) */
  garment?: string;
  /** the input field that takes our prompt (models that read one) */
  prompt?: string;
  /** the input field that takes the negative prompt (models that read one) */
  negativePrompt?: string;
  /** documented inputs sent as they are */
  fixed: Record<string, unknown>;
  /** documented limits of the input images: each side at least `minSide`, the longer side at most `maxSide` */
  minSide: number;
  maxSide: number;
  /** the model's page (its input and output schema) */
  doc: string;
}

/**
 * The models this adapter knows, one row each: FAL_IMAGE_MODEL and FAL_VIDEO_MODEL must name one
 * of them (the configuration refuses others). Input schemas as published on each model's API page
 * and in fal's official client (fal-ai/fal-js, libs/client/src/types/endpoints.ts).
 *
 * Input sizes: Kling documents JPG/PNG up to 10 MB with each side at least 300 px for both its
 * try-on and its image-to-video inputs (Kling API reference, "Virtual Try-On" and "Image to Video";
 * image-to-video also wants an aspect ratio between 1:2.5 and 2.5:1) and no largest side: 2048 px
 * keeps a JPEG far under 10 MB. FASHN documents at most 2000 px on the longest edge for Try-On v1.6
 * (https://docs.fashn.ai/guides/image-preprocessing-best-practices) and no minimum: 300 px like the
 * others. Leffa documents neither; it works at 768x1024 (its VITON-HD training size): 1024 px, 300 px.
 *
 * Every catalogue outfit dresses the whole body (a set or a one-piece): Leffa's full-body
 * `garment_type` is `dresses`, FASHN's garment category is left to `auto`.
 */
export const FAL_MODELS: readonly FalModel[] = [
  {
    id: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
    type: 'image',
    person: 'human_image_url',
    garment: 'garment_image_url',
    fixed: {},
    minSide: 300,
    maxSide: 2048,
    doc: 'https://fal.ai/models/fal-ai/kling/v1-5/kolors-virtual-try-on/api',
  },
  {
    id: 'fal-ai/fashn/tryon/v1.6',
    type: 'image',
    person: 'model_image',
    garment: 'garment_image',
    // moderation_level "permissive" blocks explicit content and lets swimwear and lingerie through ("conservative" would refuse the catalogue's bikinis)
    fixed: { category: 'auto', mode: 'quality', num_samples: 1, moderation_level: 'permissive', output_format: 'jpeg' },
    minSide: 300,
    maxSide: 2000,
    doc: 'https://fal.ai/models/fal-ai/fashn/tryon/v1.6/api',
  },
  {
    id: 'fal-ai/leffa/virtual-tryon',
    type: 'image',
    person: 'human_image_url',
    garment: 'garment_image_url',
    fixed: { garment_type: 'dresses', enable_safety_checker: true, output_format: 'jpeg' },
    minSide: 300,
    maxSide: 1024,
    doc: 'https://fal.ai/models/fal-ai/leffa/virtual-tryon/api',
  },
  ...['v2.1/standard', 'v2.1/pro', 'v1.6/standard', 'v1.6/pro'].map((tier): FalModel => ({
    id: `fal-ai/kling-video/${tier}/image-to-video`,
    type: 'video',
    person: 'image_url',
    prompt: 'prompt',
    negativePrompt: 'negative_prompt',
    fixed: { duration: '5' },
    minSide: 300,
    maxSide: 2048,
    doc: `https://fal.ai/models/fal-ai/kling-video/${tier}/image-to-video/api`,
  })),
];

export function findFalModel(id: string): FalModel | undefined {
  return FAL_MODELS.find((m) => m.id === id);
}

/** The ids of the known models of one type, for messages and docs. */
export function falModelIds(type: GenerationType): string[] {
  return FAL_MODELS.filter((m) => m.type === type).map((m) => m.id);
}

/**
 * The app a model belongs to: its first two path segments. The docs' rule: a sub-path
 * ("/v1-5/kolors-virtual-try-on") is used to submit, not for the status, result and cancel routes
 * (https://docs.fal.ai/model-endpoints/queue, "Queue endpoints").
 */
export function falAppId(modelId: string): string {
  return modelId.split('/').slice(0, 2).join('/');
}

/** FAL_* (already validated by the environment schema) as the provider's settings. */
export function falSettings(e: {
  FAL_KEY?: string;
  FAL_QUEUE_URL?: string;
  FAL_IMAGE_MODEL?: string;
  FAL_VIDEO_MODEL?: string;
  FAL_JWKS_URL?: string;
  FAL_WEBHOOKS?: boolean;
}): FalSettings {
  return {
    apiKey: e.FAL_KEY,
    queueUrl: (e.FAL_QUEUE_URL ?? FAL_DEFAULTS.queueUrl).replace(/\/+$/, ''),
    imageModel: e.FAL_IMAGE_MODEL ?? FAL_DEFAULTS.imageModel,
    videoModel: e.FAL_VIDEO_MODEL ?? FAL_DEFAULTS.videoModel,
    jwksUrl: e.FAL_JWKS_URL ?? FAL_DEFAULTS.jwksUrl,
    webhooks: e.FAL_WEBHOOKS ?? true,
  };
}
