import { plural } from '@fitting-room/shared/wording';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { PrivacyRepository, type StaleUpload } from './privacy.repository';
import type { AppConfig } from '../../config/app-config';

/** How often consumers look for stale uploads, and the key of that schedule. */
export const UPLOADS_RETENTION_EVERY_MS = 6 * 60 * 60 * 1000;
export const UPLOADS_RETENTION_SCHEDULE_KEY = 'uploads-retention-sweep';
/** Uploads handled per transaction. */
export const UPLOADS_RETENTION_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Objects deleted at the same time within a batch. */
const DELETE_CONCURRENCY = 16;

/**
 * The uploads retention sweep: a scheduled queue job that deletes uploaded photos (object and row)
 * that no generation used for UPLOAD_RETENTION_DAYS days. Idempotent: a second run finds nothing.
 */
@Injectable()
export class UploadsRetentionJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('UploadsRetention');

  constructor(
    private readonly repository: PrivacyRepository,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly queue: MessageQueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get retentionDays(): number {
    return this.config.privacy.uploadRetentionDays;
  }

  @OnJob(JobName.UploadsRetentionSweep)
  async handleUploadsRetentionSweep(): Promise<void> {
    const count = await this.sweep();
    if (count > 0)
      this.logger.log(
        { event: 'uploads_retention_sweep', deleted: count, retentionDays: this.retentionDays },
        `Deleted ${plural(count, 'upload')} unused for ${plural(this.retentionDays, 'day')}`,
      );
  }

  /** Deletes every upload neither created nor used since `retentionDays` before `now`, 500 at a time; answers how many. */
  async sweep(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const n = await this.repository.deleteStaleUploadsBatch(cutoff, UPLOADS_RETENTION_BATCH, (uploads) => this.removeFiles(uploads));
      total += n;
      if (n < UPLOADS_RETENTION_BATCH) return total;
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.UploadsRetentionSweep, {}, UPLOADS_RETENTION_EVERY_MS, UPLOADS_RETENTION_SCHEDULE_KEY);
  }

  private async removeFiles(uploads: StaleUpload[]): Promise<void> {
    for (let i = 0; i < uploads.length; i += DELETE_CONCURRENCY) {
      await Promise.all(uploads.slice(i, i + DELETE_CONCURRENCY).map((u) => this.storage.delete(u.storageKey)));
    }
  }
}
