/**
 * `fashn`: the FASHN API (virtual try-on and image-to-video).
 *
 * Documentation followed (docs.fashn.ai, read for this adapter):
 * - API fundamentals: `Authorization: Bearer <key>`; every model is started with
 *   POST /v1/run { model_name, inputs } -> { id, error }; then GET /v1/status/{id} ->
 *   { id, status: starting | in_queue | processing | completed | failed | canceled, output: [urls],
 *   error: { name, message } | null }. Output CDN links last 72 h.
 *   https://docs.fashn.ai/api-overview/api-fundamentals
 * - Virtual Try-On v1.6 (model_name "tryon-v1.6"): inputs { model_image, garment_image, category
 *   auto|tops|bottoms|one-pieces, mode performance|balanced|quality, num_samples, ... }; and
 *   moderation_level conservative|permissive|none }; and Try-On Max ("tryon-max"): inputs
 *   { model_image, product_image, resolution 1k|2k|4k, aspect_ratio }. Images are public URLs or
 *   base64 with its prefix (`data:image/jpeg;base64,...`); at most 2000 px on the longer side for the
 *   1K models (https://docs.fashn.ai/guides/image-preprocessing-best-practices).
 *   https://docs.fashn.ai/api-reference/tryon-v1-6
 *   https://docs.fashn.ai/sdk/typescript , https://docs.fashn.ai/guides/tryon-javascript-quickstart-guide
 *   (request types as published in the official SDK, fashn-AI/fashn-typescript-sdk src/resources/predictions.ts)
 * - Image to Video (model_name "image-to-video"): inputs { image, duration 5|10, resolution
 *   480p|720p|1080p, prompt? } — the docs advise leaving the motion prompt empty. It has no
 *   moderation_level. (same SDK file, ImageToVideoRequest; https://docs.fashn.ai/api-reference/image-to-video)
 * - Webhooks: `POST /v1/run?webhook_url=<url>`; on completion FASHN POSTs the same payload as
 *   /v1/status to that URL, retrying up to 5 times within about 5 minutes on a non-2xx answer.
 *   https://docs.fashn.ai/api-overview/webhooks , https://docs.fashn.ai/fashn-api/webhooks
 * - Errors: API level 400 BadRequest, 401 UnauthorizedAccess, 404 NotFound (unknown or no longer
 *   tracked prediction), 429 RateLimitExceeded / ConcurrencyLimitExceeded / OutOfCredits,
 *   500 InternalServerError; runtime errors arrive with status "failed" and error.name
 *   ImageLoadError, ContentModerationError (NSFWError in older docs), PoseError, PhotoTypeError,
 *   InputValidationError, PipelineError, ThirdPartyError, InternalServerError.
 *   https://docs.fashn.ai/api-overview/error-handling , https://docs.fashn.ai/fashn-api/errors
 *
 * Webhook authenticity: FASHN documents no signature header ("consider implementing a verification
 * mechanism"), so each start adds to our webhook URL an unguessable per-generation token:
 * `fr_generation=<generation id>&fr_token=<base64url HMAC-SHA256(FASHN_WEBHOOK_SECRET, "fashn-webhook:" + id)>`.
 * `parseWebhook` recomputes it in constant time and answers null when it is missing or wrong. The
 * token lives in the URL, so `parseWebhook` needs the request URL (or its query) as a third argument.
 * Without FASHN_WEBHOOK_SECRET the adapter sends no webhook_url and the pipeline polls.
 *
 * No cancel: FASHN documents no cancellation endpoint (the SDK notes it as not yet available).
 *
 * Retention (https://docs.fashn.ai/api-overview/data-retention-privacy): FASHN never stores input
 * images (it keeps the request body with image URLs, and `<base64>` in place of base64 inputs); its
 * CDN keeps outputs 72 h, unless `return_base64: true`, when the output comes back as a data URI in
 * the status (and webhook) payload, is kept in memory 60 minutes and never stored. Every try-on asks
 * `return_base64: true` with `output_format: "jpeg"` (the smaller payload; TryOnRequest.Inputs of the
 * SDK, src/resources/predictions.ts). Image to video has no such input (its outputs are CDN MP4 links).
 * The webhook route reads bodies up to `webhookBodyLimitBytes` (fashn.config.ts) for calls whose URL
 * carries a genuine token (`webhookUrlIsGenuine`), 1 MB for any other.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
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
import { FASHN_DEFAULTS, FASHN_INPUT_SPEC, fashnWebhookBodyLimit, type FashnModerationLevel } from './fashn.config';
import { asRecord, httpStatusKind, parseRetryAfter, redactSecret, requestJson, truncate, VendorErrorAnswer } from './provider-http';
import type { AppConfig } from '../../../config/app-config';

export interface FashnProviderOptions {
  apiKey: string;
  /** without a trailing slash; default https://api.fashn.ai */
  baseUrl?: string;
  imageModel?: string;
  videoModel?: string;
  /** enables webhooks; 32+ random characters */
  webhookSecret?: string;
  /** sent as `moderation_level` with every try-on (FASHN_MODERATION_LEVEL; default permissive) */
  moderationLevel?: FashnModerationLevel;
  /** applies to `start` alongside the caller's signal (default 30 s) */
  startTimeoutMs?: number;
  /** applies to `status` (default 15 s) */
  statusTimeoutMs?: number;
}

