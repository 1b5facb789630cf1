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
  /** fal's Platform API (deleting a request's stored payloads and output files), without a trailing slash */
  platformUrl: string;
  /** sends our webhook URL with each request (`?fal_webhook=`); the worker polls either way */
  webhooks: boolean;
}

/**
 * fal's queue, its webhook keys, its Platform API and the default models.
 * - Queue: https://docs.fal.ai/model-endpoints/queue
 * - JWKS: "Verifying Your Webhook", https://docs.fal.ai/documentation/model-apis/inference/webhooks. fal's REST host
 *   moved from rest.alpha.fal.ai to rest.fal.ai in February 2026 (its official clients: fal-ai/fal-js ea9fc05
 *   "fix: use rest.fal.ai", libs/client/src/config.ts getRestApiUrl; fal-ai/fal 01170088 "rest.alpha.fal.ai ->
 *   rest.fal.ai", fal_client REST_URL); the key set is served from the same host.
 * - Platform API: https://api.fal.ai/v1 ("Delete request payloads", https://docs.fal.ai/platform-apis/v1/models/requests/payloads)
 */
export const FAL_DEFAULTS = {
  queueUrl: 'https://queue.fal.run',
  imageModel: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
  videoModel: 'fal-ai/kling-video/v2.1/standard/image-to-video',
  jwksUrl: 'https://rest.fal.ai/.well-known/jwks.json',
  platformUrl: 'https://api.fal.ai/v1',
} as const;

/**
 * What fal keeps of a request, and what every submit asks of it
 * (https://docs.fal.ai/documentation/model-apis/media-expiration, "Data Retention & Storage";
 * https://fal.ai/docs/documentation/model-apis/inference/payloads):
 * - Request payloads (the JSON input and output, our inline base64 photos included) are stored 30 days
 *   by default; `X-Fal-Store-IO: 0` prevents their storage.
 * - Output files on fal's CDN live as long as `X-Fal-Object-Lifecycle-Preference`
 *   (`{"expiration_duration_seconds": n}`) says; fal's own clients send the same header
 *   (fal-ai/fal-js libs/client/src/storage.ts, OBJECT_LIFECYCYLE_PREFERENCE_HEADER, buildObjectLifecycleHeaders).
 *   An hour is longer than any generation waits for its result (polls, retries, the webhook).
 * - Once our copy is stored, `DELETE {platform}/models/requests/{request_id}/payloads` deletes the
 *   request's payloads and its output files (an admin key is required; the input files are not
 *   deleted, and ours are never uploaded to fal's CDN: they travel as links or data URIs).
 */
export const FAL_RETENTION = {
  storeIoHeader: 'X-Fal-Store-IO',
  lifecycleHeader: 'X-Fal-Object-Lifecycle-Preference',
  outputExpirySeconds: 3600,
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
  /**
   * The documented values of the model's `aspect_ratio` input (the video frame), for models that take
   * one: the adapter sends the value nearest the person photo's own ratio. Models without it frame the
   * video like their first frame.
   */
  aspectRatios?: readonly string[];
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
  // Kling image-to-video. Of the four, only v1.6 pro takes `aspect_ratio` ("16:9" | "9:16" | "1:1",
  // default "16:9"): fal-ai/fal-js libs/client/src/types/endpoints.ts, KlingVideoV16ProImageToVideoInput.
  // v1.6 standard, v2.1 standard and v2.1 pro take KlingVideoV2MasterImageToVideoInput / KlingVideoV21ProImageToVideoInput
  // (prompt, image_url, duration, negative_prompt, cfg_scale): no aspect_ratio, the frame follows the image.
  ...(
    [
      ['v2.1/standard', undefined],
      ['v2.1/pro', undefined],
      ['v1.6/standard', undefined],
      ['v1.6/pro', ['16:9', '9:16', '1:1']],
    ] as const
  ).map(([tier, aspectRatios]): FalModel => ({
    id: `fal-ai/kling-video/${tier}/image-to-video`,
    type: 'video',
    person: 'image_url',
    prompt: 'prompt',
    negativePrompt: 'negative_prompt',
    fixed: { duration: '5' },
    ...(aspectRatios ? { aspectRatios } : {}),
    minSide: 300,
    maxSide: 2048,
    doc: `https://fal.ai/models/fal-ai/kling-video/${tier}/image-to-video/api`,
  })),
];

/**
 * Of `allowed` ("w:h" values), the one nearest to a `width` x `height` picture's own ratio (compared
 * on a log scale, so 9:16 and 16:9 are as far from 1:1). A portrait photo gets "9:16", a square one "1:1".
 */
export function nearestAspectRatio(width: number, height: number, allowed: readonly string[]): string {
  const target = Math.log(width / height);
  const distance = (r: string) => {
    const [a, b] = r.split(':').map(Number);
    return Math.abs(Math.log(a / b) - target);
  };
  return allowed.reduce((best, r) => (distance(r) < distance(best) ? r : best));
}

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
  FAL_PLATFORM_URL?: string;
  FAL_WEBHOOKS?: boolean;
}): FalSettings {
  return {
    apiKey: e.FAL_KEY,
    queueUrl: (e.FAL_QUEUE_URL ?? FAL_DEFAULTS.queueUrl).replace(/\/+$/, ''),
    imageModel: e.FAL_IMAGE_MODEL ?? FAL_DEFAULTS.imageModel,
    videoModel: e.FAL_VIDEO_MODEL ?? FAL_DEFAULTS.videoModel,
    jwksUrl: e.FAL_JWKS_URL ?? FAL_DEFAULTS.jwksUrl,
    platformUrl: (e.FAL_PLATFORM_URL ?? FAL_DEFAULTS.platformUrl).replace(/\/+$/, ''),
    webhooks: e.FAL_WEBHOOKS ?? true,
  };
}
