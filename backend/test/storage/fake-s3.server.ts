import { createHash, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server for tests: path-style `/<bucket>/<key>` on 127.0.0.1, a random port.
 * It speaks what S3StorageDriver uses (PUT/GET/HEAD/DELETE object, ListObjectsV2, DeleteObjects,
 * HEAD bucket) and verifies AWS Signature V4 on every request, from the Authorization header or from
 * a presigned query string, by recomputing it with @smithy/signature-v4.
 */
export interface FakeS3Options {
  accessKeyId: string;
  secretAccessKey: string;
  buckets: string[];
  /** page size of ListObjectsV2 (S3: 1000), small in tests to exercise continuation */
  maxKeys?: number;
}

interface FakeObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
  /** the x-amz-acl header of the PUT, if any */
  acl?: string;
}

type Query = Record<string, string | string[]>;
export class S3Failure {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

class Sha256 extends Hash {
  constructor(secret?: ConstructorParameters<typeof Hash>[1]) {
    super('sha256', secret);
  }
}

const SKEW_MS = 15 * 60 * 1000;
const AUTH_HEADER =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const CREDENTIAL = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/;
const xml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const unxml = (s: string) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|lt|gt|amp|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(Number(e[1].toLowerCase() === 'x' ? `0${e.slice(1)}` : e.slice(1)))
      : ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()],
  );
