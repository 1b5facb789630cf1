import sharp from 'sharp';
import { LocalHttpServer } from '../fakes/local-http-server';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A canned answer that replaces the normal handling of one request. */
export interface FakeOverride {
  status?: number;
  /** JSON-encoded unless `raw` is given */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** wait this long before answering (slow-vendor cases) */
  delayMs?: number;
}

/** One request as the fake received it. */
export interface ReceivedRequest {
  method: string;
  /** the path and query as sent */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** the body parsed as JSON; the text when it is not JSON; undefined when empty */
  body: unknown;
  rawBody: Buffer;
}

/** How a route answers. */
export interface FakeReply {
  /** `payload` as JSON (or `raw` as is), after `delayMs`; nothing when the client has gone */
  send(
    status: number,
    payload: unknown,
    headers?: Record<string, string>,
    raw?: string,
    delayMs?: number,
    rawEncoding?: BufferEncoding,
  ): Promise<void>;
  /** the canned answer instead of the normal handling */
  useOverride(o: FakeOverride): Promise<void>;
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'bmp' | 'gif' | 'unknown';

/** An input image the fake loaded, as the vendor would see it. */
export interface ReceivedImage {
  /** the request field it came in (`images[1]`, `img_url`, `model_image` ...) */
  field: string;
  /** a link the fake fetched, or a base64 data URI in the request */
  via: 'url' | 'data-uri';
  format: ImageFormat;
  width: number;
  height: number;
  hasAlpha: boolean;
  bytes: number;
}

/** Why an input image could not be loaded. */
export type ImageLoadFailure =
  | 'unreachable' // a host a vendor on the internet cannot reach (loopback, private, .local ...)
  | 'download-failed' // fetched, answered other than 2xx, or the connection failed
  | 'bad-data-uri' // not `data:image/<type>;base64,<data>`
  | 'not-an-image';

/** `data`: the image's bytes, for a fake that draws its output from its inputs. */
export type ImageLoad = { ok: true; image: ReceivedImage; data: Buffer } | { ok: false; failure: ImageLoadFailure };

/** Hosts a vendor on the internet cannot reach (kept apart from the server's own rule on purpose). */
function privateHost(url: URL): boolean {
  const h = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' ||
    h === '::1' ||
    /^(127|10|0)\./.test(h) ||
    /^192\.168\./.test(h) ||
    /^169\.254\./.test(h) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(h) ||
    /\.(local|internal|localhost)$/.test(h) ||
    !h.includes('.')
  );
}

function sniff(bytes: Buffer): ImageFormat {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 26 && bytes.toString('latin1', 0, 2) === 'BM') return 'bmp';
  if (bytes.length >= 6 && bytes.toString('latin1', 0, 4) === 'GIF8') return 'gif';
  return 'unknown';
}

/**
 * The scaffolding of a local fake vendor: an HTTP server on a free port of 127.0.0.1 that reads
 * each request, records it in `received` and hands it to the vendor's `route`.
 *
 * Input images are loaded as a vendor on the internet would (`loadImage`): data URIs are decoded;
 * links are fetched from a pretend internet, never the real one: `publish` puts a file at a public
 * URL, `routeOrigin` makes a public origin lead to a local server (our API, as if APP_URL were
 * public). Hosts a vendor could not reach (loopback, private ranges, .local names ...) stay
 * unreachable unless routed. Every image loaded is recorded in `images`, every link fetched in `fetched`.
 */
