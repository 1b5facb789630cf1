import express from 'express';
import request from 'supertest';
import { providerWebhookBodyParser, PROVIDER_WEBHOOK_PATH } from './provider-webhook-body';
import type { AiProvider } from './providers/ai-provider';

/** An app with the webhook parser, then the API's 1 MB parser, and a route that echoes what it was given. */
function appWith(provider: Partial<AiProvider>) {
  const app = express();
  app.use(PROVIDER_WEBHOOK_PATH, providerWebhookBodyParser(provider as AiProvider));
  app.use(express.json({ limit: '1mb', verify: (req, _res, buf) => ((req as unknown as { rawBody: Buffer }).rawBody = buf) }));
  app.post('/api/webhooks/ai/:provider', (req, res) => {
    res.json({ bytes: (req as unknown as { rawBody?: Buffer }).rawBody?.length ?? 0, keys: Object.keys(req.body ?? {}) });
  });
  app.post('/api/other', (req, res) => res.json({ keys: Object.keys(req.body ?? {}) }));
  app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 500).json({ status: err.status });
  });
  return app;
}

const body = (mb: number) => JSON.stringify({ output: ['x'.repeat(Math.round(mb * 1024 * 1024))] });
const vendor: Partial<AiProvider> = {
  name: 'fashn',
  supportsWebhooks: true,
  webhookBodyLimitBytes: 8 * 1024 * 1024,
  webhookUrlIsGenuine: (url: string) => url.includes('fr_token=good'),
};

describe('providerWebhookBodyParser', () => {
  it("reads the vendor's genuine calls up to its limit, keeping the raw bytes; above it, 413", async () => {
    const app = appWith(vendor);
    const ok = await request(app).post('/api/webhooks/ai/fashn?fr_token=good').set('Content-Type', 'application/json').send(body(5));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ bytes: Buffer.byteLength(body(5)), keys: ['output'] });
    const over = await request(app).post('/api/webhooks/ai/fashn?fr_token=good').set('Content-Type', 'application/json').send(body(9));
    expect(over.status).toBe(413);
  });

  it('a call without the genuine token, another provider, another route: the 1 MB limit', async () => {
    const app = appWith(vendor);
    const send = (path: string, mb: number) => request(app).post(path).set('Content-Type', 'application/json').send(body(mb));
    expect((await send('/api/webhooks/ai/fashn?fr_token=bad', 2)).status).toBe(413);
    expect((await send('/api/webhooks/ai/fashn?fr_token=bad', 0.5)).status).toBe(200);
    expect((await send('/api/webhooks/ai/fal?fr_token=good', 2)).status).toBe(413);
    expect((await send('/api/other?fr_token=good', 2)).status).toBe(413);
  });

  it('a vendor without a larger limit, or without webhooks, changes nothing', async () => {
    for (const provider of [
      { ...vendor, webhookBodyLimitBytes: undefined },
      { ...vendor, supportsWebhooks: false },
    ]) {
      const res = await request(appWith(provider))
        .post('/api/webhooks/ai/fashn?fr_token=good')
        .set('Content-Type', 'application/json')
        .send(body(2));
      expect(res.status).toBe(413);
    }
  });
});
