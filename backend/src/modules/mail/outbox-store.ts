import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { NotFoundError } from '../../common/errors';
import type { StoragePort } from '../../storage';

/**
 * Where the mail written without SMTP is kept, by file name (`OUTBOX_FILE`). Two places, one rule
 * (docs/mail.md "The outbox"): with S3 file storage, in the bucket under `outbox/` (private, never
 * signed), which every API and worker host reaches, so a message one worker writes is on the
 * console's Outbox page of any API replica; with local file storage (one host: `npm start`), as
 * files under `$DATA_DIR/mail/`, where a developer opens them.
 */
export interface OutboxStore {
  /** where the messages are, for the log: a directory or `s3://<bucket>/outbox/` */
  readonly where: string;
  /** Stores a whole message under `name`; a reader never sees half of it. Answers where it went. */
  write(name: string, raw: string): Promise<string>;
  /** Every stored name (unordered). */
  names(): Promise<string[]>;
  /** NotFoundError when it is gone. */
  read(name: string): Promise<string>;
  /** Gone already is not an error. */
  remove(name: string): Promise<void>;
}

/** $DATA_DIR/mail/<name>: written to a temporary name and renamed into place (0600 in a 0700 folder). */
export class DirectoryOutbox implements OutboxStore {
  constructor(readonly where: string) {}

  async write(name: string, raw: string): Promise<string> {
    await fs.mkdir(this.where, { recursive: true, mode: 0o700 });
    const file = path.join(this.where, name);
    await fs.writeFile(`${file}.tmp`, raw, { mode: 0o600 });
    await fs.rename(`${file}.tmp`, file);
    return file;
  }

  async names(): Promise<string[]> {
    try {
      return await fs.readdir(this.where);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async read(name: string): Promise<string> {
    try {
      return await fs.readFile(path.join(this.where, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError();
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await fs.rm(path.join(this.where, name), { force: true });
  }
}

/** The objects `outbox/<name>` of the file storage (S3: one PUT is atomic; listed with ListObjectsV2). */
export class StorageOutbox implements OutboxStore {
  static readonly PREFIX = 'outbox/';

  constructor(
    private readonly storage: StoragePort,
    readonly where: string,
  ) {}

  async write(name: string, raw: string): Promise<string> {
    await this.storage.put(this.key(name), Buffer.from(raw, 'utf8'), { contentType: 'message/rfc822' });
    return `${this.where}${name}`;
  }

  async names(): Promise<string[]> {
    return (await this.storage.list(StorageOutbox.PREFIX))
      .map((key) => key.slice(StorageOutbox.PREFIX.length))
      .filter((n) => !n.includes('/'));
  }

  async read(name: string): Promise<string> {
    return (await this.storage.get(this.key(name))).body.toString('utf8');
  }

  async remove(name: string): Promise<void> {
    await this.storage.delete(this.key(name));
  }

  private key(name: string): string {
    return `${StorageOutbox.PREFIX}${name}`;
  }
}
