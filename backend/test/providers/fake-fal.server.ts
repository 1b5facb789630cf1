import { createHash, generateKeyPairSync, KeyObject, randomUUID, sign } from 'node:crypto';
import sharp from 'sharp';
import { stillToVideo } from '../../src/modules/generations/rendering/ffmpeg';
import { FakeOverride, FakeReply, FakeVendorServer, ReceivedRequest } from './fake-vendor-server';

export type { FakeOverride, ReceivedRequest } from './fake-vendor-server';

/**
 * What the fake knows of each model, as documented (fal's model API pages and the input schemas of
 * its official client, fal-ai/fal-js libs/client/src/types/endpoints.ts): the required inputs, the
 * image inputs and their limits (Kling: JPG/PNG up to 10 MB, each side at least 300 px, video first
 * frames between 1:2.5 and 2.5:1; FASHN v1.6: at most 2000 px on the longest edge), the allowed
 * values of enumerated inputs, and what the output is.
 */
interface FakeModel {
  required: string[];
  images: string[];
  minSide: number;
  maxSide?: number;
  /** width / height bounds of the image inputs */
  ratio?: [number, number];
  enums?: Record<string, string[]>;
  output: 'image' | 'images' | 'video';
  /**
   * Video models with an `aspect_ratio` input frame the clip by it (its first value is the default);
   * the others frame it like the first frame.
   */
  aspectRatioInput?: boolean;
}

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const KLING_VIDEO: FakeModel = {
  required: ['prompt', 'image_url'],
  images: ['image_url'],
  minSide: 300,
  ratio: [1 / 2.5, 2.5],
  enums: { duration: ['5', '10'] },
  output: 'video',
};
/**
 * Kling 1.6 pro image-to-video takes `aspect_ratio`: "16:9" (the default), "9:16" or "1:1"
 * (fal-ai/fal-js libs/client/src/types/endpoints.ts, KlingVideoV16ProImageToVideoInput); 1.6 standard,
 * 2.1 standard and 2.1 pro take none (KlingVideoV2MasterImageToVideoInput, KlingVideoV21ProImageToVideoInput).
 */
const KLING_VIDEO_WITH_RATIO: FakeModel = {
  ...KLING_VIDEO,
  enums: { ...KLING_VIDEO.enums, aspect_ratio: ['16:9', '9:16', '1:1'] },
  aspectRatioInput: true,
};
export const FAKE_FAL_MODELS: Record<string, FakeModel> = {
  'fal-ai/kling/v1-5/kolors-virtual-try-on': {
    required: ['human_image_url', 'garment_image_url'],
    images: ['human_image_url', 'garment_image_url'],
    minSide: 300,
    output: 'image',
  },
  'fal-ai/fashn/tryon/v1.6': {
    required: ['model_image', 'garment_image'],
    images: ['model_image', 'garment_image'],
    minSide: 1,
    maxSide: 2000,
    enums: {
      category: ['tops', 'bottoms', 'one-pieces', 'auto'],
      mode: ['performance', 'balanced', 'quality'],
      moderation_level: ['none', 'permissive', 'conservative'],
    },
    output: 'images',
  },
  'fal-ai/leffa/virtual-tryon': {
    required: ['human_image_url', 'garment_image_url', 'garment_type'],
    images: ['human_image_url', 'garment_image_url'],
    minSide: 1,
    enums: { garment_type: ['upper_body', 'lower_body', 'dresses'] },
    output: 'image',
  },
  'fal-ai/kling-video/v2.1/standard/image-to-video': KLING_VIDEO,
  'fal-ai/kling-video/v2.1/pro/image-to-video': KLING_VIDEO,
  'fal-ai/kling-video/v1.6/standard/image-to-video': KLING_VIDEO,
  'fal-ai/kling-video/v1.6/pro/image-to-video': KLING_VIDEO_WITH_RATIO,
};

