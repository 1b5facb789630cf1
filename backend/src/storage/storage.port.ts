/** Injection token of the StoragePort: `@Inject(STORAGE) private readonly storage: StoragePort`. */
export const STORAGE = Symbol('STORAGE');

export interface StoredObject {
  body: Buffer;
  contentType: string;
  size: number;
}

export interface SignedUrlOptions {
  /** Lifetime in seconds; defaults to config.storage.signedUrlTtlSeconds (900 s by default). */
  ttlSeconds?: number;
  /** Sets `Content-Disposition: attachment; filename=...` (sanitized) on the download. */
  downloadName?: string;
}

/**
 * Private object storage. Keys are validated by assertValidKey (storage-key.ts) in every driver;
 * nothing stored is ever public: clients read objects only through signedUrl().
 */
export interface StoragePort {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, opts: { contentType: string }): Promise<void>;
  /** NotFoundError when missing. */
  get(key: string): Promise<StoredObject>;
  exists(key: string): Promise<boolean>;
  /** A missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (e.g. `users/<id>/`); answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Absolute URL that serves the object until it expires. */
  signedUrl(key: string, opts?: SignedUrlOptions): Promise<string>;
  /** Health: throws when the storage cannot be used. */
  check(): Promise<void>;
}