export abstract class FakeVendorServer {
  readonly received: ReceivedRequest[] = [];
  /** the input images loaded, in order */
  readonly images: ReceivedImage[] = [];
  /** the links fetched (as sent to the vendor) */
  readonly fetched: string[] = [];
  /** false: the fake does not look at input images at all (the fault suite's vendor is about outages) */
  checkImages = true;
  private readonly published = new Map<string, { body: Buffer; contentType: string }>();
  private readonly routes = new Map<string, string>();
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));

  /** Serves `body` at the public `url` of the pretend internet. */
  publish(url: string, body: Buffer, contentType = 'image/jpeg'): void {
    this.published.set(url, { body, contentType });
  }

  /** Requests to `publicOrigin` (`https://tryon.example`) reach `localBase` (`http://127.0.0.1:1234`). */
  routeOrigin(publicOrigin: string, localBase: string): void {
    this.routes.set(new URL(publicOrigin).origin, localBase.replace(/\/+$/, ''));
  }

  /** Loads the input image `ref` (a link or a data URI) sent in `field`, and records it. */
  async loadImage(field: string, ref: string): Promise<ImageLoad> {
    let bytes: Buffer;
    let via: ReceivedImage['via'];
    if (ref.startsWith('data:')) {
      via = 'data-uri';
      const m = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/]+={0,2})$/i.exec(ref);
      if (!m) return { ok: false, failure: 'bad-data-uri' };
      bytes = Buffer.from(m[1], 'base64');
    } else {
      via = 'url';
      const loaded = await this.download(ref);
      if (!Buffer.isBuffer(loaded)) return { ok: false, failure: loaded };
      bytes = loaded;
    }
    const format = sniff(bytes);
    if (format === 'unknown') return { ok: false, failure: 'not-an-image' };
    let width: number;
    let height: number;
    let hasAlpha: boolean;
    if (format === 'bmp') {
      width = bytes.readInt32LE(18);
      height = Math.abs(bytes.readInt32LE(22));
      hasAlpha = bytes.readUInt16LE(28) === 32;
    } else {
      try {
        const meta = await sharp(bytes).metadata();
        width = meta.width ?? 0;
        height = meta.height ?? 0;
        hasAlpha = meta.hasAlpha ?? false;
      } catch {
        return { ok: false, failure: 'not-an-image' };
      }
    }
    if (!width || !height) return { ok: false, failure: 'not-an-image' };
    const image: ReceivedImage = { field, via, format, width, height, hasAlpha, bytes: bytes.length };
    this.images.push(image);
    return { ok: true, image, data: bytes };
  }

  private async download(ref: string): Promise<Buffer | ImageLoadFailure> {
    let url: URL;
    try {
      url = new URL(ref);
    } catch {
      return 'download-failed';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'download-failed';
    const published = this.published.get(ref) ?? this.published.get(`${url.origin}${url.pathname}`);
    if (published) {
      this.fetched.push(ref);
      return published.body;
    }
    const local = this.routes.get(url.origin);
    if (!local) return privateHost(url) ? 'unreachable' : 'download-failed'; // nothing else exists on the pretend internet
    this.fetched.push(ref);
    try {
      const res = await fetch(`${local}${url.pathname}${url.search}`, { redirect: 'follow', signal: AbortSignal.timeout(5000) });
      if (!res.ok) return 'download-failed';
      return Buffer.from(await res.arrayBuffer());
    } catch {
      return 'download-failed';
    }
  }

  start(): Promise<string> {
    return this.http.start();
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  /** Forgets the requests received and the images loaded; vendors reset their own state as well. */
  reset(): void {
    this.received.length = 0;
    this.images.length = 0;
    this.fetched.length = 0;
  }

  protected abstract route(request: ReceivedRequest, reply: FakeReply): Promise<void>;

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const text = rawBody.toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* kept as text */
    }
    const request: ReceivedRequest = {
      method: req.method ?? '',
      url: req.url ?? '/',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      rawBody,
    };
    this.received.push(request);
    const send: FakeReply['send'] = async (status, payload, headers = {}, raw, delayMs = 0, rawEncoding = 'utf8') => {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs).unref());
      if (res.destroyed) return;
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(raw === undefined ? JSON.stringify(payload) : Buffer.from(raw, rawEncoding));
    };
    await this.route(request, { send, useOverride: (o) => send(o.status ?? 200, o.body, o.headers, o.raw, o.delayMs) });
  }
}