export const FASHN_WEBHOOK_QUERY = { generation: 'fr_generation', token: 'fr_token' } as const;

/** The try-on result comes back in the status payload, not on FASHN's CDN (kept there 72 h otherwise). */
const RESULT_AS_BASE64 = { return_base64: true, output_format: 'jpeg' } as const;

type PredictionStatus = 'starting' | 'in_queue' | 'processing' | 'completed' | 'failed' | 'canceled' | 'time_out';
const PREDICTION_STATUSES = new Set<PredictionStatus>([
  'starting',
  'in_queue',
  'processing',
  'completed',
  'failed',
  'canceled',
  'time_out',
]);

/** runtime error names that mean the vendor's moderation refused the input */
const MODERATION_ERRORS = new Set(['ContentModerationError', 'NSFWError']);

/** Where the webhook token can be read from: the request URL (absolute or path + query), its query object or parameters. */
export type WebhookRequestQuery = string | URL | URLSearchParams | Record<string, unknown>;

export class FashnProvider implements AiProvider {
  readonly name = 'fashn' as const;
  readonly supportsWebhooks: boolean;
  readonly generatesWithAi = true;
  private readonly baseUrl: string;
  private readonly imageModel: string;
  private readonly videoModel: string;
  private readonly startTimeoutMs: number;
  private readonly statusTimeoutMs: number;
  /** FASHN's own moderation, said explicitly rather than left to its default (fashn.config.ts) */
  private readonly moderationLevel: FashnModerationLevel;
  /** a webhook call carries the try-on result as base64 (fashn.config.ts) */
  readonly webhookBodyLimitBytes: number;

  constructor(private readonly options: FashnProviderOptions) {
    if (!options.apiKey) throw new Error('FashnProvider needs an API key (FASHN_API_KEY)');
    this.baseUrl = (options.baseUrl ?? FASHN_DEFAULTS.baseUrl).replace(/\/+$/, '');
    this.imageModel = options.imageModel ?? FASHN_DEFAULTS.imageModel;
    this.videoModel = options.videoModel ?? FASHN_DEFAULTS.videoModel;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.statusTimeoutMs = options.statusTimeoutMs ?? 15_000;
    this.supportsWebhooks = Boolean(options.webhookSecret);
    this.moderationLevel = options.moderationLevel ?? FASHN_DEFAULTS.moderationLevel;
    this.webhookBodyLimitBytes = fashnWebhookBodyLimit(this.imageModel);
  }

