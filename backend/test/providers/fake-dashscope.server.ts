import { createHash, randomUUID } from 'node:crypto';
import { fakeResultJpeg, fakeResultMp4 } from '../fakes/fake-ai-provider';
import { FakeOverride, FakeReply, FakeVendorServer, ImageLoadFailure, ReceivedRequest } from './fake-vendor-server';

export type { FakeOverride, ReceivedRequest } from './fake-vendor-server';

/** How a task ends once it has been polled `pollsBeforeDone` times. */
export type FakeTaskOutcome =
  { end: 'SUCCEEDED' } | { end: 'FAILED'; code?: string; message?: string } | { end: 'DataInspectionFailed' } | { end: 'CANCELED' };

export interface FakeTaskPlan {
  /** answers PENDING for the first poll, then RUNNING, this many times before the outcome */
  pollsBeforeDone: number;
  outcome: FakeTaskOutcome;
}

interface FakeTask {
  id: string;
  model: string;
  kind: 'image-edit' | 'tryon' | 'image-to-video';
  plan: FakeTaskPlan;
  polls: number;
  canceled: boolean;
  /** image-to-video: whether the clip gets a generated soundtrack (`parameters.audio`, true unless sent false on Wan 2.5/2.6) */
  audio?: boolean;
  /** the link its result is answered at once it succeeds */
  resultUrl: string;
}

type Family = FakeTask['kind'];

/**
 * The documented input images of each model family (sources at the top of dashscope.provider.ts):
 * - image editing (wan2.5-i2i-preview): JPEG, JPG, PNG without an alpha channel, BMP, WebP; 384 to
 *   5000 px a side; at most 10 MB; a public URL or `data:{MIME type};base64,{data}`.
 *   https://www.alibabacloud.com/help/en/model-studio/wan2-5-image-edit-api-reference
 * - image-to-video, first frame (Wan 2.1 to 2.6): the same formats, 360 to 2000 px a side, at most
 *   10 MB; a public URL or a base64 data URI.
 *   https://www.alibabacloud.com/help/en/model-studio/image-to-video-api-reference
 * - OutfitAnyone (aitryon*): JPG, JPEG, PNG, BMP; 150 to 4096 px a side; 5 KB to 5 MB; URLs only.
 *   https://www.alibabacloud.com/help/en/model-studio/aitryon-plus-api
 */
const INPUT_LIMITS: Record<
  Family,
  { minSide: number; maxSide: number; minBytes: number; maxBytes: number; alpha: boolean; dataUri: boolean }
> = {
  'image-edit': { minSide: 384, maxSide: 5000, minBytes: 1, maxBytes: 10 * 1024 * 1024, alpha: false, dataUri: true },
  'image-to-video': { minSide: 360, maxSide: 2000, minBytes: 1, maxBytes: 10 * 1024 * 1024, alpha: false, dataUri: true },
  tryon: { minSide: 150, maxSide: 4096, minBytes: 5 * 1024, maxBytes: 5 * 1024 * 1024, alpha: true, dataUri: false },
};

/**
 * The models the fake offers, per region (a model not offered answers 400 InvalidParameter "Model not
 * exist.", as Model Studio does for a model name it does not have), and the resolution tiers of each
 * first-frame video model (another tier answers 400 InvalidParameter):
 * - wan2.5-i2i-preview: Singapore and Beijing (https://www.alibabacloud.com/help/en/model-studio/wan2-5-image-edit-api-reference)
 * - aitryon, aitryon-plus: "applies only to the China (Beijing) region" (https://www.alibabacloud.com/help/en/model-studio/aitryon-plus-api)
 * - wan2.6-i2v-flash, wan2.6-i2v: 720P, 1080P; wan2.5-i2v-preview: 480P, 720P, 1080P
 *   (https://www.alibabacloud.com/help/en/model-studio/legacy-image-to-video-api-reference); wan2.2-i2v-plus: 480P, 1080P;
 *   wan2.2-i2v-flash: 480P, 720P (https://help.aliyun.com/zh/model-studio/developer-reference/image-to-video-api-reference);
 *   wan2.1-i2v-plus: 720P; wan2.1-i2v-turbo: 480P, 720P (https://www.alibabacloud.com/help/en/model-studio/image-to-video-api-reference)
 */
const IMAGE_MODELS: Record<string, readonly FakeRegion[]> = {
  'wan2.5-i2i-preview': ['international', 'china'],
  aitryon: ['china'],
  'aitryon-plus': ['china'],
};
const VIDEO_MODELS: Record<string, readonly string[]> = {
  'wan2.6-i2v-flash': ['720P', '1080P'],
  'wan2.6-i2v': ['720P', '1080P'],
  'wan2.5-i2v-preview': ['480P', '720P', '1080P'],
  'wan2.2-i2v-plus': ['480P', '1080P'],
  'wan2.2-i2v-flash': ['480P', '720P'],
  'wan2.1-i2v-plus': ['720P'],
  'wan2.1-i2v-turbo': ['480P', '720P'],
};
export type FakeRegion = 'international' | 'china';