/**
 * What fal keeps of a request, and the calls that control it (sources in fal.config.ts, FAL_RETENTION):
 * - `X-Fal-Store-IO: 0` on the submit: fal stores no payload of the request (its JSON input and output,
 *   30 days by default otherwise). https://fal.ai/docs/documentation/model-apis/inference/payloads
 * - `X-Fal-Object-Lifecycle-Preference: {"expiration_duration_seconds": n}` (n >= 1, or null for no
 *   expiry): the request's output files are deleted after n seconds. The header's value is a JSON object
 *   (https://docs.fal.ai/documentation/model-apis/media-expiration); this fake refuses any other value
 *   (400), so a malformed header fails loudly.
 * - DELETE /v1/models/requests/{request_id}/payloads on the Platform API, with an admin key (a key
 *   without admin scope answers 403, no key 401), request_id a UUID (422 otherwise), an optional
 *   Idempotency-Key: deletes the payloads and the output files, answers { cdn_delete_results: [{ link,
 *   exception }] }; an unknown request answers 404. https://docs.fal.ai/platform-apis/v1/models/requests/payloads
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A model error as fal answers it: { detail: [{ loc, msg, type, url, ctx?, input? }] }. */
export interface FakeModelError {
  status: number;
  body: { detail: { loc: string[]; msg: string; type: string; url: string; ctx?: Record<string, unknown>; input?: unknown }[] };
}

export interface FakeFalPlan {
  /** status answers IN_QUEUE, then IN_PROGRESS, this many times in all before COMPLETED */
  pollsBeforeDone: number;
  /** the model's error instead of its output (the inputs are checked first all the same) */
  error?: FakeModelError;
}

export interface FakeFalRequest {
  id: string;
  modelId: string;
  appId: string;
  input: Record<string, unknown>;
  plan: FakeFalPlan;
  polls: number;
  webhookUrl?: string;
  done: boolean;
  cancelled: boolean;
  /** the model's run: its answer at the result route */
  work: Promise<{ status: number; body: unknown }>;
  webhookDelivered: boolean;
  /** false when the submit said `X-Fal-Store-IO: 0` */
  storeIo: boolean;
  /** the submit's `expiration_duration_seconds` (null: never; undefined: no header) */
  outputExpirySeconds?: number | null;
  /** the output files the run made (paths under /files/) */
  outputFiles: string[];
  /** the size of the video frame the run made */
  videoFrame?: { width: number; height: number };
  /** the Platform API deleted its payloads and output files */
  payloadsDeleted: boolean;
}

/** One signed webhook call as fal makes it. */
export interface FakeWebhookCall {
  headers: Record<string, string>;
  body: Buffer;
}

export function modelError(field: string, type: string, msg: string, ctx?: Record<string, unknown>): FakeModelError {
  return {
    status: 422,
    body: { detail: [{ loc: ['body', field], msg, type, url: `https://docs.fal.ai/errors#${type}`, ...(ctx ? { ctx } : {}) }] },
  };
}

/**
 * A local stand-in for fal.ai's queue, speaking its protocol (https://docs.fal.ai/model-endpoints/queue):
 * - POST /{model id}?fal_webhook=<url> (`Authorization: Key <key>`, a JSON object) answers
 *   { request_id, response_url, status_url, cancel_url }; an unknown model answers 404.
 * - GET /{owner}/{app}/requests/{id}/status walks IN_QUEUE -> IN_PROGRESS -> COMPLETED; status and
 *   result routes take the app id only (owner/app), never the model's sub-path, as documented.
 * - GET /{owner}/{app}/requests/{id} answers the model's output, or its error: the inputs are
 *   checked as the model does (required fields, enumerated values; each image fetched from its
 *   URL or decoded from its data URI: JPEG or PNG, at most 10 MB, the documented sides and ratio),
 *   422 { detail: [...] } otherwise. A result before COMPLETED answers 400.
 * - PUT /{owner}/{app}/requests/{id}/cancel: 202 CANCELLATION_REQUESTED while queued, 400
 *   ALREADY_COMPLETED after.
 * - On COMPLETED it POSTs the webhook (status OK with the payload, or ERROR) to fal_webhook, signed
 *   with a real ED25519 key whose public half GET /.well-known/jwks.json serves.
 * - Retention (FAL_RETENTION above): records `X-Fal-Store-IO` and `X-Fal-Object-Lifecycle-Preference`,
 *   keeps a request's payloads unless told not to, expires its output files, and serves the Platform
 *   API's DELETE /v1/models/requests/{id}/payloads (admin key only).
 * Outputs are real files it serves at /files/{id}/...: a JPEG drawn from the person photo and the
 * garment, or an MP4 made from the first frame (framed by `aspect_ratio` on Kling 1.6 pro, like the
 * first frame on the other Kling models).
 */
