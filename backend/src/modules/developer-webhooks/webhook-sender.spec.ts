import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sendDelivery, signatureHeader, verifySignature, WEBHOOK_RESPONSE_CAP_BYTES } from './webhook-sender';
import type { AddressInfo } from 'node:net';

const SECRET = 'whsec_test-secret';

describe('webhook signatures (Fitting-Room-Signature)', () => {
  const body = JSON.stringify({ id: 'e1', type: 'generation.completed', data: { generation: { id: 'g1' } } });

  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, which the documented check accepts', () => {
    const header = signatureHeader(SECRET, body, 1_800_000_000);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(SECRET, body, header, 1_800_000_000)).toBe(true);
  });

  it('is refused with another secret, another body, a forged v1, or outside the 5-minute window (a replay)', () => {
    const header = signatureHeader(SECRET, body, 1_800_000_000);
    expect(verifySignature('whsec_other', body, header, 1_800_000_000)).toBe(false);
    expect(verifySignature(SECRET, body.replace('g1', 'g2'), header, 1_800_000_000)).toBe(false);
    expect(verifySignature(SECRET, body, header.replace(/v1=./, 'v1=0'), 1_800_000_000)).toBe(false);
    expect(verifySignature(SECRET, body, header, 1_800_000_000 + 301)).toBe(false);
    expect(verifySignature(SECRET, body, header, 1_800_000_000 - 301)).toBe(false);
    expect(verifySignature(SECRET, body, header, 1_800_000_000 + 299)).toBe(true);
    expect(verifySignature(SECRET, body, undefined, 1_800_000_000)).toBe(false);
    expect(verifySignature(SECRET, body, 'v1=abc', 1_800_000_000)).toBe(false);
  });
});

describe('sending one delivery', () => {
  let server: Server;
  let base = '';
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  const received: { path: string; body: string; headers: IncomingMessage['headers'] }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body, headers: req.headers });
        handle(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (received.length = 0));

  const send = (path: string, extra: { allowPrivate?: boolean; timeoutMs?: number } = {}) =>
    sendDelivery({
      url: `${base}${path}`,
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json', 'X-Probe': 'yes' },
      allowPrivate: true,
      ...extra,
    });

  it('POSTs the body and headers as given and succeeds on a 2xx', async () => {
    handle = (_req, res) => res.writeHead(204).end();
    const outcome = await send('/ok');
    expect(outcome).toMatchObject({ ok: true, status: 204, error: null });
    expect(received).toEqual([expect.objectContaining({ path: '/ok', body: '{"a":1}' })]);
    expect(received[0].headers['x-probe']).toBe('yes');
  });

  it('fails on a 5xx, and on a 3xx without following it', async () => {
    handle = (req, res) => (req.url === '/moved' ? res.writeHead(302, { Location: `${base}/elsewhere` }).end() : res.writeHead(503).end());
    expect(await send('/down')).toMatchObject({ ok: false, status: 503, error: 'answered 503' });
    const moved = await send('/moved');
    expect(moved).toMatchObject({ ok: false, status: 302 });
    expect(moved.error).toMatch(/redirects are not followed/);
    expect(received.map((r) => r.path)).toEqual(['/down', '/moved']);
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    handle = () => undefined; // never answers
    const outcome = await send('/slow', { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'no answer within 0.3 s' });
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  it('reads no more than the cap of a huge answer', async () => {
    handle = (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 50 * 1024 * 1024) res.once('drain', pump);
        else res.end();
      };
      res.on('close', () => (sent = Infinity));
      pump();
    };
    const outcome = await send('/huge', { timeoutMs: 5000 });
    expect(outcome.status).toBe(200);
    expect(outcome.durationMs).toBeLessThan(5000);
    expect(WEBHOOK_RESPONSE_CAP_BYTES).toBe(64 * 1024);
  });

  it('in production calls no http:// URL and no private address, without touching the network', async () => {
    handle = (_req, res) => res.writeHead(200).end();
    expect(await send('/x', { allowPrivate: false })).toMatchObject({
      ok: false,
      status: null,
      error: 'refused: only https:// endpoints are called',
    });
    const literal = await sendDelivery({ url: 'https://127.0.0.1:1/x', body: '{}', headers: {}, allowPrivate: false });
    expect(literal).toMatchObject({ ok: false, status: null });
    expect(literal.error).toMatch(/private, loopback or reserved/);
    const named = await sendDelivery({ url: 'https://localhost:1/x', body: '{}', headers: {}, allowPrivate: false });
    expect(named.error).toMatch(/private, loopback or reserved/);
    expect(received).toEqual([]);
  });
});
