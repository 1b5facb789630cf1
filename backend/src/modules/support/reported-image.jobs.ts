import { plural } from '@fitting-room/shared/wording';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { IMAGE_WORK_GATE, type WorkGate } from '../../common/concurrency';
import { NotFoundError } from '../../common/errors';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { GenerationsRepository } from '../generations/generations.repository';
import { firstFrame } from '../generations/rendering/ffmpeg';
import { resultSignature, SIGNATURE_VERSION } from '../generations/rendering/result-signature';
import { ACCOUNT_DELETING_EVENT } from '../privacy/account-deletion.service';
import { SupportRepository } from './support.repository';

/** How often the kept copies of resolved reports are looked at, and the key of that schedule. */
export const REPORTED_IMAGES_SWEEP_EVERY_MS = 6 * 60 * 60 * 1000;
export const REPORTED_IMAGES_SWEEP_KEY = 'support-reported-images-sweep';
/** How often results without a picture signature are looked for, and the key of that schedule. */
export const SIGNATURE_SWEEP_EVERY_MS = 10 * 60 * 1000;
export const SIGNATURE_SWEEP_KEY = 'support-signature-sweep';
/** Results signed per run of the signature sweep, at most (50 at a time). */
export const SIGNATURE_SWEEP_LIMIT = 2000;
const SIGNATURE_BATCH = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What keeps "Report an image" working and private over time:
 * - the retention sweep deletes each kept copy REPORTED_IMAGE_RETENTION_DAYS after its ticket was
 *   resolved (a ticket reopened meanwhile keeps it; an open one always does);
 * - "Delete All My Data" deletes the copies of the reports the account sent (signed in, or from its
 *   address), before its rows go;
 * - the signature sweep computes the picture signature of results stored without one (before
 *   signatures existed, or when saving one failed), from their files.
 */
@Injectable()
export class ReportedImageJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger('ReportedImages');

  constructor(
    private readonly repo: SupportRepository,
    private readonly generations: GenerationsRepository,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly queue: MessageQueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(IMAGE_WORK_GATE) private readonly imageWork: WorkGate,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.SupportReportedImagesSweep, {}, REPORTED_IMAGES_SWEEP_EVERY_MS, REPORTED_IMAGES_SWEEP_KEY);
    await this.queue.addRepeatable(JobName.SupportSignatureSweep, {}, SIGNATURE_SWEEP_EVERY_MS, SIGNATURE_SWEEP_KEY);
  }

  @OnJob(JobName.SupportReportedImagesSweep)
  async handleReportedImagesSweep(): Promise<void> {
    const count = await this.sweepReportedImages();
    if (count > 0)
      this.logger.log(
        { event: 'reported_images_sweep', deleted: count, retentionDays: this.config.reports.copyRetentionDays },
        `Deleted ${plural(count, 'reported copy', 'reported copies')} of tickets resolved ${plural(this.config.reports.copyRetentionDays, 'day')} ago`,
      );
  }

  /** Deletes the copies of reports resolved more than the retention before `now`; answers how many. */
  async sweepReportedImages(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.reports.copyRetentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const due = await this.repo.reportedImagesResolvedBefore(cutoff, 200);
      for (const copy of due) await this.forget(copy);
      total += due.length;
      if (due.length < 200) return total;
    }
  }

  /** "Delete All My Data": the copies the account's reports uploaded go with it (awaited before its rows go). */
  @OnEvent(ACCOUNT_DELETING_EVENT, { promisify: true })
  async onAccountDeleting(event: { userId: string }): Promise<void> {
    const copies = await this.repo.reportedImagesSentBy(event.userId);
    for (const copy of copies) await this.forget(copy);
    if (copies.length)
      this.logger.log({ event: 'reported_images_deleted', count: copies.length }, "copies of a deleted account's reports deleted");
  }

  @OnJob(JobName.SupportSignatureSweep)
  async handleSignatureSweep(): Promise<void> {
    const { signed, unreadable } = await this.sweepSignatures();
    if (signed + unreadable > 0)
      this.logger.log({ event: 'signature_sweep', signed, unreadable }, `Signed ${plural(signed, 'result')} (${unreadable} unreadable)`);
  }

  /**
   * Computes the missing picture signatures, up to SIGNATURE_SWEEP_LIMIT a run, oldest results first.
   * A result whose file is gone or is no picture gets an empty signature (not tried again); a storage
   * that does not answer ends the run (the next one tries again).
   */
  async sweepSignatures(limit = SIGNATURE_SWEEP_LIMIT): Promise<{ signed: number; unreadable: number }> {
    let signed = 0;
    let unreadable = 0;
    while (signed + unreadable < limit) {
      const batch = await this.generations.resultsWithoutSignature(
        SIGNATURE_VERSION,
        Math.min(SIGNATURE_BATCH, limit - signed - unreadable),
      );
      for (const result of batch) {
        let body: Buffer;
        try {
          body = (await this.storage.get(result.resultKey)).body;
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          await this.generations.saveResultSignature(result.id, Buffer.alloc(0), SIGNATURE_VERSION);
          unreadable++;
          continue;
        }
        // a busy gate (503) ends the run like a storage that does not answer; only a picture that cannot be read is marked
        const signature = await this.imageWork.run(async () => {
          try {
            return await resultSignature(result.type === 'video' ? await firstFrame(body) : body);
          } catch (error) {
            this.logger.warn({ event: 'signature_unreadable', generation: result.id, err: error }, 'a stored result could not be signed');
            return Buffer.alloc(0);
          }
        });
        await this.generations.saveResultSignature(result.id, signature, SIGNATURE_VERSION);
        if (signature.length) signed++;
        else unreadable++;
      }
      if (batch.length < SIGNATURE_BATCH) break;
    }
    return { signed, unreadable };
  }

  private async forget(copy: { id: string; key: string }): Promise<void> {
    await this.storage.delete(copy.key); // a missing object is not an error: a retry is safe
    await this.repo.forgetReportedImage(copy.id);
  }
}