export class FakeFalServer extends FakeVendorServer {
  /** an admin key: it may also delete payloads */
  readonly apiKey = 'fal-fake-key-id:0123456789abcdef0123456789abcdef';
  /** a key without admin scope: the queue takes it, the Platform API's delete refuses it (403) */
  readonly apiOnlyKey = 'fal-fake-key-id2:fedcba9876543210fedcba9876543210';
  readonly userId = 'fake-fal-user-42';
  readonly requests = new Map<string, FakeFalRequest>();
  readonly submitOverrides: FakeOverride[] = [];
  readonly statusOverrides: FakeOverride[] = [];
  readonly resultOverrides: FakeOverride[] = [];
  nextPlan: FakeFalPlan = { pollsBeforeDone: 2 };
  /** where a webhook URL given to the fake really is (a test app listens on another port than its APP_URL) */
  resolveUrl: (url: string) => string = (url) => url;
  /** webhook deliveries: the URL, the receiver's HTTP status */
  readonly deliveries: { url: string; status: number }[] = [];
  /** the payloads fal keeps (request id -> input and output), for requests submitted without `X-Fal-Store-IO: 0` */
  readonly storedPayloads = new Map<string, { input: unknown; output?: unknown }>();
  /** what the JWKS route serves: the real key set, an empty set, or an error status */
  jwks: 'keys' | 'empty' | number = 'keys';
  private readonly keys = generateKeyPairSync('ed25519');
  private readonly files = new Map<string, { type: string; body: Buffer; expiresAt?: number }>();

  override reset(): void {
    super.reset();
    this.submitOverrides.length = 0;
    this.statusOverrides.length = 0;
    this.resultOverrides.length = 0;
    this.deliveries.length = 0;
    this.nextPlan = { pollsBeforeDone: 2 };
    this.resolveUrl = (url) => url;
    this.jwks = 'keys';
  }

  get platformUrl(): string {
    return `${this.baseUrl}/v1`;
  }

  /** When an output file of the fake's CDN expires (ms since the epoch); undefined when it never does or does not exist. */
  fileExpiry(url: string): number | undefined {
    return this.files.get(new URL(url).pathname)?.expiresAt;
  }

  /** Whether an output file of the fake's CDN can still be fetched (not deleted, not expired). */
  hasFile(url: string): boolean {
    const file = this.files.get(new URL(url).pathname);
    return Boolean(file && (file.expiresAt === undefined || Date.now() < file.expiresAt));
  }

  get jwksUrl(): string {
    return `${this.baseUrl}/.well-known/jwks.json`;
  }

  lastSubmit(): ReceivedRequest | undefined {
    return [...this.received].reverse().find((r) => r.method === 'POST' && !r.path.includes('/requests/'));
  }

  /** Runs a request to its end now (as if its runner finished) and delivers its webhook. */
  async finish(id: string): Promise<void> {
    const r = this.request(id);
    await r.work;
    r.done = true;
    await this.deliverWebhook(r);
  }

