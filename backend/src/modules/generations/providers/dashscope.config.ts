/**
 * DashScope (Alibaba Cloud Model Studio) request rules that depend on the model: which service
 * endpoint a model is called on, which input fields it takes and which output sizes it accepts.
 * Pure functions, no I/O; dashscope.provider.ts does the HTTP. Sources are listed at the top of
 * dashscope.provider.ts.
 */
import type { GenerationType, ProviderInputSpec } from './ai-provider';

/** Singapore (international) and China (Beijing) endpoints. Keys, models and endpoints are per region. */
export const DASHSCOPE_BASE_URLS = {
  international: 'https://dashscope-intl.aliyuncs.com',
  china: 'https://dashscope.aliyuncs.com',
} as const;

export type DashScopeRegion = 'international' | 'china' | 'us';

/**
 * The region a base URL belongs to: the shared endpoints (Singapore dashscope-intl.aliyuncs.com,
 * Virginia dashscope-us.aliyuncs.com, Beijing dashscope.aliyuncs.com) and the workspace endpoints
 * ({WorkspaceId}.ap-southeast-1.maas.aliyuncs.com, {WorkspaceId}.cn-beijing.maas.aliyuncs.com).
 * Undefined for any other host (a proxy, the tests' fake).
 * https://www.alibabacloud.com/help/en/model-studio/legacy-image-to-video-api-reference ("Availability"),
 * https://www.alibabacloud.com/help/en/model-studio/regions
 */
export function dashScopeRegion(baseUrl: string): DashScopeRegion | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (host === 'dashscope.aliyuncs.com' || host.endsWith('.cn-beijing.maas.aliyuncs.com')) return 'china';
  if (host === 'dashscope-intl.aliyuncs.com' || host.endsWith('.ap-southeast-1.maas.aliyuncs.com')) return 'international';
  if (host === 'dashscope-us.aliyuncs.com') return 'us';
  return undefined;
}

/**
 * The image models the adapter can call, by the protocol it speaks to each (DashScopeModelFamily),
 * and where they are offered when that is documented as limited:
 * - wan2.5-i2i-preview: Wan image editing (input.images + parameters.size), Singapore and Beijing
 *   (https://www.alibabacloud.com/help/en/model-studio/wan2-5-image-edit-api-reference).
 * - aitryon, aitryon-plus: OutfitAnyone, "This document applies only to the China (Beijing) region"
 *   (https://help.aliyun.com/en/model-studio/outfitanyone-api, https://www.alibabacloud.com/help/en/model-studio/aitryon-plus-api).
 * Wan 2.6+ image models speak a messages protocol this adapter does not build.
 */
export const DASHSCOPE_IMAGE_MODELS: Record<string, { family: 'image-edit' | 'tryon'; regions?: readonly DashScopeRegion[] }> = {
  'wan2.5-i2i-preview': { family: 'image-edit' },
  aitryon: { family: 'tryon', regions: ['china'] },
  'aitryon-plus': { family: 'tryon', regions: ['china'] },
};

/**
 * The first-frame image-to-video models (input.img_url + parameters.resolution/duration, the protocol
 * of Wan 2.1 to 2.6) and the resolution tiers each documents; the adapter sends the largest tier the
 * model has that is not above the requested one (videoResolutionFor). Every one takes 5 s.
 * - wan2.6-i2v-flash, wan2.6-i2v: 720P, 1080P; wan2.5-i2v-preview: 480P, 720P, 1080P
 *   (https://www.alibabacloud.com/help/en/model-studio/legacy-image-to-video-api-reference, https://www.alibabacloud.com/help/en/model-studio/image-to-video-guide)
 * - wan2.2-i2v-plus: 480P, 1080P; wan2.2-i2v-flash: 480P, 720P (https://help.aliyun.com/zh/model-studio/developer-reference/image-to-video-api-reference)
 * - wan2.1-i2v-plus: 720P; wan2.1-i2v-turbo: 480P, 720P (https://www.alibabacloud.com/help/en/model-studio/image-to-video-api-reference)
 * wan2.7-i2v speaks the new media-list protocol and is not supported here.
 */
export const DASHSCOPE_VIDEO_MODELS: Record<string, { resolutions: readonly VideoTier[] }> = {
  'wan2.6-i2v-flash': { resolutions: ['720P', '1080P'] },
  'wan2.6-i2v': { resolutions: ['720P', '1080P'] },
  'wan2.5-i2v-preview': { resolutions: ['480P', '720P', '1080P'] },
  'wan2.2-i2v-plus': { resolutions: ['480P', '1080P'] },
  'wan2.2-i2v-flash': { resolutions: ['480P', '720P'] },
  'wan2.1-i2v-plus': { resolutions: ['720P'] },
  'wan2.1-i2v-turbo': { resolutions: ['480P', '720P'] },
};

export type VideoTier = '480P' | '720P' | '1080P';
const TIERS: readonly VideoTier[] = ['480P', '720P', '1080P'];

