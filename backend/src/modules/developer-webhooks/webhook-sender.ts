import { createHmac, timingSafeEqual } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_TOLERANCE_SECONDS } from '@fitting-room/shared/developer-api';
import { bareHost, isPublicAddress, publicOnlyLookup, RefusedAddressError } from './webhook-address';

/** A delivery attempt gets this long in all (connecting, TLS, the answer's head and body). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read (then the connection is closed); the body is never stored. */
export const WEBHOOK_RESPONSE_CAP_BYTES = 64 * 1024;

/**
 * The header value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * endpoint's secret as text (`whsec_...`, the prefix included): Stripe's scheme, so its libraries'
 * habits apply.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * The receiver's check, as docs/api.md gives it: the header's `t` within the tolerance of now
 * (a replay of an old delivery is refused), and one of its `v1` values equal, in constant time, to
 * the HMAC of `"<t>.<raw body>"`.
 */
export function verifySignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'));
  return parts
    .filter(([k, v]) => k === 'v1' && v)
    .some(([, v]) => {
      const given = Buffer.from(v);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

export interface DeliveryOutcome {
  ok: boolean;
  /** the answer's status; null when none came */
  status: number | null;
  durationMs: number;
  /** why it failed, in a few words */
  error: string | null;
}

export interface OutgoingDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** loopback and private addresses allowed (outside production) */
  allowPrivate: boolean;
  /** WEBHOOK_TIMEOUT_MS unless given (tests) */
  timeoutMs?: number;
}

/**
 * POSTs one delivery: no redirect followed (a 3xx is a failure), WEBHOOK_TIMEOUT_MS in all, at most
 * WEBHOOK_RESPONSE_CAP_BYTES of the answer read. Without `allowPrivate` the host must resolve to
 * public addresses only, and the connection goes to the address checked. Never throws.
 */
export function sendDelivery(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
  const started = Date.now();
  const done = (ok: boolean, status: number | null, error: string | null): DeliveryOutcome => ({
    ok,
    status,
    durationMs: Date.now() - started,
    error,
  });
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return Promise.resolve(done(false, null, 'the URL is not valid'));
  }
  const host = bareHost(url);
  if (!delivery.allowPrivate) {
    if (url.protocol !== 'https:') return Promise.resolve(done(false, null, 'refused: only https:// endpoints are called'));
    // an IP literal never goes through `lookup`: checked here
    if (isIP(host) && !isPublicAddress(host)) return Promise.resolve(done(false, null, new RefusedAddressError(host).message));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...delivery.headers, 'Content-Length': String(Buffer.byteLength(delivery.body)) },
        ...(delivery.allowPrivate ? {} : { lookup: publicOnlyLookup }),
        agent: false,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > WEBHOOK_RESPONSE_CAP_BYTES) res.destroy(); // the rest is not wanted
        });
        const settle = () => {
          const ok = status >= 200 && status < 300;
          const error = ok ? null : status >= 300 && status < 400 ? `answered ${status}: redirects are not followed` : `answered ${status}`;
          finish(done(ok, status, error));
        };
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    const timeoutMs = delivery.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    const timer = setTimeout(() => {
      finish(done(false, null, `no answer within ${timeoutMs / 1000} s`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish(done(false, null, describe(err))));
    req.end(delivery.body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  if (err instanceof RefusedAddressError) return err.message;
  switch (err.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      return err.code?.startsWith('ERR_TLS') || err.code?.includes('CERT') ? `TLS error (${err.code})` : (err.code ?? 'connection failed');
  }
}
