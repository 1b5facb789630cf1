/**
 * `fal`: fal.ai's queue, which hosts several try-on and image-to-video models behind one protocol.
 *
 * Documentation followed (docs.fal.ai, read for this adapter):
 * - Queue API: `Authorization: Key <FAL_KEY>`; submit POST https://queue.fal.run/{model_id}[/{subpath}]
 *   with the model's input as the JSON body -> { request_id, response_url, status_url, cancel_url };
 *   status GET {queue}/{model_id}/requests/{request_id}/status -> { status: IN_QUEUE (queue_position)
 *   | IN_PROGRESS | COMPLETED }; result GET {queue}/{model_id}/requests/{request_id}; cancel PUT
 *   {queue}/{model_id}/requests/{request_id}/cancel (202 CANCELLATION_REQUESTED, 400 ALREADY_COMPLETED).
 *   "The subpath should be used when making the request, but not when getting request status or
 *   results": status, result and cancel use the app id (owner/app) only, as fal's own client does.
 *   https://docs.fal.ai/model-endpoints/queue , https://docs.fal.ai/documentation/model-apis/inference/queue
 * - Webhooks: `?fal_webhook=<url>` on the submit; when the request is done fal POSTs { request_id,
 *   gateway_request_id, status: OK | ERROR, payload, error, payload_error } and retries a failed
 *   delivery 10 times over 2 hours. Verification: headers X-Fal-Webhook-Request-Id, -User-Id,
 *   -Timestamp (unix seconds) and -Signature (hex ED25519); the signed message is request id, user
 *   id, timestamp and the hex SHA-256 of the raw body, joined by newlines; the public keys are the
 *   Ed25519 JWKs at https://rest.fal.ai/.well-known/jwks.json (fal.config.ts, FAL_DEFAULTS; cache them,
 *   up to 24 h); refuse timestamps more than 5 minutes away. https://docs.fal.ai/model-apis/model-endpoints/webhooks
 * - Model errors (validation, content policy): an HTTP status (422 for validation) and a body
 *   { detail: [{ loc, msg, type, url, ctx, input }] } (or a string detail); `type`
 *   content_policy_violation is the content checker's refusal. https://docs.fal.ai/errors ,
 *   https://fal.ai/docs/model-apis/errors
 * - Request errors (infrastructure): { detail: string, error_type } with X-Fal-Error-Type, e.g.
 *   request_timeout 504, runner_scheduling_failure 503, runner_server_error 500.
 *   https://fal.ai/docs/documentation/model-apis/request-errors
 * - File inputs: URLs the runner downloads without credentials (our signed links) or base64 data
 *   URIs. https://docs.fal.ai/documentation/model-apis/fal-cdn
 * - Retention (fal.config.ts, FAL_RETENTION): every submit carries `X-Fal-Store-IO: 0` (fal stores no
 *   payload of the request, our inline photos included) and `X-Fal-Object-Lifecycle-Preference`
 *   (its output files expire after an hour); `discard`, called once our copy of the result is stored,
 *   deletes the request's payloads and output files: DELETE {platform}/models/requests/{request_id}/payloads
 *   with an admin key, an optional Idempotency-Key, answering { cdn_delete_results: [{ link, exception }] }.
 *   https://docs.fal.ai/documentation/model-apis/media-expiration ,
 *   https://fal.ai/docs/documentation/model-apis/inference/payloads ,
 *   https://docs.fal.ai/platform-apis/v1/models/requests/payloads
 *
 * A queued request is accepted before its input is checked: a model's 422 arrives as the result of a
 * COMPLETED request, which is read as a failed generation (not a retryable error).
 *
 * Job ids: `<app id>/requests/<request id>` (e.g. `fal-ai/kling/requests/3f1c...`), the path of the
 * request under the queue, so `status` and `cancel` need no other state and keep working when the
 * configured model changes. fal's webhook carries only the request id: each submit's webhook URL adds
 * the app id (`fr_app`), which `parseWebhook` accepts only when it is one of the configured models'.
 *
 * Video: the clip animates the person photo (the first frame) with our prompt, as the other adapters
 * do; the image models are the try-on. Models, their input fields and input sizes: fal.config.ts.
 */
