import { Global, Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 5000;

/** Deletes the keys older than 24 hours, every hour (a key past its window is never used again anyway). */
@Injectable()
export class IdempotencySweepJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly repo: IdempotencyRepository,
    private readonly queue: MessageQueueService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.IdempotencyKeysSweep, {}, SWEEP_EVERY_MS, 'idempotency-keys-sweep');
  }

  @OnJob(JobName.IdempotencyKeysSweep)
  async sweep(): Promise<void> {
    let total = 0;
    for (;;) {
      const n = await this.repo.deleteExpired(SWEEP_BATCH);
      total += n;
      if (n < SWEEP_BATCH) break;
    }
    if (total) this.logger.log({ event: 'idempotency_keys_deleted', count: total }, 'expired idempotency keys deleted');
  }
}

/** Idempotent requests (`Idempotency-Key`, @Idempotent()): global, so that any controller's route may take one. */
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor, IdempotencySweepJob],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
