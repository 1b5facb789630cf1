/**
 * `dashscope`: Alibaba Cloud Model Studio (DashScope) through its asynchronous task API.
 *
 * Documentation followed (Alibaba Cloud Model Studio help center, read for this adapter):
 * - Asynchronous task management API: GET /api/v1/tasks/{task_id}; statuses PENDING, RUNNING,
 *   SUCCEEDED, FAILED, CANCELED, UNKNOWN (task missing or expired, results kept 24 h); failures carry
 *   output.code/output.message; only queued tasks can be cancelled.
 *   https://www.alibabacloud.com/help/en/model-studio/manage-asynchronous-tasks
 * - Wan 2.5 general image editing API reference (the default image model, wan2.5-i2i-preview):
 *   POST /api/v1/services/aigc/image2image/image-synthesis with `X-DashScope-Async: enable`,
 *   { model, input: { prompt, images: [1..3 URLs] }, parameters: { size "w*h", n, watermark } }
 *   -> { output: { task_id, task_status } }; result in output.results[].url (links last 24 h).
 *   Input images: JPEG, JPG, PNG (no alpha channel), BMP or WebP, 384 to 5000 px a side, at most
 *   10 MB, each given as a public URL or as `data:{MIME type};base64,{data}`.
 *   https://www.alibabacloud.com/help/en/model-studio/wan2-5-image-edit-api-reference
 * - Wan image-to-video, first frame (2.1-2.6), the default video model wan2.6-i2v-flash:
 *   POST /api/v1/services/aigc/video-generation/video-synthesis,
 *   { model, input: { prompt, img_url }, parameters: { resolution 480P|720P|1080P, duration, audio } };
 *   result in output.video_url. `img_url`: a public URL or a base64 data URI of a JPEG, PNG (no alpha
 *   channel), BMP or WebP, 360 to 2000 px a side, at most 10 MB. Wan 2.5 and 2.6 add a generated
 *   soundtrack unless `parameters.audio` is false (a silent clip costs about half).
 *   https://www.alibabacloud.com/help/en/model-studio/legacy-image-to-video-api-reference
 *   https://www.alibabacloud.com/help/en/model-studio/image-to-video-guide
 * - OutfitAnyone (aitryon, aitryon-plus), the dedicated try-on models, China (Beijing) region only:
 *   { model, input: { person_image_url, top_garment_url }, parameters: { resolution, restore_face } };
 *   result in output.image_url. Images 150 to 4096 px a side, 5 KB to 5 MB, given as URLs.
 *   https://help.aliyun.com/en/model-studio/outfitanyone-api
 *   https://www.alibabacloud.com/help/en/model-studio/aitryon-plus-api
 * - Error codes: 400 DataInspectionFailed ("input or output data may contain inappropriate content",
 *   the content-moderation refusal), 400 InvalidParameter, 400 InvalidParameter.DataInspection (a
 *   media file it cannot download or read: not a refusal), 401 InvalidApiKey, 403 AccessDenied,
 *   404 ModelNotFound, 429 Throttling.RateQuota / Throttling.AllocationQuota, 5xx.
 *   https://www.alibabacloud.com/help/en/model-studio/error-code
 *   https://help.aliyun.com/en/model-studio/error-code-start
 * - The cancel route, POST /api/v1/tasks/{task_id}/cancel, as the official SDK calls it
 *   (dashscope/dashscope-sdk-python, dashscope/client/base_api.py, `cancel`: "Cancel PENDING task").
 *
 * Model choice: the default base URL is the international (Singapore) endpoint, where the dedicated
 * try-on models (aitryon*) are not offered; wan2.5-i2i-preview is, and its documented multi-image
 * fusion takes the person, the garment and the scene in one request with our prompt. With the China
 * endpoint and a Beijing key, DASHSCOPE_IMAGE_MODEL=aitryon-plus selects the try-on protocol (which
 * takes no prompt and no scene). Video uses the first-frame image-to-video protocol; wan2.6-i2v-flash
 * is the model of the guide's Singapore example. Wan 2.6+ image models and wan2.7-i2v speak other
 * protocols (messages / media lists) and are not supported here.
 *
 * Models: DASHSCOPE_IMAGE_MODEL and DASHSCOPE_VIDEO_MODEL must name one of the models of
 * dashscope.config.ts (the configuration refuses others, and aitryon* outside the Beijing endpoint);
 * a video is sent the largest resolution tier its model documents up to the requested one.
 *
 * Retention: task results and their links are kept 24 h (the task API above), data is stored in the
 * region of the endpoint (https://www.alibabacloud.com/help/en/model-studio/regions); no call deletes
 * a task's inputs or outputs sooner, and none is documented.
 *
 * No webhooks (DashScope has none for these APIs): the pipeline polls `status`.
 */