import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';
import { Logger } from '@nestjs/common';
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
import { FAL_DEFAULTS, FAL_RETENTION, falAppId, FalModel, falModelIds, findFalModel, nearestAspectRatio } from './fal.config';
import { asRecord, httpStatusKind, parseRetryAfter, redactSecret, requestJson, truncate, VendorErrorAnswer } from './provider-http';
import type { AppConfig } from '../../../config/app-config';

export interface FalProviderOptions {
  apiKey: string;
  /** without a trailing slash; default https://queue.fal.run */
  queueUrl?: string;
  imageModel?: string;
  videoModel?: string;
  /** default https://rest.fal.ai/.well-known/jwks.json */
  jwksUrl?: string;
  /** fal's Platform API, without a trailing slash; default https://api.fal.ai/v1 */
  platformUrl?: string;
  /** sends `fal_webhook` with each submit (default true) */
  webhooks?: boolean;
  /** applies to `start` alongside the caller's signal (default 30 s) */
  startTimeoutMs?: number;
  /** applies to `status`, the result, `cancel` and `discard` (default 15 s) */
  statusTimeoutMs?: number;
  /** how long fetched webhook keys are trusted (default 1 h; the docs allow up to 24 h) */
  jwksTtlMs?: number;
  /** the clock, in ms (tests move it) */
  now?: () => number;
}

/** Our parameter in the webhook URL: the app id the request was submitted to. */
export const FAL_WEBHOOK_QUERY = { app: 'fr_app' } as const;
/** The documented tolerance of a webhook's timestamp, in seconds. */
export const FAL_WEBHOOK_TOLERANCE_S = 300;
/** A signature no cached key verifies refetches the keys (a rotation), at most this often. */
const JWKS_REFETCH_COOLDOWN_MS = 60_000;
const JWKS_TIMEOUT_MS = 5_000;

const JOB_ID = /^([\w.-]+\/[\w.-]+)\/requests\/([\w-]+)$/;
const REQUEST_ID = /^[\w-]{1,128}$/;
/** model error types that mean the vendor's content checker refused the input or the output */
const REFUSAL_TYPES = new Set(['content_policy_violation']);

type QueueStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';
type Phase = 'submit' | 'status' | 'result' | 'cancel' | 'discard';

export class FalProvider implements AiProvider {
  readonly name = 'fal' as const;
  readonly supportsWebhooks: boolean;
  readonly generatesWithAi = true;
  readonly imageModel: FalModel;
  readonly videoModel: FalModel;
  private readonly queueUrl: string;
  private readonly jwksUrl: string;
  private readonly platformUrl: string;
  private readonly logger = new Logger('FalProvider');
  /** said once per process: FAL_KEY cannot delete fal's copies (not an admin key) */
  private toldNoAdminScope = false;
  private readonly startTimeoutMs: number;
  private readonly statusTimeoutMs: number;
  private readonly jwksTtlMs: number;
  private readonly now: () => number;
  private keys?: { at: number; keys: KeyObject[] };
  private keysLoading?: Promise<KeyObject[]>;

  constructor(private readonly options: FalProviderOptions) {
    if (!options.apiKey) throw new Error('FalProvider needs an API key (FAL_KEY)');
    this.imageModel = knownModel(options.imageModel ?? FAL_DEFAULTS.imageModel, 'image');
    this.videoModel = knownModel(options.videoModel ?? FAL_DEFAULTS.videoModel, 'video');
    this.queueUrl = (options.queueUrl ?? FAL_DEFAULTS.queueUrl).replace(/\/+$/, '');
    this.jwksUrl = options.jwksUrl ?? FAL_DEFAULTS.jwksUrl;
    this.platformUrl = (options.platformUrl ?? FAL_DEFAULTS.platformUrl).replace(/\/+$/, '');
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.statusTimeoutMs = options.statusTimeoutMs ?? 15_000;
    this.jwksTtlMs = options.jwksTtlMs ?? 3_600_000;
    this.now = options.now ?? Date.now;
    this.supportsWebhooks = options.webhooks ?? true;
  }

  /** The configured model's documented input limits; every model takes base64 data URIs. */
  inputSpec(type: GenerationType): ProviderInputSpec {
    const model = type === 'video' ? this.videoModel : this.imageModel;
    return { minSide: model.minSide, maxSide: model.maxSide, acceptsDataUri: true };
  }

