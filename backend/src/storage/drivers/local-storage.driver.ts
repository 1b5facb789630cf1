import { randomUUID } from 'node:crypto';
import { constants as fsConstants, type Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ConflictError, NotFoundError } from '../../common/errors';
import { signLocalUrl } from '../signed-url';
import { assertValidContentType, assertValidKey, assertValidPrefix, assertValidTtl, isValidContentType } from '../storage-key';
import { isStorageOutage, StorageUnavailableError } from '../storage-unavailable';
import type { AppConfig } from '../../config/app-config';
import type { SignedUrlOptions, StoragePort, StoredObject } from '../storage.port';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const FALLBACK_CONTENT_TYPE = 'application/octet-stream';
const STALE_TEMP_MS = 60 * 60 * 1000;

/** errno codes that mean "there is no such object" for a path built from a valid key */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP']);
const errno = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;

/**
 * Objects as files under `config.storage.localDir`:
 *   objects/<key>       the bytes (0600; directories 0700)
 *   meta/<key>.json     `{ "contentType": ... }`, in its own tree so it never collides with a key
 *   tmp/                writes land here first, then rename() into place (atomic on one file system)
 * A key cannot be both an object and a "folder" of other keys here (S3 allows it): put answers
 * ConflictError in that case. Signed URLs point at FilesController (`/api/files/<key>`).
 */
export class LocalStorageDriver implements StoragePort {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly objectsDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;

  constructor(
    private readonly config: Pick<AppConfig, 'appUrl' | 'storage'>,
    private readonly now: () => number = Date.now,
  ) {
    this.root = path.resolve(config.storage.localDir);
    this.objectsDir = path.join(this.root, 'objects');
    this.metaDir = path.join(this.root, 'meta');
    this.tmpDir = path.join(this.root, 'tmp');
  }