import { NEGATIVE_PROMPT } from '../../catalog';
import {
  AiProvider,
  GenerationType,
  ProviderError,
  ProviderErrorKind,
  ProviderInputSpec,
  ProviderStartInput,
  ProviderStartResult,
  ProviderStatus,
} from './ai-provider';
import {
  DASHSCOPE_DEFAULTS,
  DASHSCOPE_INPUT_SPECS,
  DASHSCOPE_PATHS,
  fitImageEditSize,
  imageModelFamily,
  modelFamily,
  videoModelHasAudio,
  videoResolutionFor,
} from './dashscope.config';
import { asRecord, httpStatusKind, parseRetryAfter, redactSecret, requestJson, truncate, VendorErrorAnswer } from './provider-http';
import type { AppConfig } from '../../../config/app-config';

/** Still exported from here: callers (and this adapter's spec) read it from the adapter. */
export { parseRetryAfter };

export interface DashScopeProviderOptions {
  apiKey: string;
  /** without a trailing slash; default the international endpoint */
  baseUrl?: string;
  imageModel?: string;
  videoModel?: string;
  /** applies to `start` alongside the caller's signal (default 30 s) */
  startTimeoutMs?: number;
  /** applies to `status` and `cancel` (default 15 s) */
  statusTimeoutMs?: number;
  /** seconds of video (the first-frame API takes 5 for every model; some take up to 15) */
  videoDurationSeconds?: number;
  /** a generated soundtrack on videos (DASHSCOPE_VIDEO_AUDIO; default off: silent clips cost about half) */
  videoAudio?: boolean;
}