const amzDate = (v: string | undefined) => {
  const m = v && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : undefined;
};
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export class FakeS3Server {
  readonly buckets = new Map<string, Map<string, FakeObject>>();
  /** added to the server's clock: lets a test expire a presigned URL without waiting */
  clockOffsetMs = 0;
  /** `METHOD path` of every request that passed authentication */
  readonly log: string[] = [];
  /**
   * Makes object writes whose key matches fail as S3 does when it cannot take them: 503 SlowDown
   * ("Please reduce your request rate.") or 500 InternalError. Null: writes succeed.
   */
  failWrites: { keys: RegExp; status: 500 | 503 } | null = null;
  /** writes refused by failWrites */
  refusedWrites = 0;
  url = '';
  private readonly server = http.createServer((req, res) => void this.handle(req, res));

  private constructor(private readonly options: FakeS3Options) {
    for (const b of options.buckets) this.buckets.set(b, new Map());
  }

  static async start(options: FakeS3Options): Promise<FakeS3Server> {
    const fake = new FakeS3Server(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [rawPath, rawQuery = ''] = (req.url ?? '/').split(/\?(.*)/s);
    const query: Query = {};
    for (const part of rawQuery.split('&').filter(Boolean)) {
      const i = part.indexOf('=');
      const k = decodeURIComponent(i < 0 ? part : part.slice(0, i));
      const v = i < 0 ? '' : decodeURIComponent(part.slice(i + 1));
      const prev = query[k];
      query[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
    }
    try {
      await this.authenticate(req, rawPath, query, body);
      this.log.push(`${req.method} ${rawPath}`);
      if (req.method === 'PUT' && this.failWrites?.keys.test(decodeURIComponent(rawPath))) {
        this.refusedWrites++;
        throw this.failWrites.status === 503
          ? new S3Failure(503, 'SlowDown', 'Please reduce your request rate.')
          : new S3Failure(500, 'InternalError', 'We encountered an internal error. Please try again.');
      }
      this.route(req, res, rawPath, query, body);
    } catch (err) {
      const f = err instanceof S3Failure ? err : new S3Failure(500, 'InternalError', String(err));
      res.writeHead(f.status, { 'Content-Type': 'application/xml' });
      res.end(
        req.method === 'HEAD'
          ? undefined
          : `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${f.code}</Code><Message>${xml(f.message)}</Message></Error>`,
      );
    }
  }

  private async authenticate(req: http.IncomingMessage, path: string, query: Query, body: Buffer): Promise<void> {
    const now = Date.now() + this.clockOffsetMs;
    const header = req.headers.authorization;
    const presigned = one(query['X-Amz-Signature']);
    let accessKeyId: string, region: string, service: string, signedHeaders: string, given: string;
    let date: Date | undefined;
    if (header) {
      const m = AUTH_HEADER.exec(header);
      if (!m) throw new S3Failure(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed');
      [, accessKeyId, , region, service, signedHeaders, given] = m;
      date = amzDate(one(req.headers['x-amz-date']));
      if (!date) throw new S3Failure(403, 'AccessDenied', 'X-Amz-Date is missing or malformed');
      if (Math.abs(now - date.getTime()) > SKEW_MS)
        throw new S3Failure(403, 'RequestTimeTooSkewed', 'The difference between the request time and the server time is too large');
      const declared = one(req.headers['x-amz-content-sha256']);
      if (!declared) throw new S3Failure(400, 'InvalidRequest', 'Missing required header x-amz-content-sha256');
      if (/^[0-9a-f]{64}$/.test(declared) && createHash('sha256').update(body).digest('hex') !== declared) {
        throw new S3Failure(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 does not match what was computed');
      }
      if (declared !== 'UNSIGNED-PAYLOAD' && !/^[0-9a-f]{64}$/.test(declared))
        throw new S3Failure(501, 'NotImplemented', 'Streaming uploads are not supported');
    } else if (presigned) {
      const m = CREDENTIAL.exec(one(query['X-Amz-Credential']) ?? '');
      date = amzDate(one(query['X-Amz-Date']));
      const expires = Number(one(query['X-Amz-Expires']));
      if (!m || !date || !Number.isInteger(expires) || one(query['X-Amz-Algorithm']) !== 'AWS4-HMAC-SHA256') {
        throw new S3Failure(
          400,
          'AuthorizationQueryParametersError',
          'Query-string authentication requires X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date and X-Amz-Expires',
        );
      }
      [, accessKeyId, , region, service] = m;
      signedHeaders = one(query['X-Amz-SignedHeaders']) ?? '';
      given = presigned;
      if (now > date.getTime() + expires * 1000) throw new S3Failure(403, 'AccessDenied', 'Request has expired');
    } else {
      throw new S3Failure(403, 'AccessDenied', 'Anonymous access is forbidden');
    }
    if (accessKeyId !== this.options.accessKeyId)
      throw new S3Failure(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');

    // the request as the client signed it: only its signed headers, the path as sent on the wire
    const headers: Record<string, string> = {};
    for (const name of signedHeaders.split(';').filter(Boolean)) {
      const v = req.headers[name];
      if (v === undefined) throw new S3Failure(403, 'SignatureDoesNotMatch', `Signed header ${name} is missing`);
      headers[name] = Array.isArray(v) ? v.join(',') : v;
    }
    const signer = new SignatureV4({
      credentials: { accessKeyId, secretAccessKey: this.options.secretAccessKey },
      region,
      service,
      sha256: Sha256,
      uriEscapePath: false, // S3 signs the path as sent, without normalizing or double-encoding it
    });
    const request = { method: req.method ?? 'GET', protocol: 'http:', hostname: '127.0.0.1', path, headers, query: { ...query } };
    let expected: string | undefined;
    if (header) {
      const signed = await signer.sign(request, { signingDate: date, signingRegion: region, signingService: service });
      expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
    } else {
      // the presigner signed X-Amz-Content-Sha256 as a header it then hoisted into the query
      const { 'X-Amz-Signature': _sig, 'X-Amz-Content-Sha256': payload, ...rest } = request.query;
      if (payload !== undefined) headers['X-Amz-Content-Sha256'] = one(payload)!;
      const signed = await signer.presign(
        { ...request, query: rest },
        { signingDate: date, expiresIn: Number(one(query['X-Amz-Expires'])), signingRegion: region, signingService: service },
      );
      expected = one(signed.query?.['X-Amz-Signature'] as string | string[] | undefined);
    }
    if (!expected || expected.length !== given.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(given))) {
      throw new S3Failure(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
  }

  private route(req: http.IncomingMessage, res: http.ServerResponse, path: string, query: Query, body: Buffer): void {
    const [bucketName, ...rest] = path.slice(1).split('/');
    const bucket = this.buckets.get(decodeURIComponent(bucketName));
    if (!bucket) throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist');
    const key = rest.map(decodeURIComponent).join('/');
    const method = req.method;
    if (!key) {
      if (method === 'HEAD') return void res.writeHead(200).end();
      if (method === 'GET' && one(query['list-type']) === '2') return this.list(res, bucketName, bucket, query);
      if (method === 'POST' && 'delete' in query) {
        const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(body.toString());
        const keys = [...body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => unxml(m[1]));
        for (const k of keys) bucket.delete(k);
        const deleted = quiet ? '' : keys.map((k) => `<Deleted><Key>${xml(k)}</Key></Deleted>`).join('');
        return this.sendXml(res, `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${deleted}</DeleteResult>`);
      }
      throw new S3Failure(501, 'NotImplemented', `${method} on a bucket is not implemented here`);
    }
    if (method === 'PUT') {
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      const contentType = one(req.headers['content-type']) ?? 'binary/octet-stream';
      bucket.set(key, { body, contentType, etag, lastModified: new Date(), acl: one(req.headers['x-amz-acl']) });
      return void res.writeHead(200, { ETag: etag }).end();
    }
    if (method === 'DELETE') {
      bucket.delete(key);
      return void res.writeHead(204).end();
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = bucket.get(key);
      if (!object) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
      const disposition = one(query['response-content-disposition']);
      res.writeHead(200, {
        'Content-Type': one(query['response-content-type']) ?? object.contentType,
        'Content-Length': object.body.length,
        ETag: object.etag,
        'Last-Modified': object.lastModified.toUTCString(),
        ...(disposition ? { 'Content-Disposition': disposition } : {}),
      });
      return void res.end(method === 'HEAD' ? undefined : object.body);
    }
    throw new S3Failure(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  private list(res: http.ServerResponse, name: string, bucket: Map<string, FakeObject>, query: Query): void {
    const prefix = one(query.prefix) ?? '';
    const token = one(query['continuation-token']);
    const after = token ? Buffer.from(token, 'base64url').toString() : (one(query['start-after']) ?? '');
    const max = Math.min(Number(one(query['max-keys']) ?? 1000), this.options.maxKeys ?? 1000);
    const matching = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = matching.slice(0, max);
    const truncated = matching.length > page.length;
    const contents = page
      .map((k) => {
        const o = bucket.get(k)!;
        return `<Contents><Key>${xml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const next = truncated
      ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]).toString('base64url')}</NextContinuationToken>`
      : '';
    this.sendXml(
      res,
      `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(name)}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token ? `<ContinuationToken>${xml(token)}</ContinuationToken>` : ''}${next}${contents}</ListBucketResult>`,
    );
  }

  private sendXml(res: http.ServerResponse, body: string): void {
    res.writeHead(200, { 'Content-Type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  }
}