/**
 * Why DASHSCOPE_IMAGE_MODEL cannot be used with DASHSCOPE_BASE_URL (a message for the configuration
 * error), or undefined when it can. An unknown host (a proxy, a fake) is not judged by region.
 */
export function dashScopeImageModelProblem(model: string, baseUrl: string): string | undefined {
  const known = DASHSCOPE_IMAGE_MODELS[model];
  if (!known) return `must be one of ${Object.keys(DASHSCOPE_IMAGE_MODELS).join(', ')}`;
  if (known.regions && !known.regions.includes(dashScopeRegion(baseUrl) as DashScopeRegion)) {
    return `${model} is offered only in the China (Beijing) region: set DASHSCOPE_BASE_URL=${DASHSCOPE_BASE_URLS.china} (with a Beijing key), or use wan2.5-i2i-preview`;
  }
  return undefined;
}

/** Why DASHSCOPE_VIDEO_MODEL cannot be used, or undefined when it can. */
export function dashScopeVideoModelProblem(model: string): string | undefined {
  return DASHSCOPE_VIDEO_MODELS[model] ? undefined : `must be one of ${Object.keys(DASHSCOPE_VIDEO_MODELS).join(', ')}`;
}

/** The settings of AI_PROVIDER=dashscope (DASHSCOPE_*), read by the configuration loader. */
export interface DashScopeSettings {
  apiKey?: string;
  baseUrl: string;
  imageModel: string;
  videoModel: string;
  /**
   * DASHSCOPE_VIDEO_AUDIO: let the video model add a generated soundtrack (Wan 2.5 and 2.6 do unless
   * told not to, at about twice the price of a silent clip). Off by default.
   */
  videoAudio: boolean;
}

/** International endpoint and the documented models by default. */
export const DASHSCOPE_DEFAULTS = {
  baseUrl: DASHSCOPE_BASE_URLS.international,
  imageModel: 'wan2.5-i2i-preview',
  videoModel: 'wan2.6-i2v-flash',
  videoAudio: false,
} as const;

/** DASHSCOPE_* (already validated by the environment schema) as the provider's settings. */
export function dashScopeSettings(e: {
  DASHSCOPE_API_KEY?: string;
  DASHSCOPE_BASE_URL?: string;
  DASHSCOPE_IMAGE_MODEL?: string;
  DASHSCOPE_VIDEO_MODEL?: string;
  DASHSCOPE_VIDEO_AUDIO?: boolean;
}): DashScopeSettings {
  return {
    apiKey: e.DASHSCOPE_API_KEY,
    baseUrl: (e.DASHSCOPE_BASE_URL ?? DASHSCOPE_DEFAULTS.baseUrl).replace(/\/+$/, ''),
    imageModel: e.DASHSCOPE_IMAGE_MODEL ?? DASHSCOPE_DEFAULTS.imageModel,
    videoModel: e.DASHSCOPE_VIDEO_MODEL ?? DASHSCOPE_DEFAULTS.videoModel,
    videoAudio: e.DASHSCOPE_VIDEO_AUDIO ?? DASHSCOPE_DEFAULTS.videoAudio,
  };
}

/** Service paths of the asynchronous (X-DashScope-Async: enable) task API. */
export const DASHSCOPE_PATHS = {
  imageSynthesis: '/api/v1/services/aigc/image2image/image-synthesis',
  videoSynthesis: '/api/v1/services/aigc/video-generation/video-synthesis',
  task: (taskId: string) => `/api/v1/tasks/${encodeURIComponent(taskId)}`,
  cancel: (taskId: string) => `/api/v1/tasks/${encodeURIComponent(taskId)}/cancel`,
} as const;

/**
 * How a model is called:
 * - `image-edit`: Wan general image editing (wan2.5-i2i-preview): `input.prompt` + `input.images`
 *   (1 to 3 images, referred to as "image 1..3" in the prompt), `parameters.size` "w*h".
 * - `tryon`: OutfitAnyone (aitryon, aitryon-plus; China (Beijing) region only):
 *   `input.person_image_url` + `input.top_garment_url`, `parameters.resolution` -1|1024|1280, no prompt.
 * - `image-to-video`: Wan image-to-video from the first frame (wan2.1 to wan2.6 i2v models):
 *   `input.img_url` + `input.prompt`, `parameters.resolution` 480P|720P|1080P, `parameters.duration`.
 */
export type DashScopeModelFamily = 'image-edit' | 'tryon' | 'image-to-video';

export function imageModelFamily(model: string): Exclude<DashScopeModelFamily, 'image-to-video'> {
  return DASHSCOPE_IMAGE_MODELS[model]?.family ?? (/^aitryon/i.test(model) ? 'tryon' : 'image-edit');
}

/** The family a generation of `type` is sent to, given the configured models. */
export function modelFamily(type: GenerationType, imageModel: string): DashScopeModelFamily {
  return type === 'video' ? 'image-to-video' : imageModelFamily(imageModel);
}

