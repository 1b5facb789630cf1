import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { isStorageOutage, storageCall, StorageUnavailableError } from './storage-unavailable';

describe('isStorageOutage', () => {
  it('counts a storage that cannot answer: disk errors, network errors, 5xx, throttling', () => {
    expect(isStorageOutage(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(true);
    expect(isStorageOutage(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isStorageOutage(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }))).toBe(true);
    expect(isStorageOutage(Object.assign(new Error('slow'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } }))).toBe(true);
  });

  it("counts the AWS SDK's wrapper of a refused connection, which carries neither a code nor a status", async () => {
    // a port nothing listens on: the SDK's own error, as S3StorageDriver meets it when the bucket's server is down
    const client = new S3Client({
      endpoint: 'http://127.0.0.1:1',
      region: 'us-east-1',
      forcePathStyle: true,
      maxAttempts: 1,
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
    });
    const error = await client.send(new ListObjectsV2Command({ Bucket: 'b' })).catch((e: unknown) => e);
    client.destroy();
    expect(isStorageOutage(error)).toBe(true);
    await expect(storageCall('list', () => Promise.reject(error))).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('does not count a missing object, a refused request or a bug', () => {
    expect(isStorageOutage(Object.assign(new Error('gone'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } }))).toBe(false);
    expect(isStorageOutage(Object.assign(new Error('denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }))).toBe(false);
    expect(isStorageOutage(new TypeError("Cannot read properties of undefined (reading 'ECONNREFUSED')"))).toBe(false);
    expect(isStorageOutage(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }))).toBe(false);
  });
});
