import { Inject, Injectable, Logger } from '@nestjs/common';
import { RateLimitError } from '../../common/errors';
import { STORAGE, type StoragePort } from '../../storage';
import { AUTH_RATE_LIMIT_STORAGE } from '../auth/rate-limit/auth-rate-limit';
import { DataExportRepository } from './data-export.repository';
import { userIdHash } from './personal-text';
import { ZipWriter } from './zip-writer';
import type { RateLimitStore } from '../auth/rate-limit/redis-throttler.storage';
import type { Writable } from 'node:stream';

/** At most this many exports per account per hour (each reads every file the account has). */
export const DATA_EXPORTS_PER_HOUR = 3;
const HOUR_MS = 3600_000;

/** The file extension of a stored object, from its key (`.../a1b2.jpg` -> `jpg`). */
function extensionOf(key: string): string {
  const match = /\.([a-z0-9]{1,5})$/i.exec(key);
  return match ? match[1].toLowerCase() : 'bin';
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

const README = (appName: string, when: Date) =>
  Buffer.from(
    [
      `Your ${appName} data, exported ${when.toISOString()}.`,
      '',
      'profile.json         your account: name, email, plan, when things happened (never your password or two-factor secret)',
      'settings.json        what we email you',
      'photos/              every photo you uploaded that we still keep, as stored (re-encoded, no metadata)',
      'photos.json          when each photo was uploaded and last used, its size',
      'faces.json           "Only you": your consent, the face measured in each photo (128 numbers), the live selfie',
      '                     checks and how close each result was to you (never a picture of the selfie: none is kept)',
      'results/             every generated image and video we keep',
      'generations.json     every generation: category, template, scene, your custom pose, cost, outcome',
      'credits.json         your balance and every credit ledger entry',
      'activity.json        your account activity (sign-ins, changes)',
      'tickets.json         your messages to support and the replies you were sent',
      'sessions.json        the devices signed in to your account',
      '',
      'Settings > Delete All My Data removes all of it.',
      '',
    ].join('\n'),
    'utf8',
  );

/**
 * "Download my data" (GET /api/me/export): everything the account holds, as JSON and the files
 * themselves (photos, results), in a ZIP written to the response as it is made (one file in memory
 * at a time). Only the caller's own rows and files under their own storage prefix. Limited to
 * DATA_EXPORTS_PER_HOUR per account.
 */
@Injectable()
export class DataExportService {
  private readonly logger = new Logger('DataExport');

  constructor(
    private readonly repo: DataExportRepository,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(AUTH_RATE_LIMIT_STORAGE) private readonly limits: RateLimitStore,
  ) {}

  /** Counts an export against the hour's allowance; throws 429 (with Retry-After) past it. */
  async admit(userId: string): Promise<void> {
    const { count, msLeft } = await this.limits.hit(`data-export:${userId}`, HOUR_MS);
    if (count > DATA_EXPORTS_PER_HOUR) {
      throw new RateLimitError(
        `You can download your data ${DATA_EXPORTS_PER_HOUR} times an hour. Please try again later.`,
        Math.max(1, Math.ceil(msLeft / 1000)),
      );
    }
  }

  /** Writes the ZIP of `userId`'s data to `out` (not ended here). */
  async write(userId: string, appName: string, out: Writable): Promise<void> {
    const now = new Date();
    const zip = new ZipWriter(out);
    const text = { compress: true, modified: now };
    await zip.add('README.txt', README(appName, now), text);
    await zip.add('profile.json', json((await this.repo.profile(userId)) ?? null), text);
    await zip.add('settings.json', json((await this.repo.settings(userId)) ?? null), text);

    const prefix = `users/${userId}/`;
    const uploads = await this.repo.uploads(userId);
    const photos: unknown[] = [];
    let files = 0;
    for (const { storage_key, ...upload } of uploads) {
      const name = `photos/${upload.id}.${extensionOf(storage_key)}`;
      if (storage_key.startsWith(prefix) && (await this.addFile(zip, storage_key, name))) files += 1;
      photos.push({ ...upload, file: name });
    }
    await zip.add('photos.json', json(photos), text);
    await zip.add('faces.json', json(await this.repo.faces(userId)), text);

    const generations = await this.repo.generations(userId);
    const listed: unknown[] = [];
    for (const { result_key, ...generation } of generations) {
      let file: string | null = null;
      if (result_key && result_key.startsWith(prefix)) {
        const name = `results/${generation.id}.${extensionOf(result_key)}`;
        if (await this.addFile(zip, result_key, name)) {
          file = name;
          files += 1;
        }
      }
      listed.push({ ...generation, file });
    }
    await zip.add('generations.json', json(listed), text);

    await zip.add(
      'credits.json',
      json({ balance: (await this.repo.creditBalance(userId)) ?? null, ledger: await this.repo.creditLedger(userId) }),
      text,
    );
    await zip.add('activity.json', json(await this.repo.activity(userId)), text);
    await zip.add('tickets.json', json(await this.repo.tickets(userId)), text);
    await zip.add('sessions.json', json(await this.repo.sessions(userId)), text);
    await zip.finish();
    this.logger.log({ event: 'data_exported', account: userIdHash(userId), files }, 'an account downloaded its data');
  }

  /** Adds a stored file (stored as it is: pictures and videos are compressed already); a file gone meanwhile is skipped. */
  private async addFile(zip: ZipWriter, key: string, name: string): Promise<boolean> {
    let body: Buffer;
    try {
      body = (await this.storage.get(key)).body;
    } catch (error) {
      this.logger.warn({ event: 'data_export_file_missing', err: error }, 'a file of the account could not be read for its export');
      return false;
    }
    await zip.add(name, body);
    return true;
  }
}
