import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { CreditsService } from './credits.service';

/** How often consumers look for accounts due for their monthly reset. */
export const CREDITS_RESET_EVERY_MS = 60 * 60 * 1000;

/** The monthly credit reset as a scheduled queue job (idempotent: a second run finds nothing due). */
@Injectable()
export class CreditsResetJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('CreditsReset');

  constructor(
    private readonly credits: CreditsService,
    private readonly queue: MessageQueueService,
  ) {}

  @OnJob(JobName.CreditsMonthlyReset)
  async handleMonthlyReset(): Promise<void> {
    const count = await this.credits.resetDueAccounts();
    if (count > 0) this.logger.log(`Monthly credits reset for ${count} account(s)`);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.CreditsMonthlyReset, {}, CREDITS_RESET_EVERY_MS, 'credits-monthly-reset');
  }
}