  /** A webhook call for `body`, signed like fal's; `key`, `timestamp`, `userId` forge one. */
  signedWebhook(body: Buffer, options: { requestId: string; key?: KeyObject; timestamp?: number; userId?: string }): FakeWebhookCall {
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const userId = options.userId ?? this.userId;
    const message = [options.requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
    const signature = sign(null, Buffer.from(message), options.key ?? this.keys.privateKey).toString('hex');
    return {
      headers: {
        'Content-Type': 'application/json',
        'X-Fal-Webhook-Request-Id': options.requestId,
        'X-Fal-Webhook-User-Id': userId,
        'X-Fal-Webhook-Timestamp': timestamp,
        'X-Fal-Webhook-Signature': signature,
      },
      body,
    };
  }

  /** The body fal POSTs to the webhook when the request is done. */
  async webhookBody(id: string): Promise<Buffer> {
    const r = this.request(id);
    const result = await r.work;
    const ok = result.status === 200;
    return Buffer.from(
      JSON.stringify({
        request_id: r.id,
        gateway_request_id: r.id,
        status: ok ? 'OK' : 'ERROR',
        ...(ok ? { payload: result.body } : { error: `Invalid status code: ${result.status}`, payload: result.body }),
      }),
    );
  }

  protected async route(req: ReceivedRequest, { send, useOverride }: FakeReply): Promise<void> {
    const { path, method } = req;
    if (method === 'GET' && path === '/.well-known/jwks.json') {
      if (typeof this.jwks === 'number') return send(this.jwks, { detail: 'Service Unavailable' });
      const jwk = this.keys.publicKey.export({ format: 'jwk' });
      return send(200, { keys: this.jwks === 'empty' ? [] : [{ ...jwk, kid: 'fake-fal-key-1', alg: 'EdDSA', use: 'sig' }] });
    }
    if (method === 'GET' && path.startsWith('/files/')) {
      const file = this.files.get(path);
      if (!file || (file.expiresAt !== undefined && Date.now() >= file.expiresAt)) return send(404, { detail: 'Not Found' });
      return send(200, undefined, { 'Content-Type': file.type }, file.body.toString('latin1'), 0, 'latin1');
    }

    const key = req.headers.authorization;
    if (key !== `Key ${this.apiKey}` && key !== `Key ${this.apiOnlyKey}`) {
      return send(401, { detail: 'Authentication is required to access this application.' });
    }

    const payloads = /^\/v1\/models\/requests\/([^/]+)\/payloads$/.exec(path);
    if (payloads) {
      if (method !== 'DELETE') return send(405, { detail: 'Method Not Allowed' });
      if (key !== `Key ${this.apiKey}`) return send(403, { detail: 'This operation requires an ADMIN API key' });
      const id = decodeURIComponent(payloads[1]);
      if (!UUID.test(id)) {
        return send(422, { detail: [{ loc: ['path', 'request_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }] });
      }
      const r = this.requests.get(id);
      if (!r) return send(404, { detail: 'Request not found' });
      this.storedPayloads.delete(id);
      r.payloadsDeleted = true;
      const results = r.outputFiles.map((file) => ({ link: `${this.baseUrl}${file}`, exception: null }));
      for (const file of r.outputFiles) this.files.delete(file);
      return send(200, { cdn_delete_results: results });
    }

    const queued = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
    if (queued) {
      const [, appId, id, tail] = queued;
      const overrides =
        method !== 'GET' ? undefined : tail === '/status' ? this.statusOverrides : tail === undefined ? this.resultOverrides : undefined;
      const override = overrides?.shift();
      if (override) return useOverride(override);
      const r = this.requests.get(decodeURIComponent(id));
      if (!r || r.appId !== appId) return send(404, { detail: 'Request not found' });
      if (method === 'GET' && tail === '/status') return send(r.done ? 200 : 202, await this.statusOf(r, appId));
      if (method === 'GET' && tail === undefined) {
        if (!r.done) return send(400, { detail: 'Request is still in progress' });
        const result = await r.work;
        return send(result.status, result.body);
      }
      if (method === 'PUT' && tail === '/cancel') {
        // only a request still IN_QUEUE can be cancelled
        if (r.done || r.polls > 1) return send(400, { status: 'ALREADY_COMPLETED' });
        r.cancelled = true;
        r.done = true;
        r.work = Promise.resolve({ status: 400, body: { detail: 'Request was cancelled', error_type: 'client_cancelled' } });
        return send(202, { status: 'CANCELLATION_REQUESTED' });
      }
      return send(405, { detail: 'Method Not Allowed' });
    }

    if (method === 'POST') {
      const override = this.submitOverrides.shift();
      if (override) return useOverride(override);
      const modelId = path.slice(1);
      const model = FAKE_FAL_MODELS[modelId];
      if (!model) return send(404, { detail: `Application '${modelId}' not found` });
      const body = req.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return send(422, { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }] });
      }
      const lifecycle = readLifecycle(req.headers['x-fal-object-lifecycle-preference']);
      if (lifecycle === 'invalid') {
        return send(400, { detail: 'X-Fal-Object-Lifecycle-Preference must be a JSON object with expiration_duration_seconds' });
      }
      const id = randomUUID();
      const appId = modelId.split('/').slice(0, 2).join('/');
      const input = body as Record<string, unknown>;
      const plan = this.nextPlan;
      const storeIo = req.headers['x-fal-store-io'] !== '0';
      if (storeIo) this.storedPayloads.set(id, { input });
      const r: FakeFalRequest = {
        id,
        modelId,
        appId,
        input,
        plan,
        polls: 0,
        webhookUrl: req.query.get('fal_webhook') ?? undefined,
        done: false,
        cancelled: false,
        webhookDelivered: false,
        storeIo,
        outputExpirySeconds: lifecycle,
        outputFiles: [],
        payloadsDeleted: false,
        work: Promise.resolve({ status: 0, body: undefined }),
      };
      r.work = this.run(r, model, input, plan)
        .catch(() => ({
          status: 500,
          body: { detail: 'The runner encountered an internal server error', error_type: 'runner_server_error' },
        }))
        .then((result) => {
          if (r.storeIo && !r.payloadsDeleted) this.storedPayloads.set(id, { input, output: result.body });
          return result;
        });
      this.requests.set(id, r);
      const at = `${this.baseUrl}/${appId}/requests/${id}`;
      return send(200, { request_id: id, response_url: at, status_url: `${at}/status`, cancel_url: `${at}/cancel`, queue_position: 0 });
    }
    return send(404, { detail: 'Not Found' });
  }

  private request(id: string): FakeFalRequest {
    const r = this.requests.get(id);
    if (!r) throw new Error(`no fal request ${id}`);
    return r;
  }

  private async statusOf(r: FakeFalRequest, appId: string): Promise<Record<string, unknown>> {
    const at = `${this.baseUrl}/${appId}/requests/${r.id}`;
    const common = { request_id: r.id, response_url: at, status_url: `${at}/status`, cancel_url: `${at}/cancel` };
    if (!r.done) {
      r.polls += 1;
      if (r.polls <= r.plan.pollsBeforeDone) {
        return r.polls === 1 ? { ...common, status: 'IN_QUEUE', queue_position: 0 } : { ...common, status: 'IN_PROGRESS', logs: null };
      }
      await r.work;
      r.done = true;
      // fal calls the webhook when the request is done; the status answer does not wait for it
      void this.deliverWebhook(r).catch(() => undefined);
    }
    return { ...common, status: 'COMPLETED', logs: null, metrics: { inference_time: 1.5 } };
  }

  private async deliverWebhook(r: FakeFalRequest): Promise<void> {
    if (!r.webhookUrl || r.webhookDelivered || r.cancelled) return;
    r.webhookDelivered = true;
    const call = this.signedWebhook(await this.webhookBody(r.id), { requestId: r.id });
    const url = this.resolveUrl(r.webhookUrl);
    const res = await fetch(url, { method: 'POST', headers: call.headers, body: call.body });
    await res.arrayBuffer();
    this.deliveries.push({ url: r.webhookUrl, status: res.status });
  }

  /** The model's run: checks the input as documented, then draws the output (or answers the planned error). */
  private async run(
    r: FakeFalRequest,
    model: FakeModel,
    input: Record<string, unknown>,
    plan: FakeFalPlan,
  ): Promise<{ status: number; body: unknown }> {
    for (const field of model.required) {
      if (input[field] === undefined || input[field] === null || input[field] === '') {
        return modelError(field, 'missing', 'Field required');
      }
    }
    for (const [field, allowed] of Object.entries(model.enums ?? {})) {
      if (input[field] !== undefined && !allowed.includes(String(input[field]))) {
        return modelError(field, 'literal_error', `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}`);
      }
    }
    const images: Record<string, Buffer> = {};
    for (const field of model.images) {
      const checked = await this.readInputImage(field, input[field], model);
      if ('status' in checked) return checked;
      images[field] = checked.bytes;
    }
    if (plan.error) return plan.error;
    const [person, garment] = model.images.map((f) => images[f]);
    if (model.output === 'video') {
      // the clip is framed by `aspect_ratio` where the model takes it (its default otherwise), else like the first frame
      const { width: w, height: h } = await sharp(person).metadata();
      const ratio = model.aspectRatioInput ? ratioOf(String(input.aspect_ratio ?? model.enums!.aspect_ratio[0])) : w! / h!;
      const frameSize = ratio >= 1 ? { width: 320, height: even(320 / ratio) } : { width: even(320 * ratio), height: 320 };
      r.videoFrame = frameSize;
      const frame = await sharp(person).resize(frameSize.width, frameSize.height, { fit: 'cover' }).jpeg().toBuffer();
      const url = this.serve(r, 'output.mp4', 'video/mp4', await stillToVideo(frame, { ...frameSize, seconds: 0.5 }));
      return { status: 200, body: { video: { url, content_type: 'video/mp4', file_name: 'output.mp4' } } };
    }
    const drawn = await tryOnPicture(person, garment);
    const url = this.serve(r, 'output.jpg', 'image/jpeg', drawn);
    const image = { url, content_type: 'image/jpeg', file_name: 'output.jpg', width: 576, height: 864 };
    if (model.output === 'images') return { status: 200, body: { images: [image] } };
    return { status: 200, body: { image, ...(input.enable_safety_checker !== undefined ? { has_nsfw_concepts: false, seed: 42 } : {}) } };
  }

  /**
   * An image input as the model reads it (`loadImage`: fetched from the pretend internet, where our
   * private hosts are unreachable, or decoded from its data URI; recorded), then checked as documented.
   */
  private async readInputImage(field: string, value: unknown, model: FakeModel): Promise<{ bytes: Buffer } | FakeModelError> {
    if (typeof value !== 'string') return modelError(field, 'string_type', 'Input should be a valid string');
    if (!value.startsWith('data:') && !/^https?:\/\//.test(value)) {
      return modelError(field, 'file_download_error', 'Input should be a URL or a base64 data URI of a JPEG or PNG');
    }
    const loaded = await this.loadImage(field, value);
    if (!loaded.ok) {
      return loaded.failure === 'not-an-image'
        ? modelError(field, 'image_load_error', 'Failed to load the image')
        : modelError(field, 'file_download_error', `Failed to download the file (${loaded.failure})`);
    }
    const bytes = loaded.data;
    if (bytes.length > MAX_IMAGE_BYTES)
      return modelError(field, 'file_too_large', 'File is larger than 10 MB', { max_size: MAX_IMAGE_BYTES });
    const { format, width, height } = loaded.image;
    if (format !== 'jpeg' && format !== 'png')
      return modelError(field, 'unsupported_image_format', 'Only JPEG and PNG images are supported');
    if (Math.min(width, height) < model.minSide) {
      return modelError(field, 'image_too_small', `Image must be at least ${model.minSide}x${model.minSide} pixels`, {
        min_width: model.minSide,
        min_height: model.minSide,
      });
    }
    if (model.maxSide && Math.max(width, height) > model.maxSide) {
      return modelError(field, 'image_too_large', `Image must be at most ${model.maxSide} pixels on its longest edge`, {
        max_width: model.maxSide,
        max_height: model.maxSide,
      });
    }
    if (model.ratio && (width / height < model.ratio[0] || width / height > model.ratio[1])) {
      return modelError(field, 'image_aspect_ratio_error', 'Image aspect ratio must be between 1:2.5 and 2.5:1');
    }
    return { bytes };
  }

  /** An output file on the fake's CDN, kept as long as the request's lifecycle preference says. */
  private serve(r: FakeFalRequest, name: string, type: string, body: Buffer): string {
    const path = `/files/${r.id}/${name}`;
    const expiresAt = typeof r.outputExpirySeconds === 'number' ? Date.now() + r.outputExpirySeconds * 1000 : undefined;
    this.files.set(path, { type, body, expiresAt });
    r.outputFiles.push(path);
    return `${this.baseUrl}${path}`;
  }
}

/** The submit's lifecycle preference: seconds, null (no expiry), undefined (no header), or 'invalid'. */
function readLifecycle(header: string | string[] | undefined): number | null | undefined | 'invalid' {
  if (header === undefined) return undefined;
  if (typeof header !== 'string') return 'invalid';
  try {
    const value = (JSON.parse(header) as { expiration_duration_seconds?: unknown }).expiration_duration_seconds;
    if (value === null) return null;
    return Number.isInteger(value) && (value as number) >= 1 ? (value as number) : 'invalid';
  } catch {
    return 'invalid';
  }
}

const ratioOf = (r: string) => {
  const [a, b] = r.split(':').map(Number);
  return a / b;
};
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The fake's "try-on": the person photo with the garment's picture laid over the lower two thirds. */
async function tryOnPicture(person: Buffer, garment: Buffer): Promise<Buffer> {
  const overlay = await sharp(garment).resize(384, 576, { fit: 'inside' }).png().toBuffer();
  return sharp(person)
    .resize(576, 864, { fit: 'cover' })
    .composite([{ input: overlay, gravity: 'south' }])
    .jpeg()
    .toBuffer();
}
