import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { BullMqQueueDriver } from './drivers/bullmq.driver';
import { errorMessage } from './drivers/driver-utils';
import { JobRegistry } from './job-registry';
import { QUEUE_DRIVER, QUEUE_MODULE_OPTIONS, type JobName, type JobPayload } from './queue.constants';
import type { QueueModuleOptions } from './queue-module.options';
import type { JobContext, JobDispatcher, JobOptions, NamedQueueCounts, QueueCounts, QueueDriver } from './queue.port';
import type { Queue } from 'bullmq';

export interface QueueCheck {
  ok: boolean;
  detail?: string;
  /** ISO time of the last heartbeat job run, when known. */
  lastHeartbeatAt?: string;
}

/**
 * The queue as the rest of the app sees it. When this process consumes, it starts the driver on
 * application bootstrap (after JobRegistry has found the handlers) and closes it gracefully on
 * shutdown (`app.enableShutdownHooks()` makes Nest do that on SIGTERM).
 */
@Injectable()
export class MessageQueueService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MessageQueueService.name);

  constructor(
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    @Inject(QUEUE_MODULE_OPTIONS) private readonly options: QueueModuleOptions,
    private readonly registry: JobRegistry,
  ) {}

  get kind(): QueueDriver['kind'] {
    return this.driver.kind;
  }

  /** Whether this process runs jobs (schedulers register their repeatable jobs only then). */
  get consuming(): boolean {
    return this.options.consume;
  }

  add<N extends JobName>(name: N, data: JobPayload<N>, opts?: JobOptions): Promise<void> {
    return this.driver.add(name, data, opts);
  }

  /** Removes a job that has not started yet, by the jobId it was added with (QueueDriver.removePending). */
  removePending(name: JobName, jobId: string): Promise<boolean> {
    return this.driver.removePending(name, jobId);
  }

  addRepeatable<N extends JobName>(name: N, data: JobPayload<N>, everyMs: number, key: string): Promise<void> {
    return this.driver.addRepeatable(name, data, everyMs, key);
  }

  counts(): Promise<QueueCounts> {
    return this.driver.counts();
  }

  countsByQueue(): Promise<NamedQueueCounts[]> {
    return this.driver.countsByQueue();
  }

  /** BullMQ's queues (for the admin's Bull Board), or null with the in-process driver. */
  bullQueues(): Queue[] | null {
    return this.driver instanceof BullMqQueueDriver ? this.driver.bullQueues() : null;
  }

  /** Health of the queue; `detail` names the last heartbeat when one is known. */
  async check(): Promise<QueueCheck> {
    const health = await this.driver.check();
    let last: Date | null = null;
    if (health.ok) {
      try {
        last = await this.driver.lastHeartbeat();
      } catch (err) {
        this.logger.warn(`Could not read the last heartbeat: ${errorMessage(err)}`);
      }
    }
    if (!last) return health;
    const ageSeconds = Math.max(0, Math.round((Date.now() - last.getTime()) / 1000));
    const beat = `last heartbeat ${last.toISOString()} (${ageSeconds} s ago)`;
    return { ...health, detail: health.detail ? `${health.detail}; ${beat}` : beat, lastHeartbeatAt: last.toISOString() };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.consume) {
      if (this.driver.kind === 'in-process') this.logger.warn('In-process queue without consume: jobs added here will never run');
      return;
    }
    await this.driver.startConsuming(this.dispatch);
    this.logger.log(`Consuming jobs (${this.driver.kind}, concurrency ${this.options.concurrency})`);
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.logger.log(`Closing the queue${signal ? ` (${signal})` : ''}`);
    await this.driver.close();
  }

  private readonly dispatch: JobDispatcher = async (name: JobName, data: unknown, ctx: JobContext) => {
    const handler = this.registry.get(name);
    if (!handler) throw new Error(`No handler for job "${name}" in this process`);
    const started = Date.now();
    try {
      await handler.handle(data, ctx);
      this.logger.debug(`Job ${name} (${ctx.jobId}) done on attempt ${ctx.attempt} in ${Date.now() - started} ms`);
    } catch (err) {
      const final = ctx.attempt >= ctx.maxAttempts;
      const message = `Job ${name} (${ctx.jobId}) failed on attempt ${ctx.attempt}/${ctx.maxAttempts}${final ? ', no retry left' : ', will retry'}: ${errorMessage(err)}`;
      if (final) this.logger.error(message, err instanceof Error ? err.stack : undefined);
      else this.logger.warn(message);
      throw err;
    }
  };
}
