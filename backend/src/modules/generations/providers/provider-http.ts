/**
 * JSON over fetch for the vendor adapters (DashScope, FASHN): one request with a timeout, the answer
 * read as JSON, a 2xx that is not JSON refused, timeouts and network failures mapped to the port's
 * error kinds. What a non-2xx answer means is the vendor's business: each adapter passes its own
 * `mapError`.
 */
import { publishVendorCall, type VendorCallSignal } from '../../../common/observability/signals';
import { inSpan, SpanKind, traceCarrier, type TraceCarrier } from '../../../common/observability/tracing';
import { ProviderError, ProviderErrorKind } from './ai-provider';

/** A non-2xx answer, as handed to the vendor's error mapping. */
export interface VendorErrorAnswer {
  status: number;
  /** the parsed JSON body; undefined when the body is empty or not JSON */
  body: unknown;
  /** the Retry-After header, as sent */
  retryAfter: string | null;
}

export interface JsonRequest {
  /** the vendor's name in messages ("FASHN did not answer in time") */
  vendor: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** sent besides `Accept: application/json` (and `Content-Type: application/json` with a body) */
  headers: Record<string, string>;
  /** sent as JSON when defined */
  body?: unknown;
  timeoutMs: number;
  /** the caller's signal, applied alongside the timeout */
  signal?: AbortSignal;
  /** a 2xx without a body is fine (answered as undefined), for calls whose answer is not needed */
  allowEmpty?: boolean;
  mapError: (answer: VendorErrorAnswer) => ProviderError;
}

/**
 * Answers the parsed JSON of a 2xx answer; throws a ProviderError for anything else. Redirects are refused.
 * Each call is a client span of the trace it belongs to (the vendor gets `traceparent`), and is
 * counted with its outcome and time (fr_vendor_request_duration_seconds).
 */
export function requestJson(req: JsonRequest): Promise<unknown> {
  const started = performance.now();
  const host = hostOf(req.url);
  return inSpan(
    `${req.method} ${req.vendor}`,
    { kind: SpanKind.CLIENT, attributes: { 'http.request.method': req.method, 'server.address': host, 'peer.service': req.vendor } },
    async (span) => {
      let outcome: VendorCallSignal['outcome'] = 'ok';
      try {
        return await send(req, traceCarrier());
      } catch (error) {
        outcome = outcomeOf(error); // inSpan marks the span failed
        throw error;
      } finally {
        span?.setAttribute('fitting_room.vendor_outcome', outcome);
        publishVendorCall({ vendor: req.vendor, method: req.method, outcome, seconds: (performance.now() - started) / 1000 });
      }
    },
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** The metrics' outcome of a failed call. */
function outcomeOf(error: unknown): VendorCallSignal['outcome'] {
  if (!(error instanceof ProviderError)) return 'network';
  const status = error.options.status;
  if (typeof status === 'number' && status >= 500) return 'http_5xx';
  if (typeof status === 'number' && status >= 400) return 'http_4xx';
  if (error.kind === ProviderErrorKind.Timeout) return 'timeout';
  if (error.kind === ProviderErrorKind.Network) return 'network';
  return 'bad_response';
}

async function send(req: JsonRequest, trace: TraceCarrier): Promise<unknown> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const headers: Record<string, string> = { ...req.headers, Accept: 'application/json' };
  for (const [name, value] of Object.entries(trace)) if (value) headers[name] = value;
  if (req.body !== undefined) headers['Content-Type'] = 'application/json';
  let status: number;
  let text: string;
  let retryAfter: string | null;
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal,
      redirect: 'error',
    });
    status = res.status;
    retryAfter = res.headers.get('retry-after');
    text = await res.text();
  } catch (error) {
    throw transportError(req.vendor, error, signal);
  }
  let json: unknown;
  let parsed = true;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = false;
  }
  if (status >= 200 && status < 300) {
    if (req.allowEmpty && text === '') return undefined;
    if (!parsed || json === undefined) {
      throw new ProviderError(ProviderErrorKind.BadResponse, `${req.vendor} answered ${status} with a body that is not JSON`, { status });
    }
    return json;
  }
  throw req.mapError({ status, body: parsed ? json : undefined, retryAfter });
}

/** The kind of an HTTP error status once the vendor's own codes (moderation, throttling) are accounted for. */
export function httpStatusKind(status: number, notFoundKind = ProviderErrorKind.NotFound): ProviderErrorKind {
  if (status === 401 || status === 403) return ProviderErrorKind.Unauthorized;
  if (status === 404) return notFoundKind;
  if (status >= 500) return ProviderErrorKind.BadResponse;
  if (status >= 400) return ProviderErrorKind.Rejected;
  return ProviderErrorKind.BadResponse;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const MAX_MESSAGE = 300;

/** Vendor text kept in our records: at most 300 characters. */
export function truncate(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/** Vendor text with our key masked (some vendors echo the key they were sent), truncated. */
export function redactSecret(text: string, secret: string): string {
  return truncate(secret ? text.split(secret).join('***') : text);
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function transportError(vendor: string, error: unknown, signal: AbortSignal): ProviderError {
  if (signal.aborted) {
    return new ProviderError(ProviderErrorKind.Timeout, `${vendor} did not answer in time`, { cause: signal.reason });
  }
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return new ProviderError(ProviderErrorKind.Network, `Could not reach ${vendor}${code ? ` (${code})` : ''}`, { cause: error });
}
