import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MessageQueueService } from './message-queue.service';
import { OnJob } from './on-job.decorator';
import {
  HEARTBEAT_EVERY_MS,
  HEARTBEAT_SCHEDULE_KEY,
  JobName,
  QUEUE_DRIVER,
  QUEUE_MODULE_OPTIONS,
  type JobPayload,
} from './queue.constants';
import type { QueueModuleOptions } from './queue-module.options';
import type { QueueDriver } from './queue.port';

/**
 * Proves that jobs run: a consumer schedules this job every minute, and each run records its time
 * where every process can read it (Redis with BullMQ), so the API's health check can tell that
 * some worker is alive even when the API itself runs no jobs.
 */
@Injectable()
export class QueueHeartbeatService implements OnApplicationBootstrap {
  constructor(
    private readonly queue: MessageQueueService,
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    @Inject(QUEUE_MODULE_OPTIONS) private readonly options: QueueModuleOptions,
  ) {}

  @OnJob(JobName.MaintenanceHeartbeat)
  async handleHeartbeat(_data: JobPayload<JobName.MaintenanceHeartbeat>): Promise<void> {
    await this.driver.recordHeartbeat(new Date());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.consume) return;
    await this.queue.addRepeatable(
      JobName.MaintenanceHeartbeat,
      {},
      this.options.heartbeatEveryMs ?? HEARTBEAT_EVERY_MS,
      HEARTBEAT_SCHEDULE_KEY,
    );
  }

  /** Time of the last heartbeat run by any consumer, or null when none is known. */
  lastHeartbeat(): Promise<Date | null> {
    return this.driver.lastHeartbeat();
  }
}