  inputSpec(_type: GenerationType): ProviderInputSpec {
    return FASHN_INPUT_SPEC;
  }

  /** The /v1/run body for the configured model, as documented. Exposed for tests. */
  buildRunBody(input: ProviderStartInput): { model_name: string; inputs: Record<string, unknown> } {
    if (input.type === 'video') {
      // the clip animates the person photo; no motion prompt (the docs advise leaving it empty)
      return { model_name: this.videoModel, inputs: { image: input.person.url, duration: 5, resolution: videoResolution(input.size) } };
    }
    if (this.imageModel === 'tryon-max') {
      return {
        model_name: this.imageModel,
        inputs: {
          model_image: input.person.url,
          product_image: input.garment.url,
          ...tryonMaxFraming(input.size),
          num_images: 1,
          moderation_level: this.moderationLevel,
          ...RESULT_AS_BASE64,
        },
      };
    }
    return {
      model_name: this.imageModel,
      inputs: {
        model_image: input.person.url,
        garment_image: input.garment.url,
        category: 'auto',
        mode: 'quality',
        num_samples: 1,
        moderation_level: this.moderationLevel,
        ...RESULT_AS_BASE64,
      },
    };
  }

  /** The URL FASHN will call back: ours plus the generation's token. Undefined when webhooks are off. */
  webhookUrlFor(input: Pick<ProviderStartInput, 'generationId' | 'webhookUrl'>): string | undefined {
    if (!this.options.webhookSecret || !input.webhookUrl) return undefined;
    const url = new URL(input.webhookUrl);
    url.searchParams.set(FASHN_WEBHOOK_QUERY.generation, input.generationId);
    url.searchParams.set(FASHN_WEBHOOK_QUERY.token, fashnWebhookToken(this.options.webhookSecret, input.generationId));
    return url.toString();
  }

  async start(input: ProviderStartInput): Promise<ProviderStartResult> {
    const webhookUrl = this.webhookUrlFor(input);
    const path = webhookUrl ? `/v1/run?webhook_url=${encodeURIComponent(webhookUrl)}` : '/v1/run';
    const res = asRecord(
      await this.request('POST', path, {
        body: this.buildRunBody(input),
        timeoutMs: this.startTimeoutMs,
        signal: input.signal,
        notFoundKind: ProviderErrorKind.Rejected,
      }),
    );
    const id = res?.id;
    if (typeof id === 'string' && id !== '') return { jobId: id };
    if (res && res.error !== null && res.error !== undefined) {
      const message = typeof res.error === 'string' ? res.error : JSON.stringify(res.error);
      throw new ProviderError(ProviderErrorKind.Rejected, `FASHN refused the prediction: ${truncate(this.redact(message))}`);
    }
    throw new ProviderError(ProviderErrorKind.BadResponse, 'FASHN answered /v1/run without a prediction id');
  }

  async status(jobId: string, signal?: AbortSignal): Promise<ProviderStatus> {
    const res = await this.request('GET', `/v1/status/${encodeURIComponent(jobId)}`, { timeoutMs: this.statusTimeoutMs, signal });
    return predictionToStatus(res, (m) => this.redact(m));
  }

  /**
   * Verifies and reads a FASHN webhook call. `request` is the URL the call arrived on (or its
   * query): the token is there. Answers null when the token is missing or wrong, or the body is not
   * a FASHN status payload.
   */
  parseWebhook(
    _headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
    request?: WebhookRequestQuery,
  ): { jobId: string; status: ProviderStatus; generationId: string } | null {
    const generationId = request === undefined ? null : this.genuineGeneration(readQuery(request));
    if (!generationId) return null;
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const id = asRecord(body)?.id;
    if (typeof id !== 'string' || id === '') return null;
    try {
      return { jobId: id, status: predictionToStatus(body, (m) => this.redact(m)), generationId };
    } catch {
      return null;
    }
  }