  /** The model and the JSON body of a submit, as the model's schema names its inputs. Exposed for tests. */
  buildInput(input: ProviderStartInput): { model: FalModel; body: Record<string, unknown> } {
    const model = input.type === 'video' ? this.videoModel : this.imageModel;
    const body: Record<string, unknown> = { [model.person]: input.person.url };
    if (model.garment) body[model.garment] = input.garment.url;
    if (model.prompt) body[model.prompt] = input.prompt;
    if (model.negativePrompt) body[model.negativePrompt] = NEGATIVE_PROMPT;
    // the video's frame follows the photo: a portrait photo gets "9:16" rather than the model's default "16:9"
    const { width, height } = input.person;
    if (model.aspectRatios && width && height) body.aspect_ratio = nearestAspectRatio(width, height, model.aspectRatios);
    return { model, body: { ...body, ...model.fixed } };
  }

  /** The URL fal will call back: ours plus the app id. Undefined when webhooks are off. */
  webhookUrlFor(input: Pick<ProviderStartInput, 'webhookUrl'>, model: FalModel): string | undefined {
    if (!this.supportsWebhooks || !input.webhookUrl) return undefined;
    const url = new URL(input.webhookUrl);
    url.searchParams.set(FAL_WEBHOOK_QUERY.app, falAppId(model.id));
    return url.toString();
  }

