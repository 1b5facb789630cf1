import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { OpsEvents } from '../../common/ops-events';
import { JobName, MessageQueueService, OnJob, type JobPayload } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { OutboxService } from '../mail/outbox.service';
import { userIdHash } from './personal-text';
import { type DeletedAccount, PrivacyRepository } from './privacy.repository';

/** Everything an account stored (photos, results) is under this prefix. */
export function accountFilesPrefix(userId: string): string {
  return `users/${userId}/`;
}

export { userIdHash } from './personal-text';

/**
 * Emitted (and awaited) before an account's rows go, with `{ userId }`: what lives outside the
 * database is ended while it can still be found (the billing module cancels Stripe subscriptions).
 */
export const ACCOUNT_DELETING_EVENT = 'account.deleting';

/** The retry of a failed file deletion: many attempts, minutes apart (1, 2, 4 ... 128 minutes). */
export const ACCOUNT_FILES_CLEANUP_OPTIONS = { attempts: 8, backoffMs: 60_000 } as const;

/**
 * "Delete All My Data" (DELETE /api/me): the personal rows go in one transaction, then the files,
 * then the mail the outbox kept for the person (no SMTP). A failed file deletion never undoes the
 * account deletion: it is logged and handed to a queue job that retries (AccountFilesCleanup).
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger('AccountDeletion');

  constructor(
    private readonly repository: PrivacyRepository,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly queue: MessageQueueService,
    /** who else hears of a deletion (the admin notifications, with the pseudonym only); absent in unit tests */
    @Optional() private readonly ops?: OpsEvents,
    @Optional() private readonly events?: EventEmitter2,
    /** the outbox's mail (Mailer.outbox); absent in unit tests */
    @Optional() private readonly outbox?: OutboxService,
  ) {}

  /**
   * `notify: false` for removals the system makes itself (an unverified account whose address its
   * owner proved): no admin notification for those.
   */
  async deleteAccount(userId: string, options: { notify?: boolean } = {}): Promise<void> {
    const account = userIdHash(userId);
    await this.events?.emitAsync(ACCOUNT_DELETING_EVENT, { userId });
    const deleted = await this.repository.deleteAccountRows(userId);
    const existed = deleted !== null;
    let files: number | null = null;
    try {
      files = await this.storage.deletePrefix(accountFilesPrefix(userId));
    } catch (error) {
      this.logger.warn(
        { event: 'account_files_delete_failed', account, err: error },
        'could not delete the files of a deleted account: a cleanup job will retry',
      );
      await this.enqueueCleanup(userId, account);
    }
    const mail = deleted ? await this.forgetMail(userId, deleted, account) : null;
    this.logger.log({ event: 'account_deleted', account, existed, files, mail }, 'account deleted');
    if (existed && options.notify !== false) await this.ops?.emit({ type: 'account.deleted', account });
  }

  @OnJob(JobName.AccountFilesCleanup)
  async handleAccountFilesCleanup(data: JobPayload<JobName.AccountFilesCleanup>): Promise<void> {
    const files = await this.storage.deletePrefix(accountFilesPrefix(data.userId));
    this.logger.log({ event: 'account_files_deleted', account: userIdHash(data.userId), files }, 'files of a deleted account removed');
  }

  /**
   * The outbox's messages for the person: those written for the account, and every message to or
   * naming the address when the mailbox was theirs (they had verified it, or nobody else uses it).
   * When another account still uses the address (an unverified one removed because the owner
   * proved it), the owner's mail stays. A failure is logged: the account is gone either way.
   */
  private async forgetMail(userId: string, deleted: DeletedAccount, account: string): Promise<number | null> {
    if (!this.outbox) return null;
    try {
      return await this.outbox.forget({ userId, email: deleted.email, wholeAddress: deleted.verified || !deleted.addressInUse });
    } catch (error) {
      this.logger.error(
        { event: 'account_mail_delete_failed', account, err: error },
        'could not delete the outbox mail of a deleted account',
      );
      return null;
    }
  }

  private async enqueueCleanup(userId: string, account: string): Promise<void> {
    try {
      await this.queue.add(JobName.AccountFilesCleanup, { userId }, { ...ACCOUNT_FILES_CLEANUP_OPTIONS, jobId: `account-files-${userId}` });
    } catch (error) {
      // the rows are gone either way; say loudly that files remain (the hash is what to look for)
      this.logger.error(
        { event: 'account_files_cleanup_not_queued', account, err: error },
        'files of a deleted account remain and no cleanup job could be queued',
      );
    }
  }
}