/** The general status codes' messages (Model Studio "Error messages"). */
const DOWNLOAD_FAILED = 'Download the media resource timed out during the data inspection process.';
const BAD_MEDIA = 'The media format is not supported or incorrect for the data inspection.';

/**
 * A local stand-in for Alibaba Cloud Model Studio's asynchronous task API, speaking its protocol:
 * POST /api/v1/services/aigc/image2image/image-synthesis and
 * POST /api/v1/services/aigc/video-generation/video-synthesis (Bearer key, `X-DashScope-Async: enable`
 * required, documented input fields and size range checked) answer { request_id, output: { task_id,
 * task_status: PENDING } }; GET /api/v1/tasks/{id} walks PENDING -> RUNNING -> the planned end, with
 * results in output.results[].url (image editing), output.image_url (aitryon) or output.video_url;
 * unknown or expired ids answer UNKNOWN; POST /api/v1/tasks/{id}/cancel cancels PENDING tasks only.
 * Errors use the vendor's body: { request_id, code, message }.
 *
 * Input images are loaded at submit (links fetched, data URIs decoded) and held to each family's
 * documented limits (INPUT_LIMITS): a link it cannot download answers 400
 * InvalidParameter.DataInspection, so does a file that is not JPEG, PNG, BMP or WebP or a PNG with
 * an alpha channel for Wan; sides or bytes out of range answer 400 InvalidParameter; a data URI to
 * a model that takes links only answers 400 InvalidURL. `parameters.audio` must be a boolean when
 * given; a Wan 2.5/2.6 clip gets a soundtrack unless it is false (`task.audio`). Result links
 * (`/results/<task>.png|.mp4`) are public, like the vendor's OSS links.
 */
export class FakeDashScopeServer extends FakeVendorServer {
  readonly apiKey = 'sk-fake-dashscope-key-1234567890';
  /** the plan of the next task created (a test sets it before starting) */
  nextPlan: FakeTaskPlan = { pollsBeforeDone: 2, outcome: { end: 'SUCCEEDED' } };
  /** answers used, first in first out, instead of the normal task creation */
  readonly submitOverrides: FakeOverride[] = [];
  /** answers used, first in first out, instead of the normal task query */
  readonly statusOverrides: FakeOverride[] = [];
  readonly tasks = new Map<string, FakeTask>();
  /** the region this endpoint stands for (its models differ): Singapore by default, like DASHSCOPE_BASE_URL's default */
  region: FakeRegion = 'international';

  /** Forgets a task, as the vendor does 24 h after it ends. */
  expire(taskId: string): void {
    this.tasks.delete(taskId);
  }

  override reset(): void {
    super.reset();
    this.nextPlan = { pollsBeforeDone: 2, outcome: { end: 'SUCCEEDED' } };
    this.submitOverrides.length = 0;
    this.statusOverrides.length = 0;
    this.region = 'international';
  }

  lastSubmit(): ReceivedRequest | undefined {
    return [...this.received].reverse().find((r) => r.method === 'POST' && r.path.startsWith('/api/v1/services/'));
  }

  protected async route(req: ReceivedRequest, { send, useOverride }: FakeReply): Promise<void> {
    const { path, body } = req;
    const requestId = randomUUID();
    const error = (status: number, code: string, message: string, headers?: Record<string, string>) =>
      send(status, { request_id: requestId, code, message }, headers);

    const result = /^\/results\/(?:[^/]+\/)*([^/]+)\.(png|mp4)$/.exec(path);
    if (req.method === 'GET' && result) {
      const task = this.tasks.get(decodeURIComponent(result[1]));
      if (!task || task.plan.outcome.end !== 'SUCCEEDED') return error(404, 'NotFound', 'Not Found');
      const video = result[2] === 'mp4';
      const bytes = video ? await fakeResultMp4() : await fakeResultJpeg();
      return send(200, undefined, { 'Content-Type': video ? 'video/mp4' : 'image/jpeg' }, bytes.toString('latin1'), 0, 'latin1');
    }

    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return error(401, 'InvalidApiKey', `Invalid API-key provided: ${presented}`);
    }

