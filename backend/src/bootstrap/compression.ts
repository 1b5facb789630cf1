import * as zlib from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * What is sent compressed: text the browser can decode (scripts, styles, HTML, SVG, JSON) over 1 kB,
 * as brotli when accepted, else gzip. Never an event stream (`/api/generations/:id/events`): a
 * compressor buffers its output, and the browser must see each event at once.
 */
export function shouldCompress(req: Request, res: Response): boolean {
  const type = String(res.getHeader('Content-Type') ?? '');
  if (type.startsWith('text/event-stream')) return false;
  return compression.filter(req, res);
}

export function compressResponses(): RequestHandler {
  return compression({ filter: shouldCompress, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } } }) as RequestHandler;
}
