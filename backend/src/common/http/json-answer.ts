import * as zlib from 'node:zlib';
import type { Request, Response } from 'express';

/** Smallest JSON answer worth compressing. */
export const MIN_COMPRESSED_JSON_BYTES = 1024;
const FAST_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

export type JsonEncoding = 'br' | 'gzip' | 'identity';

/**
 * How the API compresses a JSON answer: in one step, brotli at quality 1 or gzip at level 1 (docs/performance.md:
 * quality 5 streamed cost several times the CPU of a small answer for about 8% fewer bytes).
 */
export function compressJson(json: string, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(json, FAST_BROTLI) : zlib.gzipSync(json, { level: 1 });
}

/** The encoding of a JSON answer of `length` characters for this request (and `Vary` when it depends on it). */
export function jsonEncodingFor(req: Request, res: Response, length: number): JsonEncoding {
  if (length < MIN_COMPRESSED_JSON_BYTES || req.method === 'HEAD') return 'identity';
  res.vary('Accept-Encoding');
  const accepted = req.acceptsEncodings('br', 'gzip');
  return accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
}

interface KeptAnswer {
  json: string;
  encoded: Partial<Record<JsonEncoding, Buffer>>;
}

/** The bytes of answers that are sent again as they are, for as long as the answer object lives. */
const keptAnswers = new WeakMap<object, KeptAnswer>();

/**
 * Sends `answer` (status 200, JSON) from a route that keeps its answers and sends the same object
 * again, such as a kept page of the gallery: it is serialised once and compressed once per
 * encoding, and later requests send those bytes. The object must not change once sent.
 */
export function sendKeptJson(req: Request, res: Response, answer: object): void {
  let kept = keptAnswers.get(answer);
  if (!kept) {
    kept = { json: JSON.stringify(answer), encoded: {} };
    keptAnswers.set(answer, kept);
  }
  const encoding = jsonEncodingFor(req, res, kept.json.length);
  const bytes = (kept.encoded[encoding] ??= encoding === 'identity' ? Buffer.from(kept.json) : compressJson(kept.json, encoding));
  res.status(200).type('application/json; charset=utf-8');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.send(bytes);
}