/** The task-status values of the asynchronous task API. */
type TaskStatus = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'UNKNOWN';
const TASK_STATUSES = new Set<TaskStatus>(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN']);

export class DashScopeProvider implements AiProvider {
  readonly name = 'dashscope' as const;
  readonly supportsWebhooks = false;
  readonly generatesWithAi = true;
  private readonly baseUrl: string;
  private readonly imageModel: string;
  private readonly videoModel: string;
  private readonly startTimeoutMs: number;
  private readonly statusTimeoutMs: number;
  private readonly videoDurationSeconds: number;
  private readonly videoAudio: boolean;

  constructor(private readonly options: DashScopeProviderOptions) {
    if (!options.apiKey) throw new Error('DashScopeProvider needs an API key (DASHSCOPE_API_KEY)');
    this.baseUrl = (options.baseUrl ?? DASHSCOPE_DEFAULTS.baseUrl).replace(/\/+$/, '');
    this.imageModel = options.imageModel ?? DASHSCOPE_DEFAULTS.imageModel;
    this.videoModel = options.videoModel ?? DASHSCOPE_DEFAULTS.videoModel;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.statusTimeoutMs = options.statusTimeoutMs ?? 15_000;
    this.videoDurationSeconds = options.videoDurationSeconds ?? 5;
    this.videoAudio = options.videoAudio ?? DASHSCOPE_DEFAULTS.videoAudio;
  }

  inputSpec(type: GenerationType): ProviderInputSpec {
    return DASHSCOPE_INPUT_SPECS[modelFamily(type, this.imageModel)];
  }

  /** The request body for a start, as documented for the configured model. Exposed for tests. */
  buildStartRequest(input: ProviderStartInput): { path: string; body: Record<string, unknown> } {
    if (input.type === 'video') {
      return {
        path: DASHSCOPE_PATHS.videoSynthesis,
        body: {
          model: this.videoModel,
          input: { prompt: input.prompt, negative_prompt: NEGATIVE_PROMPT, img_url: input.person.url },
          // prompt_extend: no rewriting of our prompt by the vendor's language model (it would drop the safety clause)
          // audio: Wan 2.5/2.6 add a generated soundtrack unless told not to (twice the price)
          parameters: {
            resolution: videoResolutionFor(this.videoModel, input.size),
            duration: this.videoDurationSeconds,
            prompt_extend: false,
            ...(videoModelHasAudio(this.videoModel) ? { audio: this.videoAudio } : {}),
          },
        },
      };
    }
    if (imageModelFamily(this.imageModel) === 'tryon') {
      return {
        path: DASHSCOPE_PATHS.imageSynthesis,
        body: {
          model: this.imageModel,
          // a catalogue outfit is a top or a one-piece: the documented field for both is top_garment_url
          input: { person_image_url: input.person.url, top_garment_url: input.garment.url },
          // -1 keeps the person photo's size; the documented fixed sizes (1024, 1280) are all smaller than ours
          parameters: { resolution: -1, restore_face: true },
        },
      };
    }
    const images = [input.person.url, input.garment.url, ...(input.scene ? [input.scene.url] : [])];
    const size = fitImageEditSize(input.size);
    return {
      path: DASHSCOPE_PATHS.imageSynthesis,
      body: {
        model: this.imageModel,
        input: { prompt: imageEditPrompt(input.prompt, Boolean(input.scene)), negative_prompt: NEGATIVE_PROMPT, images },
        // n: the default may be more than one image (each one billed); watermark: we tag results ourselves;
        // prompt_extend: no rewriting of our prompt by the vendor's language model (it would drop the safety clause)
        parameters: { ...(size ? { size } : {}), n: 1, watermark: false, prompt_extend: false },
      },
    };
  }

  async start(input: ProviderStartInput): Promise<ProviderStartResult> {
    const { path, body } = this.buildStartRequest(input);
    const res = await this.request('POST', path, {
      body,
      async: true,
      timeoutMs: this.startTimeoutMs,
      signal: input.signal,
      notFoundKind: ProviderErrorKind.Rejected,
    });
    const output = asRecord(asRecord(res)?.output);
    const taskId = output?.task_id;
    if (typeof taskId !== 'string' || taskId === '') {
      throw new ProviderError(ProviderErrorKind.BadResponse, 'DashScope answered the task creation without output.task_id');
    }
    return { jobId: taskId };
  }

  async status(jobId: string, signal?: AbortSignal): Promise<ProviderStatus> {
    const res = await this.request('GET', DASHSCOPE_PATHS.task(jobId), { timeoutMs: this.statusTimeoutMs, signal });
    return taskToStatus(res, (m) => this.redact(m));
  }

  /** Documented for queued (PENDING) tasks only; a task already running answers an error (Rejected). */
  async cancel(jobId: string): Promise<void> {
    await this.request('POST', DASHSCOPE_PATHS.cancel(jobId), { timeoutMs: this.statusTimeoutMs });
  }

  private request(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; async?: boolean; timeoutMs: number; signal?: AbortSignal; notFoundKind?: ProviderErrorKind },
  ): Promise<unknown> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.apiKey}` };
    if (opts.async) headers['X-DashScope-Async'] = 'enable';
    return requestJson({
      vendor: 'DashScope',
      method,
      url: `${this.baseUrl}${path}`,
      headers,
      body: opts.body,
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      mapError: (answer) => this.httpError(answer, opts.notFoundKind),
    });
  }

  private httpError({ status, body, retryAfter }: VendorErrorAnswer, notFoundKind?: ProviderErrorKind): ProviderError {
    const record = asRecord(body);
    const code = typeof record?.code === 'string' ? record.code : undefined;
    const vendorMessage = typeof record?.message === 'string' ? this.redact(record.message) : undefined;
    const message = `DashScope answered ${status}${code ? ` ${code}` : ''}${vendorMessage ? `: ${vendorMessage}` : ''}`;
    const base = { status, vendorCode: code };
    if (isInspectionFailure(code)) {
      return new ProviderError(ProviderErrorKind.Rejected, message, { ...base, refused: true });
    }
    if (status === 429 || (code && /^throttling/i.test(code))) {
      return new ProviderError(ProviderErrorKind.RateLimited, message, { ...base, retryAfterMs: parseRetryAfter(retryAfter) });
    }
    if (code === 'InvalidApiKey') return new ProviderError(ProviderErrorKind.Unauthorized, message, base);
    return new ProviderError(httpStatusKind(status, notFoundKind), message, base);
  }

  private redact(text: string): string {
    return redactSecret(text, this.options.apiKey);
  }
}

/** Builds the provider from the validated configuration (AI_PROVIDER=dashscope). */
export function createDashScopeProvider(
  config: Pick<AppConfig, 'dashscope'>,
  overrides: Partial<DashScopeProviderOptions> = {},
): DashScopeProvider {
  const c = config.dashscope;
  const apiKey = overrides.apiKey ?? c?.apiKey;
  if (!apiKey) throw new Error('DASHSCOPE_API_KEY is required when AI_PROVIDER=dashscope');
  return new DashScopeProvider({
    baseUrl: c?.baseUrl,
    imageModel: c?.imageModel,
    videoModel: c?.videoModel,
    videoAudio: c?.videoAudio,
    ...overrides,
    apiKey,
  });
}

/**
 * The image-editing prompt: the server's prompt plus which input image is which, the way the
 * documentation's multi-image examples refer to "image 1", "image 2".
 */
export function imageEditPrompt(prompt: string, withScene: boolean): string {
  const roles = withScene
    ? 'Image 1 is the person, image 2 is the outfit, image 3 is the scene. Dress the person from image 1 in the outfit from image 2 and place them in the scene of image 3, keeping their face, body and identity.'
    : 'Image 1 is the person, image 2 is the outfit. Dress the person from image 1 in the outfit from image 2, keeping their face, body and identity.';
  return `${prompt.trim()}\n${roles}`;
}

/** Maps a GET /api/v1/tasks/{task_id} answer to the port's status. */
export function taskToStatus(body: unknown, redact: (text: string) => string = (t) => t): ProviderStatus {
  const output = asRecord(asRecord(body)?.output);
  const taskStatus = output?.task_status;
  if (typeof taskStatus !== 'string' || !TASK_STATUSES.has(taskStatus as TaskStatus)) {
    throw new ProviderError(ProviderErrorKind.BadResponse, 'DashScope answered the task query without a known output.task_status');
  }
  const code = typeof output!.code === 'string' ? output!.code : undefined;
  const vendorMessage = typeof output!.message === 'string' ? truncate(redact(output!.message)) : undefined;
  switch (taskStatus as TaskStatus) {
    case 'PENDING':
      return { state: 'processing', detail: 'queued at the vendor' };
    case 'RUNNING':
      return { state: 'processing', detail: 'running at the vendor' };
    case 'SUCCEEDED': {
      const url = firstResultUrl(output!);
      if (url) return { state: 'completed', result: { url } };
      // a task with sub-tasks succeeds when one of them does; ours has one, so a missing URL is a failed sub-task
      const sub = firstSubtaskError(output!);
      if (sub) return failedStatus(sub.code, sub.message ? truncate(redact(sub.message)) : undefined);
      throw new ProviderError(ProviderErrorKind.BadResponse, 'DashScope reported SUCCEEDED without a result URL');
    }
    case 'FAILED':
      return failedStatus(code, vendorMessage);
    case 'CANCELED':
      return { state: 'failed', reason: 'The task was cancelled at the vendor' };
    case 'UNKNOWN':
      throw new ProviderError(ProviderErrorKind.NotFound, 'DashScope does not know the task (it never existed or expired after 24 h)', {
        vendorCode: 'UNKNOWN',
      });
  }
}

function failedStatus(code: string | undefined, message: string | undefined): ProviderStatus {
  if (isInspectionFailure(code)) {
    return { state: 'failed', refused: true, reason: `Refused by the vendor's content moderation${message ? `: ${message}` : ''}` };
  }
  const detail = [code, message].filter(Boolean).join(': ');
  return { state: 'failed', reason: detail ? `The vendor failed the task (${detail})` : 'The vendor failed the task' };
}

function firstResultUrl(output: Record<string, unknown>): string | undefined {
  if (Array.isArray(output.results)) {
    for (const item of output.results) {
      const url = asRecord(item)?.url;
      if (typeof url === 'string' && /^https?:\/\//.test(url)) return url;
    }
  }
  for (const key of ['image_url', 'video_url']) {
    const url = output[key];
    if (typeof url === 'string' && /^https?:\/\//.test(url)) return url;
  }
  return undefined;
}

function firstSubtaskError(output: Record<string, unknown>): { code?: string; message?: string } | undefined {
  if (!Array.isArray(output.results)) return undefined;
  for (const item of output.results) {
    const r = asRecord(item);
    if (typeof r?.code === 'string') return { code: r.code, message: typeof r.message === 'string' ? r.message : undefined };
  }
  return undefined;
}

/**
 * DataInspectionFailed (data_inspection_failed in the OpenAI-compatible API) is moderation refusing
 * the content; InvalidParameter.DataInspection is a media file that could not be downloaded or read.
 */
function isInspectionFailure(code: string | undefined): boolean {
  return Boolean(code && /^(DataInspectionFailed|data_inspection_failed)$/i.test(code));
}
