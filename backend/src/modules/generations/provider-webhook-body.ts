import { json } from 'express';
import type { AiProvider } from './providers/ai-provider';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** The route the AI vendor calls back on (ProviderWebhooksController), under the API's prefix. */
export const PROVIDER_WEBHOOK_PATH = '/api/webhooks/ai';

/** Keeps the exact bytes, as Nest's own parser does with `rawBody: true` (webhooks verify them). */
function keepRawBody(req: Request & { rawBody?: Buffer }, _res: Response, buffer: Buffer): void {
  if (Buffer.isBuffer(buffer)) req.rawBody = buffer;
}

/**
 * The JSON parser of the active provider's webhook route, mounted at PROVIDER_WEBHOOK_PATH before the
 * API's 1 MB parser. A vendor whose calls carry more (FASHN puts the try-on result in them as base64)
 * declares `webhookBodyLimitBytes`; its calls are read up to that size, and when the vendor proves a
 * call by a token in its URL, only for calls whose URL carries a genuine one (checked before a byte of
 * the body is read). Every other request falls through to the 1 MB parser, which answers 413 above it.
 */
export function providerWebhookBodyParser(provider: AiProvider): RequestHandler {
  const limit = provider.webhookBodyLimitBytes;
  if (!provider.supportsWebhooks || !limit) return (_req: Request, _res: Response, next: NextFunction) => next();
  const parse = json({ limit, verify: keepRawBody });
  const ownPath = `/${encodeURIComponent(provider.name)}`;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || req.path !== ownPath) return next();
    if (provider.webhookUrlIsGenuine && !provider.webhookUrlIsGenuine(req.originalUrl)) return next();
    parse(req, res, next);
  };
}
