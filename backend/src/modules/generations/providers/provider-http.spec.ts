import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { ProviderError, ProviderErrorKind } from './ai-provider';
import { httpStatusKind, JsonRequest, redactSecret, requestJson, VendorErrorAnswer } from './provider-http';
import type { AddressInfo } from 'node:net';

/** The helper against a real local HTTP server: each path answers one way. */
describe('requestJson', () => {
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
  /** what the vendor mapper was handed */
  const mapped: VendorErrorAnswer[] = [];
  const routes: Record<string, (res: ServerResponse) => void> = {
    '/ok': (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"task":{"id":"t-1"}}'),
    '/html': (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>maintenance</html>'),
    '/empty': (res) => res.writeHead(204).end(),
    '/slow': (res) => void setTimeout(() => !res.destroyed && res.writeHead(200).end('{}'), 30_000).unref(),
    '/throttled': (res) =>
      res.writeHead(429, { 'Retry-After': '7', 'Content-Type': 'application/json' }).end('{"code":"Throttling","message":"slow down"}'),
    '/broken': (res) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('Bad Gateway'),
    '/moved': (res) => res.writeHead(302, { Location: '/ok' }).end(),
  };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen.length = 0;
    mapped.length = 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const request = (path: string, overrides: Partial<JsonRequest> = {}) =>
    requestJson({
      vendor: 'Acme',
      method: 'GET',
      url: `${base}${path}`,
      headers: { Authorization: 'Bearer k-123' },
      timeoutMs: 1000,
      mapError: (answer) => {
        mapped.push(answer);
        return new ProviderError(ProviderErrorKind.Rejected, `mapped ${answer.status}`, { vendorCode: 'from-mapper' });
      },
      ...overrides,
    });

  async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }

  it('answers the parsed JSON of a 2xx, sending the vendor headers, Accept and a JSON body', async () => {
    await expect(request('/ok', { method: 'POST', body: { model: 'm', n: 1 } })).resolves.toEqual({ task: { id: 't-1' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/ok', body: '{"model":"m","n":1}' });
    expect(seen[0].headers).toMatchObject({
      authorization: 'Bearer k-123',
      accept: 'application/json',
      'content-type': 'application/json',
    });

    await expect(request('/ok')).resolves.toEqual({ task: { id: 't-1' } });
    expect(seen[1]).toMatchObject({ method: 'GET', body: '' });
    expect(seen[1].headers['content-type']).toBeUndefined();
    expect(mapped).toEqual([]);
  });

  it('a 2xx whose body is not JSON (or is empty) is refused as BadResponse, without calling the mapper', async () => {
    const html = await rejection(request('/html'));
    expect(html.kind).toBe(ProviderErrorKind.BadResponse);
    expect(html.message).toBe('Acme answered 200 with a body that is not JSON');
    expect(html.options.status).toBe(200);

    const empty = await rejection(request('/empty'));
    expect(empty.kind).toBe(ProviderErrorKind.BadResponse);
    expect(empty.options.status).toBe(204);
    expect(mapped).toEqual([]);
  });

  it("a vendor error reaches the vendor's mapper with its status, parsed body and Retry-After; the mapper's error is thrown", async () => {
    const error = await rejection(request('/throttled'));
    expect(mapped).toEqual([{ status: 429, body: { code: 'Throttling', message: 'slow down' }, retryAfter: '7' }]);
    expect(error.message).toBe('mapped 429');
    expect(error.options.vendorCode).toBe('from-mapper');

    await rejection(request('/broken'));
    expect(mapped[1]).toEqual({ status: 502, body: undefined, retryAfter: null });
  });

  it('an answer slower than the timeout throws Timeout, on time', async () => {
    const started = Date.now();
    const error = await rejection(request('/slow', { timeoutMs: 200 }));
    expect(error.kind).toBe(ProviderErrorKind.Timeout);
    expect(error.message).toBe('Acme did not answer in time');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000); // cut by the limit, not by the answer at 30 s
  });

  it("the caller's signal cuts the request short too (Timeout), even with a long timeout", async () => {
    const started = Date.now();
    const error = await rejection(request('/slow', { timeoutMs: 10_000, signal: AbortSignal.timeout(150) }));
    expect(error.kind).toBe(ProviderErrorKind.Timeout);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('redirects are not followed (Network), and an unreachable vendor is a Network error naming the cause', async () => {
    const moved = await rejection(request('/moved'));
    expect(moved.kind).toBe(ProviderErrorKind.Network);
    expect(seen.map((s) => s.url)).toEqual(['/moved']);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = await rejection(request('/ok', { url: `http://127.0.0.1:${port}/ok` }));
    expect(offline.kind).toBe(ProviderErrorKind.Network);
    expect(offline.message).toBe('Could not reach Acme (ECONNREFUSED)');
    expect(mapped).toEqual([]);
  });
});

describe('shared error helpers', () => {
  it('maps the plain HTTP statuses to kinds; 404 takes the caller kind', () => {
    expect(httpStatusKind(401)).toBe(ProviderErrorKind.Unauthorized);
    expect(httpStatusKind(403)).toBe(ProviderErrorKind.Unauthorized);
    expect(httpStatusKind(404)).toBe(ProviderErrorKind.NotFound);
    expect(httpStatusKind(404, ProviderErrorKind.Rejected)).toBe(ProviderErrorKind.Rejected);
    expect(httpStatusKind(400)).toBe(ProviderErrorKind.Rejected);
    expect(httpStatusKind(503)).toBe(ProviderErrorKind.BadResponse);
    expect(httpStatusKind(302)).toBe(ProviderErrorKind.BadResponse);
  });

  it('masks the key in vendor text and truncates it', () => {
    expect(redactSecret('Invalid API-key provided: sk-1', 'sk-1')).toBe('Invalid API-key provided: ***');
    const long = redactSecret(`sk-1 ${'a'.repeat(500)}`, 'sk-1');
    expect(long.startsWith('*** ')).toBe(true);
    expect(long).toHaveLength(301);
  });
});