    const isImage = path === '/api/v1/services/aigc/image2image/image-synthesis';
    const isVideo = path === '/api/v1/services/aigc/video-generation/video-synthesis';
    if (req.method === 'POST' && (isImage || isVideo)) {
      if (req.headers['x-dashscope-async'] !== 'enable') {
        return error(403, 'AccessDenied', 'current user api does not support synchronous calls');
      }
      const override = this.submitOverrides.shift();
      if (override) return useOverride(override);
      const problem = validateSubmit(isVideo ? 'video' : 'image', body) ?? this.modelProblem(isVideo ? 'video' : 'image', body);
      if (problem) return error(400, 'InvalidParameter', problem);
      const b = body as { model: string; input: Record<string, unknown>; parameters?: Record<string, unknown> };
      const kind: Family = isVideo ? 'image-to-video' : /^aitryon/.test(b.model) ? 'tryon' : 'image-edit';
      const refused = await this.refuseInputs(kind, b.input);
      if (refused) return error(400, refused.code, refused.message);
      const audio = kind === 'image-to-video' ? /^wan2\.[56]/.test(b.model) && b.parameters?.audio !== false : undefined;
      const id = randomUUID();
      this.tasks.set(id, {
        id,
        model: b.model,
        kind,
        plan: this.nextPlan,
        polls: 0,
        canceled: false,
        audio,
        resultUrl: this.resultUrl(id, kind),
      });
      return send(200, { request_id: requestId, output: { task_id: id, task_status: 'PENDING' } });
    }

    const taskMatch = /^\/api\/v1\/tasks\/([^/]+)(\/cancel)?$/.exec(path);
    if (taskMatch && req.method === 'GET' && !taskMatch[2]) {
      const override = this.statusOverrides.shift();
      if (override) return useOverride(override);
      const task = this.tasks.get(decodeURIComponent(taskMatch[1]));
      if (!task) return send(200, { request_id: requestId, output: { task_id: taskMatch[1], task_status: 'UNKNOWN' } });
      return send(200, { request_id: requestId, output: this.poll(task) });
    }
    if (taskMatch && req.method === 'POST' && taskMatch[2]) {
      const task = this.tasks.get(decodeURIComponent(taskMatch[1]));
      if (!task) return error(404, 'NotFound', 'task not found');
      if (task.canceled || task.polls > 0) {
        return error(400, 'UnsupportedOperation', 'Failed to cancel the task, please confirm if the task is in PENDING status.');
      }
      task.canceled = true;
      return send(200, { request_id: requestId });
    }
    return error(404, 'NotFound', 'Not Found');
  }

  /** A model this region does not offer, or a resolution the video model does not have. */
  private modelProblem(kind: 'image' | 'video', body: unknown): string | undefined {
    const b = body as { model: string; parameters?: { resolution?: string } };
    if (kind === 'image') return IMAGE_MODELS[b.model]?.includes(this.region) ? undefined : 'Model not exist.';
    const tiers = VIDEO_MODELS[b.model];
    if (!tiers) return 'Model not exist.';
    const tier = b.parameters?.resolution;
    if (tier !== undefined && !tiers.includes(tier)) {
      return `The resolution ${tier} is not supported by ${b.model}; supported: ${tiers.join(', ')}.`;
    }
    return undefined;
  }

  /**
   * A result link as Model Studio hands them out: an OSS object URL signed for 24 h, a few hundred
   * characters long (Expires, OSSAccessKeyId, Signature), public like the vendor's.
   */
  private resultUrl(id: string, kind: Family): string {
    const expires = Math.floor(Date.now() / 1000) + 24 * 3600;
    const signature = createHash('sha256').update(id).digest('base64url');
    const ext = kind === 'image-to-video' ? 'mp4' : 'png';
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    return `${this.baseUrl}/results/1d/${id.slice(0, 2)}/${day}/${id.slice(0, 8)}/${id}.${ext}?Expires=${expires}&OSSAccessKeyId=LTAI5tFakeDashScopeRes0lt&Signature=${signature}%3D`;
  }

  /** The input images of a submit, loaded and held to the family's limits; the vendor's error when one is refused. */
  private async refuseInputs(kind: Family, input: Record<string, unknown>): Promise<{ code: string; message: string } | undefined> {
    if (!this.checkImages) return undefined;
    const fields: Array<[string, string]> =
      kind === 'image-edit'
        ? (input.images as string[]).map((ref, i) => [`images[${i}]`, ref])
        : kind === 'image-to-video'
          ? [['img_url', input.img_url as string]]
          : (['person_image_url', 'top_garment_url', 'bottom_garment_url'] as const)
              .filter((f) => typeof input[f] === 'string')
              .map((f) => [f, input[f] as string]);
    const limits = INPUT_LIMITS[kind];
    for (const [field, ref] of fields) {
      if (ref.startsWith('data:') && !limits.dataUri) return { code: 'InvalidURL', message: 'Invalid URL provided in your request.' };
      const loaded = await this.loadImage(field, ref);
      if (!loaded.ok) return loadError(loaded.failure);
      const { format, width, height, hasAlpha, bytes } = loaded.image;
      if (format === 'gif' || (kind === 'tryon' && format === 'webp'))
        return { code: 'InvalidParameter.DataInspection', message: BAD_MEDIA };
      if (format === 'png' && hasAlpha && !limits.alpha) return { code: 'InvalidParameter.DataInspection', message: BAD_MEDIA };
      if (Math.min(width, height) < limits.minSide || Math.max(width, height) > limits.maxSide) {
        return {
          code: 'InvalidParameter',
          message: `The resolution of ${field} is invalid: width and height must be within [${limits.minSide}, ${limits.maxSide}] pixels, got ${width}x${height}.`,
        };
      }
      if (bytes < limits.minBytes || bytes > limits.maxBytes) {
        return {
          code: 'InvalidParameter',
          message: `The file size of ${field} must be within [${limits.minBytes}, ${limits.maxBytes}] bytes.`,
        };
      }
    }
    return undefined;
  }

  private poll(task: FakeTask): Record<string, unknown> {
    const base = { task_id: task.id, submit_time: '2025-01-01 00:00:00.000' };
    if (task.canceled) return { ...base, task_status: 'CANCELED' };
    task.polls += 1;
    if (task.polls <= task.plan.pollsBeforeDone) return { ...base, task_status: task.polls === 1 ? 'PENDING' : 'RUNNING' };
    const outcome = task.plan.outcome;
    switch (outcome.end) {
      case 'SUCCEEDED': {
        const url = task.resultUrl;
        if (task.kind === 'image-to-video') return { ...base, task_status: 'SUCCEEDED', video_url: url };
        if (task.kind === 'tryon') return { ...base, task_status: 'SUCCEEDED', image_url: url };
        return { ...base, task_status: 'SUCCEEDED', results: [{ url }], task_metrics: { TOTAL: 1, SUCCEEDED: 1, FAILED: 0 } };
      }
      case 'FAILED':
        return {
          ...base,
          task_status: 'FAILED',
          code: outcome.code ?? 'InternalError.Algo',
          message: outcome.message ?? 'Algorithm process error.',
        };
      case 'DataInspectionFailed':
        return { ...base, task_status: 'FAILED', code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' };
      case 'CANCELED':
        return { ...base, task_status: 'CANCELED' };
    }
  }
}

