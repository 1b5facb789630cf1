import { BullMqQueueDriver } from './drivers/bullmq.driver';
import { InProcessQueueDriver } from './drivers/in-process.driver';
import type { QueueModuleOptions } from './queue-module.options';
import type { QueueDriver } from './queue.port';

/** Builds the driver QueueModule.forRoot asked for. */
export function createQueueDriver(options: QueueModuleOptions): QueueDriver {
  if (options.driver === 'in-process') {
    return new InProcessQueueDriver({
      concurrency: options.concurrency,
      queueConcurrency: options.queueConcurrency,
      shutdownTimeoutMs: options.shutdownTimeoutMs,
    });
  }
  if (!options.redisUrl) throw new Error("QueueModule: driver 'bullmq' needs redisUrl");
  return new BullMqQueueDriver({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    concurrency: options.concurrency,
    queueConcurrency: options.queueConcurrency,
    shutdownTimeoutMs: options.shutdownTimeoutMs,
    lockDurationMs: options.bullmq?.lockDurationMs,
    stalledIntervalMs: options.bullmq?.stalledIntervalMs,
    maxStalledCount: options.bullmq?.maxStalledCount,
    jobQueues: options.jobQueues,
  });
}
