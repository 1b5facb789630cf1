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

/**
 * The scaffolding of a local fake vendor: an HTTP server on a free port of 127.0.0.1 that reads
 * each request, records it in `received` and hands it to the vendor's `route`.
 */
export abstract class FakeVendorServer {
  readonly received: ReceivedRequest[] = [];
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));

  start(): Promise<string> {
    return this.http.start();
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  /** Forgets the requests received; vendors reset their own state as well. */
  reset(): void {
    this.received.length = 0;
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