function loadError(failure: ImageLoadFailure): { code: string; message: string } {
  if (failure === 'unreachable' || failure === 'download-failed')
    return { code: 'InvalidParameter.DataInspection', message: DOWNLOAD_FAILED };
  return { code: 'InvalidParameter.DataInspection', message: BAD_MEDIA };
}

/** The documented request shapes; answers what is wrong, like the vendor's InvalidParameter message. */
function validateSubmit(kind: 'image' | 'video', body: unknown): string | undefined {
  const b = body as { model?: unknown; input?: Record<string, unknown>; parameters?: Record<string, unknown> } | undefined;
  if (!b || typeof b !== 'object') return 'Request body must be JSON';
  if (typeof b.model !== 'string' || !b.model) return 'Required parameter "model" missing from request.';
  if (!b.input || typeof b.input !== 'object') return 'Required input parameter missing from request.';
  const p = b.parameters ?? {};
  if (kind === 'video') {
    if (typeof b.input.img_url !== 'string') return 'input.img_url is required for image-to-video models';
    if (p.resolution !== undefined && !['480P', '720P', '1080P'].includes(p.resolution as string))
      return 'parameters.resolution is invalid';
    if (p.audio !== undefined && typeof p.audio !== 'boolean') return 'parameters.audio must be a boolean';
    return undefined;
  }
  if (/^aitryon/.test(b.model)) {
    if (typeof b.input.person_image_url !== 'string') return 'input.person_image_url is required';
    if (typeof b.input.top_garment_url !== 'string' && typeof b.input.bottom_garment_url !== 'string') return 'a garment image is required';
    if (p.resolution !== undefined && ![-1, 1024, 1280].includes(p.resolution as number)) return 'parameters.resolution is invalid';
    return undefined;
  }
  if (typeof b.input.prompt !== 'string' || !b.input.prompt) return 'input.prompt is required';
  const images = b.input.images;
  if (!Array.isArray(images) || images.length < 1 || images.length > 3 || images.some((i) => typeof i !== 'string')) {
    return 'input.images must hold 1 to 3 image URLs';
  }
  if (p.size !== undefined) {
    const m = /^(\d+)\*(\d+)$/.exec(String(p.size));
    if (!m) return 'parameters.size must be width*height';
    const w = Number(m[1]);
    const h = Number(m[2]);
    if (w * h < 768 * 768 || w * h > 1280 * 1280 || w / h < 1 / 4 || w / h > 4) {
      return 'parameters.size: the pixel area must be within [768*768, 1280*1280] and the aspect ratio within [1:4, 4:1]';
    }
  }
  return undefined;
}
