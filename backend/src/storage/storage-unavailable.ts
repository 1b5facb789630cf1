import { ServiceUnavailableError } from '../common/errors';

/**
 * The storage could not write or read for a reason of its own (disk full or read-only, permission,
 * I/O error; S3 answering 5xx or not at all): 503 with the catalogue's "temporarily unavailable",
 * never a 500 that reads like a bug in the request. The cause is kept for the logs.
 */
export class StorageUnavailableError extends ServiceUnavailableError {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(undefined, 5);
    this.name = 'StorageUnavailableError';
    Object.defineProperty(this, 'cause', { value: cause, enumerable: false });
  }
}

const LOCAL_OUTAGE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'EMFILE', 'ENFILE', 'EBUSY', 'EAGAIN']);
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether an error of a storage call is the storage being unable (rather than a missing object or a bad key). */
export function isStorageOutage(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number }; cause?: { code?: unknown } } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (LOCAL_OUTAGE.has(e.code) || NETWORK.has(e.code))) return true;
  if (typeof e.cause?.code === 'string' && NETWORK.has(e.cause.code)) return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  // the AWS SDK wraps a refused or broken connection as "AWS SDK error wrapper for Error: connect
  // ECONNREFUSED ...": no code, no HTTP status, only the words of the original error
  if (e.$metadata && !e.$metadata.httpStatusCode && typeof (e as { message?: unknown }).message === 'string') {
    const words = (e as { message: string }).message;
    if ([...NETWORK].some((code) => words.includes(code))) return true;
  }
  return e.name === 'TimeoutError' || e.name === 'RequestTimeout' || e.name === 'SlowDown' || e.name === 'ServiceUnavailable';
}

/** Runs a storage call, answering StorageUnavailableError for an outage and rethrowing anything else. */
export async function storageCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStorageOutage(error)) throw new StorageUnavailableError(operation, error);
    throw error;
  }
}
