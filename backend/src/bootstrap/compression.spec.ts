import * as http from 'node:http';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { compressJsonAnswers, compressResponses } from './compression';
import type { AddressInfo } from 'node:net';

/** A tiny server with the app's compression: what a browser that accepts br and gzip receives. */
async function serve(handler: express.RequestHandler): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(compressResponses());
  app.use(compressJsonAnswers());
  app.get('/x', handler);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const body = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `template ${i}` })) });

describe('response compression', () => {
  it('sends JSON as brotli when the browser accepts it, else gzip, and the same bytes once decoded', async () => {
    const s = await serve((_req, res) => void res.json(JSON.parse(body)));
    try {
      const br = await fetch(s.url, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(await br.text()).toBe(body);
      const gz = await fetch(s.url, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(await gz.text()).toBe(body);
      const plain = await fetch(s.url, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('leaves an event stream alone so each event reaches the browser at once', async () => {
    let release: () => void = () => undefined;
    const s = await serve((_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.write(`event: progress\ndata: ${'x'.repeat(2000)}\n\n`);
      release = () => res.end();
    });
    try {
      const res = await fetch(s.url, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.headers.get('content-encoding')).toBeNull();
      // the first event arrives while the stream is still open
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(Buffer.from(first.value!).toString('utf8')).toContain('event: progress');
      release();
      await reader.cancel();
    } finally {
      release();
      await s.close();
    }
  });

  it('sends a JSON answer in one piece with its length, and leaves small or already encoded answers as they are', async () => {
    const s = await serve((req, res) => {
      if (req.query.small) return void res.json({ ok: true });
      if (req.query.encoded) {
        res.setHeader('Content-Encoding', 'gzip');
        res.type('application/json');
        return void res.send(gzipSync(body));
      }
      res.json(JSON.parse(body));
    });
    try {
      const br = await fetch(s.url, { headers: { 'accept-encoding': 'br, gzip' } });
      const bytes = Buffer.from(await br.clone().arrayBuffer()); // fetch decodes; the length is of the encoded bytes
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('vary')).toContain('Accept-Encoding');
      expect(Number(br.headers.get('content-length'))).toBeLessThan(body.length / 3);
      expect(bytes.toString('utf8')).toBe(body);
      const small = await fetch(`${s.url}?small=1`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(small.headers.get('content-encoding')).toBeNull();
      expect(await small.json()).toEqual({ ok: true });
      const encoded = await fetch(`${s.url}?encoded=1`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(encoded.headers.get('content-encoding')).toBe('gzip');
      expect(await encoded.text()).toBe(body);
    } finally {
      await s.close();
    }
  });
});