  async start(input: ProviderStartInput): Promise<ProviderStartResult> {
    const { model, body } = this.buildInput(input);
    const webhookUrl = this.webhookUrlFor(input, model);
    const url = `${this.queueUrl}/${model.id}${webhookUrl ? `?fal_webhook=${encodeURIComponent(webhookUrl)}` : ''}`;
    const res = asRecord(
      await this.request('POST', url, {
        body,
        headers: {
          // fal stores no payload of this request (our inline photos included), and its output files expire
          [FAL_RETENTION.storeIoHeader]: '0',
          [FAL_RETENTION.lifecycleHeader]: JSON.stringify({ expiration_duration_seconds: FAL_RETENTION.outputExpirySeconds }),
        },
        timeoutMs: this.startTimeoutMs,
        signal: input.signal,
        phase: 'submit',
      }),
    );
    const requestId = res?.request_id;
    if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId)) {
      throw new ProviderError(ProviderErrorKind.BadResponse, 'fal answered the submit without a request_id');
    }
    return { jobId: `${falAppId(model.id)}/requests/${requestId}` };
  }

  async status(jobId: string, signal?: AbortSignal): Promise<ProviderStatus> {
    const base = this.requestUrl(jobId);
    const res = asRecord(await this.request('GET', `${base}/status`, { timeoutMs: this.statusTimeoutMs, signal, phase: 'status' }));
    const status = res?.status;
    switch (status as QueueStatus) {
      case 'IN_QUEUE':
        return { state: 'processing', detail: 'queued at the vendor' };
      case 'IN_PROGRESS':
        return { state: 'processing', detail: 'running at the vendor' };
      case 'COMPLETED':
        return this.result(base, signal);
      default:
        throw new ProviderError(ProviderErrorKind.BadResponse, 'fal answered the status query without a known status');
    }
  }

  /** Best effort: fal cancels a request that has not started; one already done answers 400, which is fine. */
  async cancel(jobId: string): Promise<void> {
    try {
      await this.request('PUT', `${this.requestUrl(jobId)}/cancel`, { timeoutMs: this.statusTimeoutMs, phase: 'cancel' });
    } catch (error) {
      if (error instanceof ProviderError && error.options.status === 400) return;
      throw error;
    }
  }

  /**
   * Our copy of the result is stored: fal deletes the request's payloads and its output files. A
   * request fal no longer knows (404) is fine. A key without admin scope (401/403) cannot do it: said
   * once, and the output files expire on their own (FAL_RETENTION). Other failures are logged and thrown
   * (the pipeline ignores them).
   */
  async discard(jobId: string): Promise<void> {
    const m = JOB_ID.exec(jobId);
    if (!m) return;
    const requestId = m[2];
    try {
      await this.request('DELETE', `${this.platformUrl}/models/requests/${encodeURIComponent(requestId)}/payloads`, {
        headers: { 'Idempotency-Key': `discard-${requestId}` },
        timeoutMs: this.statusTimeoutMs,
        phase: 'discard',
        allowEmpty: true,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.kind === ProviderErrorKind.NotFound || error.options.status === 404) return;
      if (error.kind === ProviderErrorKind.Unauthorized) {
        if (!this.toldNoAdminScope) {
          this.toldNoAdminScope = true;
          this.logger.warn(
            `fal refused to delete the payloads of request ${requestId} (${error.options.status}): deleting needs an admin key; ` +
              `fal stores no payloads of ours (X-Fal-Store-IO: 0) and its output files expire after ${FAL_RETENTION.outputExpirySeconds} s`,
          );
        }
        return;
      }
      this.logger.warn(`fal did not delete the payloads of request ${requestId}: ${error.message}`);
      throw error;
    }
  }

  /**
   * Verifies and reads a fal webhook call (see the top of this file). Answers null when a header is
   * missing, the timestamp is more than 5 minutes away, no published key verifies the signature,
   * the app id is not one of the configured models' or the body is not a fal webhook payload.
   */
  async parseWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
    requestUrl?: string,
  ): Promise<{ jobId: string; status: ProviderStatus } | null> {
    if (!this.supportsWebhooks) return null;
    const requestId = header(headers, 'x-fal-webhook-request-id');
    const userId = header(headers, 'x-fal-webhook-user-id');
    const timestamp = header(headers, 'x-fal-webhook-timestamp');
    const signature = header(headers, 'x-fal-webhook-signature');
    if (!requestId || !userId || !timestamp || !signature) return null;
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(this.now() / 1000 - Number(timestamp)) > FAL_WEBHOOK_TOLERANCE_S) return null;
    if (!/^[0-9a-f]{128}$/i.test(signature)) return null;
    const message = Buffer.from([requestId, userId, timestamp, createHash('sha256').update(rawBody).digest('hex')].join('\n'));
    if (!(await this.verifySignature(message, Buffer.from(signature, 'hex')))) return null;

    const app = requestUrl === undefined ? null : new URL(requestUrl, 'http://webhook.invalid').searchParams.get(FAL_WEBHOOK_QUERY.app);
    if (!app || ![this.imageModel, this.videoModel].some((m) => falAppId(m.id) === app)) return null;
    let body: Record<string, unknown> | undefined;
    try {
      body = asRecord(JSON.parse(rawBody.toString('utf8')));
    } catch {
      return null;
    }
    if (!body || body.request_id !== requestId || !REQUEST_ID.test(requestId)) return null;
    return { jobId: `${app}/requests/${requestId}`, status: this.webhookStatus(body) };
  }

  /** What a verified webhook says; the pipeline asks `status` again before it acts on it. */
  private webhookStatus(body: Record<string, unknown>): ProviderStatus {
    if (body.status === 'ERROR') {
      const detail = errorDetail(body.payload);
      const reason = detail.message ?? (typeof body.error === 'string' ? this.redact(scrubLinks(body.error)) : undefined);
      return failedStatus(detail.type, reason);
    }
    if (body.status === 'OK') {
      try {
        return outputToStatus(body.payload);
      } catch {
        // payload null (payload_error) or unreadable: the result endpoint has it
      }
    }
    return { state: 'processing', detail: 'done at the vendor; the result is read by the next status check' };
  }

  /** GET the result of a COMPLETED request: the output, or the model's error (a failed generation). */
  private async result(base: string, signal?: AbortSignal): Promise<ProviderStatus> {
    let res: unknown;
    try {
      res = await this.request('GET', base, { timeoutMs: this.statusTimeoutMs, signal, phase: 'result' });
    } catch (error) {
      if (error instanceof ProviderError && error.kind === ProviderErrorKind.Rejected) {
        return error.options.refused
          ? { state: 'failed', refused: true, reason: error.message }
          : { state: 'failed', reason: `The vendor failed the request (${error.message})` };
      }
      throw error;
    }
    return outputToStatus(res);
  }

  /** {queue}/{app id}/requests/{request id} of a job id; NotFound for an id this adapter never made. */
  private requestUrl(jobId: string): string {
    const m = JOB_ID.exec(jobId);
    if (!m) throw new ProviderError(ProviderErrorKind.NotFound, 'Not a fal request id');
    return `${this.queueUrl}/${m[1]}/requests/${encodeURIComponent(m[2])}`;
  }

  private request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    opts: {
      body?: unknown;
      headers?: Record<string, string>;
      timeoutMs: number;
      signal?: AbortSignal;
      phase: Phase;
      allowEmpty?: boolean;
    },
  ): Promise<unknown> {
    return requestJson({
      vendor: 'fal',
      method,
      url,
      headers: { ...opts.headers, Authorization: `Key ${this.options.apiKey}` },
      body: opts.body,
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      allowEmpty: opts.allowEmpty,
      mapError: (answer) => this.httpError(answer, opts.phase),
    });
  }

  private httpError({ status, body, retryAfter }: VendorErrorAnswer, phase: Phase): ProviderError {
    const record = asRecord(body);
    const detail = errorDetail(body);
    const requestErrorType = typeof record?.error_type === 'string' ? record.error_type : undefined;
    const code = detail.type ?? requestErrorType;
    const vendorMessage = detail.message ? this.redact(detail.message) : undefined;
    const message = `fal answered ${status}${code ? ` ${code}` : ''}${vendorMessage ? `: ${vendorMessage}` : ''}`;
    const base = { status, vendorCode: code };
    if (detail.type && REFUSAL_TYPES.has(detail.type)) {
      return new ProviderError(
        ProviderErrorKind.Rejected,
        `Refused by the vendor's content checker${vendorMessage ? `: ${vendorMessage}` : ''}`,
        {
          ...base,
          refused: true,
        },
      );
    }
    if (status === 429)
      return new ProviderError(ProviderErrorKind.RateLimited, message, { ...base, retryAfterMs: parseRetryAfter(retryAfter) });
    // a completed request whose runner failed for good (fal retried it already): not worth asking again
    if (phase === 'result' && status >= 500 && requestErrorType) return new ProviderError(ProviderErrorKind.Rejected, message, base);
    // submitting to an app that does not exist will not work on a retry either
    return new ProviderError(
      httpStatusKind(status, phase === 'submit' ? ProviderErrorKind.Rejected : ProviderErrorKind.NotFound),
      message,
      base,
    );
  }

  /** True when one of fal's published keys verifies the signature; refetches the keys once (rotation) when none does. */
  private async verifySignature(message: Buffer, signature: Buffer): Promise<boolean> {
    const check = (keys: KeyObject[]) => keys.some((key) => safeVerify(message, key, signature));
    if (check(await this.webhookKeys(false))) return true;
    if (this.keys && this.now() - this.keys.at < JWKS_REFETCH_COOLDOWN_MS) return false;
    return check(await this.webhookKeys(true));
  }

  /** fal's webhook keys from the JWKS URL, cached for `jwksTtlMs`; a failed fetch keeps the last keys. */
  private async webhookKeys(refresh: boolean): Promise<KeyObject[]> {
    if (!refresh && this.keys && this.now() - this.keys.at < this.jwksTtlMs) return this.keys.keys;
    this.keysLoading ??= this.fetchKeys().finally(() => (this.keysLoading = undefined));
    return this.keysLoading;
  }

  /**
   * Fetches the key set. A failed fetch keeps the keys we had; a fetch that leaves no Ed25519 key
   * (unreachable, not 2xx, not JSON, no key in it) is said once per fetch, naming the URL and what
   * went wrong: until a key verifies them, fal's webhook calls are refused and the worker's polls
   * finish the generations.
   */
  private async fetchKeys(): Promise<KeyObject[]> {
    let keys: KeyObject[] | undefined;
    let problem: string | undefined;
    let text: string | undefined;
    try {
      const res = await fetch(this.jwksUrl, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS), redirect: 'error' });
      if (res.ok) text = await res.text();
      else problem = `it answered ${res.status}`;
    } catch {
      problem = 'it could not be reached';
    }
    if (text !== undefined) {
      try {
        keys = parseJwks(JSON.parse(text));
        if (keys.length === 0) problem = 'it holds no Ed25519 key';
      } catch {
        problem = 'its answer is not JSON';
      }
    }
    const kept = keys?.length ? keys : (this.keys?.keys ?? []);
    if (problem) {
      this.logger.warn(
        `fal's webhook key set ${this.jwksUrl}: ${problem}; ` +
          (kept.length ? `the ${kept.length} key(s) fetched before stay in use` : 'no webhook call can be verified until it serves a key'),
      );
    }
    this.keys = { at: this.now(), keys: kept };
    return this.keys.keys;
  }

  private redact(text: string): string {
    return redactSecret(text, this.options.apiKey);
  }
}

