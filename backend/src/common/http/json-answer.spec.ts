import * as http from 'node:http';
import express from 'express';
import { compressResponses } from '../../bootstrap/compression';
import { sendKeptJson } from './json-answer';
import type { AddressInfo } from 'node:net';

describe('sendKeptJson', () => {
  const page = { items: Array.from({ length: 100 }, (_, i) => ({ id: `g${i}`, url: `/files/${i}.jpg?sig=abc${i}` })), total: 100 };
  const small = { items: [], total: 0 };
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(compressResponses());
    app.get('/page', (req, res) => sendKeptJson(req, res, page));
    app.get('/small', (req, res) => sendKeptJson(req, res, small));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the answer compressed for the browser, and serialises a kept answer once however often it is sent', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/page`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(await res.json()).toEqual(page);
    }
    const gz = await fetch(`${base}/page`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.json()).toEqual(page);
    const plain = await fetch(`${base}/page`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(page);

    // what is sent is what the object was when first sent: it is not serialised again
    const before = structuredClone(page);
    page.total = -1;
    for (const encoding of ['br', 'gzip', 'identity']) {
      expect(await (await fetch(`${base}/page`, { headers: { 'accept-encoding': encoding } })).json()).toEqual(before);
    }
  });

  it('sends a small answer as it is', async () => {
    const res = await fetch(`${base}/small`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual(small);
  });
});