  /** Whether the URL a webhook call arrived on carries a genuine token (read before its large body is). */
  webhookUrlIsGenuine(requestUrl: string): boolean {
    return this.genuineGeneration(readQuery(requestUrl)) !== null;
  }

  /** The generation id of a query whose token is the genuine one for it; null otherwise (or without a secret). */
  private genuineGeneration(query: URLSearchParams): string | null {
    const secret = this.options.webhookSecret;
    if (!secret) return null;
    const generationId = query.get(FASHN_WEBHOOK_QUERY.generation);
    const token = query.get(FASHN_WEBHOOK_QUERY.token);
    if (!generationId || !token || !safeEqual(token, fashnWebhookToken(secret, generationId))) return null;
    return generationId;
  }

  private request(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; timeoutMs: number; signal?: AbortSignal; notFoundKind?: ProviderErrorKind },
  ): Promise<unknown> {
    return requestJson({
      vendor: 'FASHN',
      method,
      url: `${this.baseUrl}${path}`,
      headers: { Authorization: `Bearer ${this.options.apiKey}` },
      body: opts.body,
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      mapError: (answer) => this.httpError(answer, opts.notFoundKind),
    });
  }

  private httpError({ status, body, retryAfter }: VendorErrorAnswer, notFoundKind?: ProviderErrorKind): ProviderError {
    const record = asRecord(body);
    const code =
      typeof record?.error === 'string'
        ? record.error
        : typeof asRecord(record?.error)?.name === 'string'
          ? (asRecord(record!.error)!.name as string)
          : undefined;
    const vendorMessage = typeof record?.message === 'string' ? this.redact(record.message) : undefined;
    const message = `FASHN answered ${status}${code ? ` ${code}` : ''}${vendorMessage ? `: ${vendorMessage}` : ''}`;
    const base = { status, vendorCode: code };
    if (code && MODERATION_ERRORS.has(code)) return new ProviderError(ProviderErrorKind.Rejected, message, { ...base, refused: true });
    if (status === 429 && code === 'OutOfCredits') {
      // retrying cannot help until someone buys credits
      return new ProviderError(ProviderErrorKind.Rejected, message, base);
    }
    if (status === 429)
      return new ProviderError(ProviderErrorKind.RateLimited, message, { ...base, retryAfterMs: parseRetryAfter(retryAfter) });
    return new ProviderError(httpStatusKind(status, notFoundKind), message, base);
  }

  private redact(text: string): string {
    return redactSecret(text, this.options.apiKey);
  }
}

/** Builds the provider from the validated configuration (AI_PROVIDER=fashn). */
export function createFashnProvider(config: Pick<AppConfig, 'fashn'>, overrides: Partial<FashnProviderOptions> = {}): FashnProvider {
  const c = config.fashn;
  const apiKey = overrides.apiKey ?? c?.apiKey;
  if (!apiKey) throw new Error('FASHN_API_KEY is required when AI_PROVIDER=fashn');
  return new FashnProvider({
    baseUrl: c?.baseUrl,
    imageModel: c?.imageModel,
    videoModel: c?.videoModel,
    webhookSecret: c?.webhookSecret,
    moderationLevel: c?.moderationLevel,
    ...overrides,
    apiKey,
  });
}

/** The per-generation webhook token: base64url HMAC-SHA256 of the generation id under FASHN_WEBHOOK_SECRET. */
export function fashnWebhookToken(secret: string, generationId: string): string {
  return createHmac('sha256', secret).update(`fashn-webhook:${generationId}`).digest('base64url');
}