/** Builds the provider from the validated configuration (AI_PROVIDER=fal). */
export function createFalProvider(config: Pick<AppConfig, 'fal'>, overrides: Partial<FalProviderOptions> = {}): FalProvider {
  const c = config.fal;
  const apiKey = overrides.apiKey ?? c?.apiKey;
  if (!apiKey) throw new Error('FAL_KEY is required when AI_PROVIDER=fal');
  return new FalProvider({
    queueUrl: c?.queueUrl,
    imageModel: c?.imageModel,
    videoModel: c?.videoModel,
    jwksUrl: c?.jwksUrl,
    platformUrl: c?.platformUrl,
    webhooks: c?.webhooks,
    ...overrides,
    apiKey,
  });
}

/** Maps a model's output (the result endpoint's body, or a webhook's payload) to the port's status. */
export function outputToStatus(output: unknown): ProviderStatus {
  const record = asRecord(output);
  const flagged = record?.has_nsfw_concepts;
  if (flagged === true || (Array.isArray(flagged) && flagged.includes(true))) {
    return { state: 'failed', refused: true, reason: "Refused by the vendor's safety checker: the result was flagged" };
  }
  const images = Array.isArray(record?.images) ? record.images : [];
  const file = asRecord(record?.video) ?? asRecord(record?.image) ?? asRecord(images[0]);
  const url = file?.url;
  if (typeof url === 'string' && /^https?:\/\//.test(url)) return { state: 'completed', result: { url } };
  const inline = typeof url === 'string' ? decodeDataUrl(url) : undefined;
  if (inline) return { state: 'completed', result: inline };
  throw new ProviderError(ProviderErrorKind.BadResponse, 'fal answered the result without an output URL');
}

/** The first model error of a fal error body: { detail: [{ msg, type }] } or { detail: "..." }. */
export function errorDetail(body: unknown): { type?: string; message?: string } {
  const detail = asRecord(body)?.detail;
  if (typeof detail === 'string') return { message: truncate(scrubLinks(detail)) };
  if (Array.isArray(detail)) {
    const first = asRecord(detail[0]);
    // `input` may echo what we sent (a signed link to a photo): only the type and the message are kept
    return {
      type: typeof first?.type === 'string' ? first.type : undefined,
      message: typeof first?.msg === 'string' ? truncate(scrubLinks(first.msg)) : undefined,
    };
  }
  return {};
}

/** Vendor text without the links or data URIs it may quote (ours point at a person's photo). */
export function scrubLinks(text: string): string {
  return text.replace(/\bdata:[^\s"',]+(,[^\s"']*)?/gi, '<data URI>').replace(/https?:\/\/[^\s"']+/gi, '<link>');
}

function failedStatus(type: string | undefined, message: string | undefined): ProviderStatus {
  if (type && REFUSAL_TYPES.has(type)) {
    return { state: 'failed', refused: true, reason: `Refused by the vendor's content checker${message ? `: ${message}` : ''}` };
  }
  const detail = [type, message].filter(Boolean).join(': ');
  return { state: 'failed', reason: detail ? `The vendor failed the request (${detail})` : 'The vendor failed the request' };
}

/** The Ed25519 public keys of a JWK set; anything else in it is ignored. */
export function parseJwks(body: unknown): KeyObject[] {
  const keys = asRecord(body)?.keys;
  if (!Array.isArray(keys)) return [];
  const out: KeyObject[] = [];
  for (const k of keys) {
    const jwk = asRecord(k);
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    try {
      out.push(createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
    } catch {
      // not a key
    }
  }
  return out;
}

function safeVerify(message: Buffer, key: KeyObject, signature: Buffer): boolean {
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

function knownModel(id: string, type: GenerationType): FalModel {
  const model = findFalModel(id);
  if (!model || model.type !== type) {
    throw new Error(`fal ${type} model ${id} is not one this adapter knows (known: ${falModelIds(type).join(', ')})`);
  }
  return model;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  // a repeated header is ambiguous: refuse it rather than pick one
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function decodeDataUrl(value: string): { buffer: Buffer; contentType: string } | undefined {
  const m = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(value);
  if (!m) return undefined;
  const buffer = Buffer.from(m[2], 'base64');
  return buffer.length ? { buffer, contentType: m[1] } : undefined;
}
