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
  /**
   * For links handed to the browser: the local driver answers a host-relative link
   * (`/api/files/<key>?...`), which loads from whatever host the app was opened on (`localhost`,
   * `127.0.0.1`, a LAN address) under the app's `img-src 'self'`; the signature and expiry are the
   * same. Links for anyone else (an AI vendor fetching a photo) leave it unset: absolute on APP_URL.
   * Drivers whose links live on another host (S3's presigned URLs) ignore it.
   */
  hostRelative?: boolean;
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
  /** The keys of every object whose key starts with `prefix` (e.g. `outbox/`), in no promised order. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every object whose key starts with `prefix` (e.g. `users/<id>/`); answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** A URL that serves the object until it expires: absolute, or host-relative with `hostRelative` (local driver). */
  signedUrl(key: string, opts?: SignedUrlOptions): Promise<string>;
  /** Health: throws when the storage cannot be used. */
  check(): Promise<void>;
}