/** Maps a /v1/status answer (or the identical webhook payload) to the port's status. */
export function predictionToStatus(body: unknown, redact: (text: string) => string = (t) => t): ProviderStatus {
  const record = asRecord(body);
  const status = record?.status;
  if (typeof status !== 'string' || !PREDICTION_STATUSES.has(status as PredictionStatus)) {
    throw new ProviderError(ProviderErrorKind.BadResponse, 'FASHN answered the status query without a known status');
  }
  switch (status as PredictionStatus) {
    case 'starting':
      return { state: 'processing', detail: 'starting at the vendor' };
    case 'in_queue':
      return { state: 'processing', detail: 'queued at the vendor' };
    case 'processing':
      return { state: 'processing', detail: 'running at the vendor' };
    case 'completed': {
      const first = Array.isArray(record!.output) ? record!.output.find((o): o is string => typeof o === 'string' && o !== '') : undefined;
      if (first && /^https?:\/\//.test(first)) return { state: 'completed', result: { url: first } };
      const inline = first ? decodeDataUrl(first) : undefined;
      if (inline) return { state: 'completed', result: inline };
      throw new ProviderError(ProviderErrorKind.BadResponse, 'FASHN reported completed without an output URL');
    }
    case 'failed': {
      const error = asRecord(record!.error);
      const name = typeof error?.name === 'string' ? error.name : undefined;
      const message = typeof error?.message === 'string' ? truncate(redact(error.message)) : undefined;
      if (name && MODERATION_ERRORS.has(name)) {
        return { state: 'failed', refused: true, reason: `Refused by the vendor's content moderation${message ? `: ${message}` : ''}` };
      }
      const detail = [name, message].filter(Boolean).join(': ');
      return { state: 'failed', reason: detail ? `The vendor failed the prediction (${detail})` : 'The vendor failed the prediction' };
    }
    case 'canceled':
      return { state: 'failed', reason: 'The prediction was cancelled at the vendor' };
    case 'time_out':
      return { state: 'failed', reason: 'The prediction timed out at the vendor' };
  }
}

/** Try-On Max framing closest to the requested "w*h": the documented aspect ratio nearest to it and the resolution tier of its long side. */
export function tryonMaxFraming(size: string): { aspect_ratio?: string; resolution?: '1k' | '2k' | '4k' } {
  const m = /^\s*(\d+)\s*[*x×]\s*(\d+)\s*$/i.exec(size ?? '');
  if (!m) return {};
  const w = Number(m[1]);
  const h = Number(m[2]);
  if (!w || !h) return {};
  const ratios = ['21:9', '1:1', '4:3', '3:2', '2:3', '5:4', '4:5', '3:4', '16:9', '9:16'];
  const target = Math.log(w / h);
  const aspect_ratio = ratios.reduce((best, r) => {
    const [a, b] = r.split(':').map(Number);
    const [ba, bb] = best.split(':').map(Number);
    return Math.abs(Math.log(a / b) - target) < Math.abs(Math.log(ba / bb) - target) ? r : best;
  });
  const long = Math.max(w, h);
  return { aspect_ratio, resolution: long >= 3000 ? '4k' : long >= 1500 ? '2k' : '1k' };
}

/** Image-to-video resolution closest to the requested output (the product's 2953*4096 is above every tier: 1080p). */
export function videoResolution(size: string): '480p' | '720p' | '1080p' {
  const m = /^\s*(\d+)\s*[*x×]\s*(\d+)\s*$/i.exec(size ?? '');
  if (!m) return '1080p';
  const short = Math.min(Number(m[1]), Number(m[2]));
  return short >= 1080 ? '1080p' : short >= 720 ? '720p' : '480p';
}

function decodeDataUrl(value: string): { buffer: Buffer; contentType: string } | undefined {
  const m = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(value);
  if (!m) return undefined;
  const buffer = Buffer.from(m[2], 'base64');
  return buffer.length ? { buffer, contentType: m[1] } : undefined;
}

function readQuery(request: WebhookRequestQuery): URLSearchParams {
  if (request instanceof URLSearchParams) return request;
  if (request instanceof URL) return request.searchParams;
  if (typeof request === 'string') {
    try {
      return new URL(request, 'http://webhook.invalid').searchParams;
    } catch {
      return new URLSearchParams();
    }
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    // a repeated parameter is ambiguous: refuse it rather than pick one
    if (typeof value === 'string') params.set(key, value);
  }
  return params;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
