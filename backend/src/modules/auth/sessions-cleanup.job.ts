import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { AuthRepository } from './auth.repository';
import { SessionsRepository } from './sessions.repository';

/** How often consumers delete ended sessions, and the key of that schedule. */
export const SESSIONS_CLEANUP_EVERY_MS = 24 * 60 * 60 * 1000;
export const SESSIONS_CLEANUP_SCHEDULE_KEY = 'sessions-cleanup';
/**
 * How long an ended session (expired or revoked) is kept: long enough to look into a refresh-token
 * reuse or a support question about a sign-in, short enough that the table does not grow forever.
 */
export const SESSIONS_RETENTION_DAYS = 30;
/** Rows deleted per statement, so that a large backlog never holds one long lock. */
export const SESSIONS_CLEANUP_BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes sessions that ended more than SESSIONS_RETENTION_DAYS ago: past their absolute expiry, or
 * revoked (sign-out, refresh-token reuse). A live session is never touched. Idempotent.
 */
@Injectable()
export class SessionsCleanupJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('SessionsCleanup');

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly tokens: AuthRepository,
    private readonly queue: MessageQueueService,
  ) {}

  @OnJob(JobName.SessionsCleanup)
  async handleSessionsCleanup(): Promise<void> {
    const deleted = await this.sweep();
    // ended one-time tokens (links, sign-in challenges) go with the sessions
    const tokens = await this.tokens.deleteEndedTokens();
    if (tokens > 0) this.logger.log({ event: 'auth_tokens_cleanup', deleted: tokens }, `Deleted ${tokens} ended one-time token(s)`);
    if (deleted > 0)
      this.logger.log(
        { event: 'sessions_cleanup', deleted, retentionDays: SESSIONS_RETENTION_DAYS },
        `Deleted ${deleted} ended session(s)`,
      );
  }

  /** Deletes the sessions that ended before `now` minus the retention; answers how many. */
  async sweep(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - SESSIONS_RETENTION_DAYS * DAY_MS);
    let total = 0;
    for (;;) {
      const deleted = await this.sessions.deleteEndedBefore(cutoff, SESSIONS_CLEANUP_BATCH);
      total += deleted;
      if (deleted < SESSIONS_CLEANUP_BATCH) return total;
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.SessionsCleanup, {}, SESSIONS_CLEANUP_EVERY_MS, SESSIONS_CLEANUP_SCHEDULE_KEY);
  }
}
