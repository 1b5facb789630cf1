import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NotFoundError } from '../../common/errors';
import { attachmentDisposition } from '../signed-url';
import { assertValidContentType, assertValidKey, assertValidPrefix, assertValidTtl } from '../storage-key';
import { isStorageOutage, storageCall, StorageUnavailableError } from '../storage-unavailable';
import type { AppConfig } from '../../config/app-config';
import type { SignedUrlOptions, StoragePort, StoredObject } from '../storage.port';
import type { OnModuleDestroy } from '@nestjs/common';

type S3Settings = NonNullable<AppConfig['storage']['s3']>;

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function s3Client(s3: S3Settings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: s3.region,
    endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // checksums only where S3 requires them: several S3-compatible servers reject the newer headers
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Objects in an S3-compatible bucket (AWS, Versity S3 Gateway, R2...). Nothing is written with an ACL, so objects
 * stay as private as the bucket; clients read them through presigned GET URLs only.
 *
 * The app talks to the bucket at `endpoint` (S3_ENDPOINT); browsers and vendors may have to reach it
 * at another address (`publicEndpoint`, S3_PUBLIC_ENDPOINT: docker-compose's storage is
 * http://storage:9000 inside and http://localhost:9000 outside). A presigned URL cannot be re-pointed
 * afterwards: Signature V4 signs the Host header (X-Amz-SignedHeaders=host,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html), so the URLs are
 * signed by a second client configured with the public endpoint. Presigning is computed locally:
 * that client never sends a request.
 */
export class S3StorageDriver implements StoragePort, OnModuleDestroy {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  /** signs the URLs handed out; the same client as `client` when no public endpoint is set */
  private readonly presigner: S3Client;
  private readonly bucket: string;

  constructor(private readonly config: Pick<AppConfig, 'storage'>) {
    const s3: S3Settings | undefined = config.storage.s3;
    if (!s3) throw new Error('storage.driver is "s3" but storage.s3 is not configured');
    this.bucket = s3.bucket;
    this.client = s3Client(s3, s3.endpoint);
    this.presigner = s3.publicEndpoint && s3.publicEndpoint !== s3.endpoint ? s3Client(s3, s3.publicEndpoint) : this.client;
  }

  async put(key: string, body: Buffer, opts: { contentType: string }): Promise<void> {
    assertValidKey(key);
    assertValidContentType(opts?.contentType);
    await storageCall('put', () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: opts.contentType, ContentLength: body.length }),
      ),
    );
  }

  async get(key: string): Promise<StoredObject> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = Buffer.from(await out.Body!.transformToByteArray());
      return { body, contentType: out.ContentType ?? 'application/octet-stream', size: body.length };
    } catch (err) {
      if (isNotFound(err)) throw new NotFoundError('File not found.');
      if (isStorageOutage(err)) throw new StorageUnavailableError('get', err);
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await storageCall('list', () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: 1000 })),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    let deleted = 0;
    let token: string | undefined;
    do {
      // deleting the listed page does not shift the next one: S3 continues after the last listed key
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: 1000 }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
      if (keys.length) {
        const out = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
        );
        if (out.Errors?.length) {
          const first = out.Errors[0];
          throw new Error(`S3 refused to delete ${out.Errors.length} object(s) under "${prefix}": ${first.Code} ${first.Message}`);
        }
        deleted += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }

  async signedUrl(key: string, opts: SignedUrlOptions = {}): Promise<string> {
    assertValidKey(key);
    const expiresIn = opts.ttlSeconds ?? this.config.storage.signedUrlTtlSeconds;
    assertValidTtl(expiresIn);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: opts.downloadName === undefined ? undefined : attachmentDisposition(opts.downloadName),
    });
    return getSignedUrl(this.presigner, command, { expiresIn });
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      throw new Error(`S3 bucket "${this.bucket}" is not usable${status ? ` (HTTP ${status})` : ''}: ${(err as Error).name}`, {
        cause: err,
      });
    }
  }

  onModuleDestroy(): void {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