/**
 * The documented input images of each family, and what we send them (sources at the top of
 * dashscope.provider.ts). Every family takes JPEG, PNG without an alpha channel, BMP or WebP:
 * - `image-edit` (wan2.5-i2i-preview): each side 384 to 5000 px, at most 10 MB; `images` entries are
 *   public URLs or `data:{MIME type};base64,{data}`. We send at most 2000 px on the longer side: the
 *   output is at most 1280*1280 in area, so more pixels only add bytes.
 * - `tryon` (aitryon, aitryon-plus): each side 150 to 4096 px, 5 KB to 5 MB, given as URLs only
 *   (the reference documents no base64 input). 2000 px at most, as for image editing.
 * - `image-to-video` (Wan 2.1 to 2.6 first frame): each side 360 to 2000 px, at most 10 MB; `img_url`
 *   is a public URL or a base64 data URI.
 */
export const DASHSCOPE_INPUT_SPECS: Record<DashScopeModelFamily, ProviderInputSpec> = {
  'image-edit': { minSide: 384, maxSide: 2000, acceptsDataUri: true },
  tryon: { minSide: 150, maxSide: 2000, acceptsDataUri: false },
  'image-to-video': { minSide: 360, maxSide: 2000, acceptsDataUri: true },
};

/**
 * Whether the video model takes `parameters.audio` (Wan 2.5 and 2.6 generate a soundtrack by default,
 * `audio: false` makes the clip silent; earlier models make silent clips and do not document it).
 */
export function videoModelHasAudio(model: string): boolean {
  return /^wan2\.[5-9]/i.test(model);
}

/**
 * Documented output size range of wan2.5-i2i-preview's `parameters.size`: a pixel area between
 * 768*768 and 1280*1280 and an aspect ratio between 1:4 and 4:1.
 */
export const IMAGE_EDIT_SIZE_LIMITS = { minPixels: 768 * 768, maxPixels: 1280 * 1280, minRatio: 1 / 4, maxRatio: 4 } as const;

/** Parses "width*height" (the product's "2953*4096"); also accepts "x" or "×". */
export function parseSize(size: string): { width: number; height: number } | null {
  const m = /^\s*(\d{1,5})\s*[*x×]\s*(\d{1,5})\s*$/i.exec(size ?? '');
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * The allowed size closest to the requested one: same aspect ratio (clamped to the allowed range),
 * scaled so that the area falls inside the allowed range. "2953*4096" (12.1 MP) becomes "1086*1507"
 * (the largest allowed area, 1.64 MP, at the same 0.72 aspect ratio). Answers undefined when the
 * size cannot be read, so the request leaves `size` out and the model uses its default.
 */
export function fitImageEditSize(size: string, limits = IMAGE_EDIT_SIZE_LIMITS): string | undefined {
  const parsed = parseSize(size);
  if (!parsed) return undefined;
  const ratio = Math.min(limits.maxRatio, Math.max(limits.minRatio, parsed.width / parsed.height));
  let height = Math.sqrt((parsed.width * parsed.height) / ratio);
  let width = height * ratio;
  const area = width * height;
  if (area > limits.maxPixels || area < limits.minPixels) {
    const target = area > limits.maxPixels ? limits.maxPixels : limits.minPixels;
    height = Math.sqrt(target / ratio);
    width = height * ratio;
  }
  let w = Math.floor(width);
  let h = Math.floor(height);
  // flooring can only shrink the area; grow back by a pixel when it fell under the minimum
  while (w * h < limits.minPixels) {
    w += 1;
    h = Math.max(h, Math.ceil(w / ratio));
  }
  return `${w}*${h}`;
}

/**
 * Video resolution tier closest to the requested output: the first-frame API keeps the input
 * image's aspect ratio and scales the area to the tier. The product's 2953*4096 is above every tier,
 * so it maps to the largest, 1080P.
 */
export function videoResolutionTier(size: string): VideoTier {
  const parsed = parseSize(size);
  if (!parsed) return '1080P';
  const shortSide = Math.min(parsed.width, parsed.height);
  if (shortSide >= 1080) return '1080P';
  if (shortSide >= 720) return '720P';
  return '480P';
}

/**
 * The tier sent to `model` for the requested size: the largest the model documents that is not above
 * the requested tier, else its smallest (wan2.2-i2v-flash tops out at 720P; wan2.6 starts at 720P).
 * A model missing from the table gets the requested tier.
 */
export function videoResolutionFor(model: string, size: string): VideoTier {
  const wanted = videoResolutionTier(size);
  const offered = DASHSCOPE_VIDEO_MODELS[model]?.resolutions;
  if (!offered?.length) return wanted;
  const notAbove = offered.filter((t) => TIERS.indexOf(t) <= TIERS.indexOf(wanted));
  return notAbove.length ? notAbove[notAbove.length - 1] : offered[0];
}