  /** Creates the directories (0700) and removes temp files a crashed process left behind. */
  async init(): Promise<void> {
    for (const dir of [this.objectsDir, this.metaDir, this.tmpDir]) {
      await fs.mkdir(dir, { recursive: true, mode: DIR_MODE });
    }
    for (const name of await fs.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const stat = await fs.lstat(file).catch(() => undefined);
      if (stat?.isFile() && this.now() - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
    }
  }

  async put(key: string, body: Buffer, opts: { contentType: string }): Promise<void> {
    assertValidKey(key);
    assertValidContentType(opts?.contentType);
    const tmpData = path.join(this.tmpDir, `${randomUUID()}.data`);
    const tmpMeta = path.join(this.tmpDir, `${randomUUID()}.meta`);
    try {
      await fs.writeFile(tmpData, body, { mode: FILE_MODE, flag: 'wx' });
      await fs.writeFile(tmpMeta, JSON.stringify({ contentType: opts.contentType }), { mode: FILE_MODE, flag: 'wx' });
      // meta first: once the object is visible its content type is in place
      await this.moveInto(tmpMeta, this.metaPath(key));
      await this.moveInto(tmpData, this.objectPath(key));
    } catch (err) {
      if (['EEXIST', 'ENOTDIR', 'EISDIR'].includes(errno(err) ?? '')) {
        // no object can exist under this key then: drop the meta file this call may have placed
        await fs.rm(this.metaPath(key), { force: true }).catch(() => undefined);
        throw new ConflictError('A stored object and a folder of objects cannot share a name in local storage.');
      }
      if (isStorageOutage(err)) throw new StorageUnavailableError('put', err);
      throw err;
    } finally {
      await Promise.all([fs.rm(tmpData, { force: true }), fs.rm(tmpMeta, { force: true })]);
    }
  }

  async get(key: string): Promise<StoredObject> {
    assertValidKey(key);
    let body: Buffer;
    try {
      const handle = await fs.open(this.objectPath(key), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
      try {
        if (!(await handle.stat()).isFile()) throw new NotFoundError('File not found.');
        body = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (err) {
      if (MISSING.has(errno(err) ?? '')) throw new NotFoundError('File not found.');
      throw err;
    }
    return { body, contentType: await this.readContentType(key), size: body.length };
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      return (await fs.lstat(this.objectPath(key))).isFile();
    } catch (err) {
      if (MISSING.has(errno(err) ?? '')) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    for (const file of [this.objectPath(key), this.metaPath(key)]) {
      try {
        await fs.unlink(file);
      } catch (err) {
        if (!MISSING.has(errno(err) ?? '')) throw err;
      }
    }
    await this.pruneEmptyParents(key);
  }

  async list(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dirPart = prefix.slice(0, slash + 1);
    const namePart = prefix.slice(slash + 1);
    const keys: string[] = [];
    const walk = async (dir: string, keyPrefix: string, startsWith: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (MISSING.has(errno(err) ?? '')) return;
        throw err;
      }
      for (const entry of entries) {
        if (!entry.name.startsWith(startsWith)) continue;
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${keyPrefix}${entry.name}/`, '');
        else if (entry.isFile()) keys.push(`${keyPrefix}${entry.name}`);
      }
    };
    await walk(path.join(this.objectsDir, dirPart), dirPart, namePart);
    return keys;
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dirPart = prefix.slice(0, slash + 1);
    const namePart = prefix.slice(slash + 1);
    // meta/<key>.json starts with the same characters as objects/<key>, so one match rule covers both
    const deleted = await this.removeMatching(path.join(this.objectsDir, dirPart), namePart);
    const meta = await this.removeMatching(path.join(this.metaDir, dirPart), namePart);
    // no such folder in either tree (a generation whose vendor got no copies): no parent changed
    if (dirPart && (deleted !== null || meta !== null)) await this.pruneEmptyParents(`${dirPart}x`);
    return deleted ?? 0;
  }

  async signedUrl(key: string, opts: SignedUrlOptions = {}): Promise<string> {
    assertValidKey(key);
    const ttlSeconds = opts.ttlSeconds ?? this.config.storage.signedUrlTtlSeconds;
    assertValidTtl(ttlSeconds);
    return signLocalUrl({
      appUrl: opts.hostRelative ? undefined : this.config.appUrl,
      key,
      secret: this.config.storage.signingSecret,
      ttlSeconds,
      downloadName: opts.downloadName,
      now: this.now(),
    });
  }

  async check(): Promise<void> {
    try {
      await this.init();
      const probe = path.join(this.tmpDir, `${randomUUID()}.probe`);
      await fs.writeFile(probe, 'ok', { mode: FILE_MODE, flag: 'wx' });
      await fs.rm(probe, { force: true });
    } catch (err) {
      throw new Error(`Local storage at ${this.root} is not usable: ${(err as Error).message}`, { cause: err });
    }
  }

  private objectPath(key: string): string {
    return this.inside(this.objectsDir, key);
  }

  private metaPath(key: string): string {
    return this.inside(this.metaDir, `${key}.json`);
  }

  /** Keys are validated, so this cannot leave `base`; checked once more all the same. */
  private inside(base: string, relative: string): string {
    const full = path.join(base, ...relative.split('/'));
    if (!full.startsWith(base + path.sep)) throw new Error('storage path escapes its directory');
    return full;
  }

  /** rename() into place, creating the parent folders; retried once if a concurrent delete pruned them. */
  private async moveInto(tmp: string, target: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await fs.mkdir(path.dirname(target), { recursive: true, mode: DIR_MODE });
      try {
        await fs.rename(tmp, target);
        return;
      } catch (err) {
        if (errno(err) !== 'ENOENT' || attempt > 0) throw err;
      }
    }
  }

  private async readContentType(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await fs.readFile(this.metaPath(key), 'utf8')) as { contentType?: unknown };
      return isValidContentType(meta.contentType) ? meta.contentType : FALLBACK_CONTENT_TYPE;
    } catch {
      return FALLBACK_CONTENT_TYPE;
    }
  }

  /**
   * Removes the entries of `dir` whose names start with `namePart` (files and whole folders); counts
   * files. Null: there is no folder `dir`.
   */
  private async removeMatching(dir: string, namePart: string): Promise<number | null> {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (MISSING.has(errno(err) ?? '')) return null;
      throw err;
    }
    let count = 0;
    for (const entry of entries) {
      if (!entry.name.startsWith(namePart)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        count += (await this.removeMatching(full, '')) ?? 0;
        await fs.rm(full, { recursive: true, force: true });
      } else {
        await fs.rm(full, { force: true });
        if (entry.isFile()) count++;
      }
    }
    return count;
  }

  /** Deletes the folders of `key` that became empty, so no trace of a deleted user's id remains. */
  private async pruneEmptyParents(key: string): Promise<void> {
    const segments = key.split('/').slice(0, -1);
    for (let i = segments.length; i > 0; i--) {
      const rel = segments.slice(0, i).join('/');
      for (const base of [this.objectsDir, this.metaDir]) {
        try {
          await fs.rmdir(path.join(base, ...rel.split('/')));
        } catch (err) {
          if (!['ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(errno(err) ?? '')) throw err;
        }
      }
    }
  }
}
