/**
 * The AI provider port. A provider behaves like an asynchronous vendor API: `start` answers a job
 * id at once; `status` is polled (3 s after the start, then each wait x1.5 up to 15 s, until the
 * generation's deadline: generation-schedule.ts) until the job completes or fails; providers with
 * webhooks also report through `parseWebhook`. Implementations:
 * `preview` (local renderer, the default), `dashscope` (Alibaba Cloud Model Studio), `fashn`, `fal`
 * (fal.ai's queue, several hosted models).
 */
export type GenerationType = 'image' | 'video';

export const AI_PROVIDER = Symbol('AI_PROVIDER');

export type AiProviderName = 'preview' | 'dashscope' | 'fashn' | 'fal';

/**
 * An image the provider reads, always an opaque JPEG that fits the provider's `inputSpec`: a signed
 * URL that expires (vendors fetch it) or a `data:image/jpeg;base64,...` URI (when our files are not
 * reachable from the internet), plus where it is in our storage.
 */
export interface ProviderImage {
  url: string;
  storageKey?: string;
  contentType?: string;
  /** the size of the picture as sent (the person photo's: models that frame a video by an aspect ratio read it) */
  width?: number;
  height?: number;
}

export interface ProviderStartInput {
  /** our generation id: vendors that support it get it as an idempotency key / reference */
  generationId: string;
  type: GenerationType;
  /** assembled by the server from catalogue text (and a safety-checked custom pose) */
  prompt: string;
  /** output size, "width*height" (the product's "2953*4096") */
  size: string;
  /** the user's first photo */
  person: ProviderImage;
  /** the outfit's artwork */
  garment: ProviderImage;
  /** the scene's artwork, when a catalogue scene was chosen */
  scene?: ProviderImage;
  templateId: string;
  sceneId: string;
  /** where the vendor should call back, for providers with webhooks */
  webhookUrl?: string;
  /** aborts the request (the 30 s start timeout) */
  signal?: AbortSignal;
}

export interface ProviderStartResult {
  jobId: string;
}

export type ProviderStatus =
  | { state: 'processing'; detail?: string }
  | { state: 'completed'; result: { url: string } | { buffer: Buffer; contentType: string } }
  | { state: 'failed'; reason: string; refused?: boolean };

export enum ProviderErrorKind {
  /** 429 or the vendor's throttling code: retry later */
  RateLimited = 'rate_limited',
  /** no answer in time */
  Timeout = 'timeout',
  /** connection refused/reset, DNS */
  Network = 'network',
  /** 5xx or a body that is not what the protocol says */
  BadResponse = 'bad_response',
  /** 401/403: our key is wrong; retrying will not help */
  Unauthorized = 'unauthorized',
  /** the vendor refused the input (moderation, invalid parameters); retrying will not help */
  Rejected = 'rejected',
  /** the task is unknown or expired at the vendor */
  NotFound = 'not_found',
}

const RETRYABLE = new Set([
  ProviderErrorKind.RateLimited,
  ProviderErrorKind.Timeout,
  ProviderErrorKind.Network,
  ProviderErrorKind.BadResponse,
]);

/** What every adapter throws: a kind that says whether retrying can help, and a message for the record. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly options: { status?: number; vendorCode?: string; retryAfterMs?: number; refused?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

/** What a vendor accepts as an input image; the server prepares a derived copy to fit (the stored photo is untouched). */
export interface ProviderInputSpec {
  /** each side must be at least this many pixels (smaller photos are refused at upload) */
  minSide: number;
  /** the longer side is scaled down to at most this many pixels */
  maxSide: number;
  /** the vendor accepts `data:image/jpeg;base64,...` in place of a URL (used when APP_URL is not reachable from the internet) */
  acceptsDataUri: boolean;
}

export interface AiProvider {
  readonly name: AiProviderName;
  /** whether `parseWebhook` is implemented and `webhookUrl` is used */
  readonly supportsWebhooks: boolean;
  /** false for the local preview renderer (no AI): its results are labelled a preview, not AI-generated */
  readonly generatesWithAi: boolean;
  /** What the vendor accepts as an input image of this kind of generation; the server sends a derived copy that fits. */
  inputSpec(type: GenerationType): ProviderInputSpec;
  start(input: ProviderStartInput): Promise<ProviderStartResult>;
  status(jobId: string, signal?: AbortSignal): Promise<ProviderStatus>;
  /** best effort: ask the vendor to stop (not every vendor can) */
  cancel?(jobId: string): Promise<void>;
  /**
   * Optional, best effort: our copy of the job's result is stored, the provider may forget the job
   * and delete what it keeps of it (the preview provider removes its files; fal deletes the request's
   * payloads and output files). Errors are ignored.
   */
  discard?(jobId: string): Promise<void>;
  /**
   * The largest webhook body the vendor sends, in bytes, when it is above the API's 1 MB JSON limit
   * (FASHN's calls carry the result as base64). The webhook route reads bodies this large only for
   * calls `webhookUrlIsGenuine` recognises.
   */
  readonly webhookBodyLimitBytes?: number;
  /** For vendors that prove a webhook call by a token in its URL (FASHN): whether `requestUrl` carries a genuine one. */
  webhookUrlIsGenuine?(requestUrl: string): boolean;
  /**
   * Verifies and reads a webhook call. Answers null when the call is not authentic (bad or
   * missing signature), which the controller answers with 401 and ignores. May answer a promise
   * (fal fetches the vendor's public keys to check a signature).
   */
  parseWebhook?(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
    /** the path and query the call arrived on (`/api/webhooks/ai/<provider>?...`), for vendors that sign the URL */
    requestUrl?: string,
  ): { jobId: string; status: ProviderStatus } | null | Promise<{ jobId: string; status: ProviderStatus } | null>;
}
