import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { Metrics } from '../common/observability/metrics.service';
import { contextFrom, inSpan, JOB_TRACE_FIELD, SpanKind, traceCarrier, tracingEnabled } from '../common/observability/tracing';
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
export class MessageQueueService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MessageQueueService.name);

  constructor(
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    @Inject(QUEUE_MODULE_OPTIONS) private readonly options: QueueModuleOptions,
    private readonly registry: JobRegistry,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    // each scrape reads the queues' depth and the age of their oldest waiting job
    this.metrics?.observeQueue(async () => {
      const [counts, oldest] = await Promise.all([this.driver.countsByQueue(), this.driver.oldestWaitingSeconds()]);
      return counts.map(({ name, counts: c }) => ({ queue: name, ...c, oldestWaitingSeconds: oldest[name] ?? 0 }));
    });
  }

  get kind(): QueueDriver['kind'] {
    return this.driver.kind;
  }

  /** Whether this process runs jobs (schedulers register their repeatable jobs only then). */
  get consuming(): boolean {
    return this.options.consume;
  }

  /**
   * Adds a job. With tracing on, its data carries the trace context of the caller (`_trace`), so
   * the worker that runs it continues the same trace; the handler never sees that field.
   */
  add<N extends JobName>(name: N, data: JobPayload<N>, opts?: JobOptions): Promise<void> {
    if (tracingEnabled() && data && typeof data === 'object') {
      const carrier = traceCarrier();
      if (carrier.traceparent) return this.driver.add(name, { ...data, [JOB_TRACE_FIELD]: carrier }, opts);
    }
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
    const { payload, carrier } = withoutTrace(data);
    const started = Date.now();
    const seconds = () => (Date.now() - started) / 1000;
    // the lines logged here belong to the job's span too (its trace id in them, logging.module.ts)
    await inSpan(
      `job ${name}`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(carrier),
        attributes: {
          'messaging.system': this.driver.kind,
          'messaging.operation.name': 'process',
          'fitting_room.job': name,
          'fitting_room.attempt': ctx.attempt,
        },
      },
      async () => {
        try {
          await handler.handle(payload, ctx);
        } catch (err) {
          const final = ctx.attempt >= ctx.maxAttempts;
          this.metrics?.jobEnded(name, final ? 'failed' : 'retry', seconds());
          const message = `Job ${name} (${ctx.jobId}) failed on attempt ${ctx.attempt}/${ctx.maxAttempts}${final ? ', no retry left' : ', will retry'}: ${errorMessage(err)}`;
          if (final) this.logger.error(message, err instanceof Error ? err.stack : undefined);
          else this.logger.warn(message);
          throw err;
        }
        this.metrics?.jobEnded(name, 'completed', seconds());
        this.logger.debug(`Job ${name} (${ctx.jobId}) done on attempt ${ctx.attempt} in ${Date.now() - started} ms`);
      },
    );
  };
}

/** A job's data without the trace context MessageQueueService.add put in it, and that context. */
function withoutTrace(data: unknown): { payload: unknown; carrier?: Record<string, unknown> } {
  if (!data || typeof data !== 'object' || !(JOB_TRACE_FIELD in data)) return { payload: data };
  const { [JOB_TRACE_FIELD]: carrier, ...payload } = data as Record<string, unknown>;
  return { payload, carrier: carrier && typeof carrier === 'object' ? (carrier as Record<string, unknown>) : undefined };
}
