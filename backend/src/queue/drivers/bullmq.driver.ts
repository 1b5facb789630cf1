/**
 * BullMQ driver, on plain `bullmq` classes (Queue, Worker) rather than @nestjs/bullmq: that module
 * registers queues and @Processor classes statically at module-definition time, one processor class
 * per queue, while this port needs one dispatcher for every queue, Workers created only when the
 * process consumes, and full control of close() (stop fetching, bounded wait, then force-close).
 * Wrapping those behaviours through @nestjs/bullmq would cost more code than it saves.
 */
import { Logger } from '@nestjs/common';
import { Queue, WaitingError, Worker, type Job, type JobsOptions, type KeepJobs } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { settlesWithin } from '../../common/concurrency/deadline';
import { JOB_QUEUE, QueueName, type JobName } from '../queue.constants';
import { assertRepeatable, dedupeKey, errorMessage, resolveJobOptions } from './driver-utils';
import type { JobContext, JobDispatcher, JobOptions, NamedQueueCounts, QueueCounts, QueueDriver, QueueHealth } from '../queue.port';

export interface BullMqQueueDriverOptions {
  redisUrl: string;
  /** Prefix of every Redis key (BullMQ's `prefix`, and `${prefix}:heartbeat`). */
  prefix: string;
  /** Jobs run at the same time per queue in this process. */
  concurrency: number;
  /** A queue's own concurrency, where it differs. */
  queueConcurrency?: Partial<Record<QueueName, number>>;
  /** How long close() waits for running jobs before handing them back. */
  shutdownTimeoutMs: number;
  /** How long a worker's job lock lives without renewal (BullMQ `lockDuration`, default 30 000). */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs (BullMQ `stalledInterval`, default 30 000). */
  stalledIntervalMs?: number;
  /** Times a job may stall and be handed back before it fails (BullMQ `maxStalledCount`, default 1). */
  maxStalledCount?: number;
  /** Extra job -> queue routes over JOB_QUEUE (tests use their own job names). */
  jobQueues?: Partial<Record<string, QueueName>>;
}

/** Finished jobs kept for inspection (bull-board), then trimmed. */
const KEEP_COMPLETED: KeepJobs = { age: 24 * 3600, count: 1000 };
const KEEP_FAILED: KeepJobs = { age: 14 * 24 * 3600, count: 5000 };
/** Each run of a repeatable job is a new job: keep only the recent ones. */
const KEEP_SCHEDULED: KeepJobs = { count: 50 };
const HEARTBEAT_TTL_SECONDS = 7 * 24 * 3600;
const CHECK_TIMEOUT_MS = 2000;
/** How long an add or a count may wait on a Redis that answers slowly before it fails (503). */
const OPERATION_TIMEOUT_MS = 3000;

/** Redis cannot be reached: the operation fails at once instead of waiting for it (BullMQ would wait forever). */
export class QueueUnavailableError extends Error {
  constructor(what: string) {
    super(`the queue is unavailable (Redis does not answer): ${what} refused`);
    this.name = 'QueueUnavailableError';
  }
}

export class BullMqQueueDriver implements QueueDriver {
  readonly kind = 'bullmq' as const;
  private readonly logger = new Logger(BullMqQueueDriver.name);
  /** Producer connection: Queues, heartbeat key, health ping. Fails requests after a few retries. */
  private readonly connection: Redis;
  /** Worker connection (maxRetriesPerRequest: null, as BullMQ requires); created by startConsuming. */
  private workerConnection?: Redis;
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workers: Worker[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private state: 'open' | 'closing' | 'closed' = 'open';
  private closing?: Promise<void>;
  private lastConnectionError?: string;
  /** the producer connection failed or closed and has not been ready since (a first connect still under way is not "away") */
  private producerAway = false;
  /** schedules asked for while Redis was away: set up when it answers */
  private readonly pendingSchedules = new Map<string, () => Promise<void>>();

  constructor(private readonly options: BullMqQueueDriverOptions) {
    if (!options.redisUrl) throw new Error('BullMqQueueDriver: redisUrl is required');
    if (!options.prefix || options.prefix.includes(':'))
      throw new Error(`BullMqQueueDriver: prefix must be non-empty without ':', got "${options.prefix}"`);
    this.connection = this.connect('producer', { maxRetriesPerRequest: 3 });
    this.connection.on('ready', () => {
      this.producerAway = false;
      void this.flushSchedules();
    });
    this.connection.on('error', () => (this.producerAway = true));
    this.connection.on('close', () => (this.producerAway = true));
    for (const name of Object.values(QueueName)) {
      const queue = new Queue(name, {
        connection: this.connection,
        prefix: options.prefix,
        defaultJobOptions: { removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED },
      });
      queue.on('error', (err) => this.logger.error(`Queue ${name}: ${errorMessage(err)}`));
      this.queues.set(name, queue);
    }
  }

  async add(name: JobName, data: unknown, opts?: JobOptions): Promise<void> {
    this.assertOpen('add');
    const o = resolveJobOptions(opts);
    const jobOpts: JobsOptions = {
      delay: o.delayMs,
      attempts: o.attempts,
      backoff: { type: 'exponential', delay: o.backoffMs },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    };
    // Our jobId is NOT BullMQ's jobId. A BullMQ jobId blocks every later add with the same id for as
    // long as the finished job is retained (KEEP_COMPLETED / KEEP_FAILED), and must avoid ':' and
    // plain integers. BullMQ's deduplication id has exactly the port's meaning: it blocks while the
    // job is waiting, delayed (retries included) or active, and is released atomically when the job
    // completes or finally fails. It is free text (it only ends a Redis key), and BullMQ picks the
    // job's own id itself, so none of the jobId pitfalls apply.
    if (o.jobId !== undefined) jobOpts.deduplication = { id: dedupeKey(name, o.jobId) };
    await this.whileReachable(`add ${name}`, () => this.queueFor(name).add(name, data ?? {}, jobOpts));
  }

  async removePending(name: JobName, jobId: string): Promise<boolean> {
    this.assertOpen('removePending');
    const queue = this.queueFor(name);
    return this.whileReachable(`remove ${name}`, async () => {
      // the deduplication key names the job until it completes or finally fails (see add)
      const id = await queue.getDeduplicationJobId(dedupeKey(name, jobId));
      if (!id) return false;
      // BullMQ removes a job with its deduplication key, and refuses (0) a job that is locked: running
      return (await queue.remove(id)) === 1;
    });
  }

  async addRepeatable(name: JobName, data: unknown, everyMs: number, key: string): Promise<void> {
    this.assertOpen('addRepeatable');
    assertRepeatable(everyMs, key);
    // Upsert by scheduler id: a restart or a second process replaces the pending run, never adds one.
    const schedule = async () => {
      await this.queueFor(name).upsertJobScheduler(
        key,
        { every: everyMs },
        { name, data: data ?? {}, opts: { attempts: 1, removeOnComplete: KEEP_SCHEDULED, removeOnFail: KEEP_SCHEDULED } },
      );
    };
    if (this.connection.status !== 'ready') {
      // Redis is away (the process may start without it): the schedule is set up when it answers
      this.pendingSchedules.set(key, schedule);
      return;
    }
    await schedule();
  }

  private async flushSchedules(): Promise<void> {
    for (const [key, schedule] of [...this.pendingSchedules]) {
      try {
        await schedule();
        this.pendingSchedules.delete(key);
        this.logger.log(`Scheduled ${key} now that Redis answers`);
      } catch (err) {
        this.logger.warn(`Could not schedule ${key} yet: ${errorMessage(err)}`);
      }
    }
  }

  /**
   * Runs a Redis operation only while Redis is reachable, and for at most OPERATION_TIMEOUT_MS:
   * BullMQ waits for a connection forever, which left a request hanging for as long as Redis was away.
   * Known to be away: refused at once. The first connection still being made: given the same bound.
   */
  private async whileReachable<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (this.connection.status !== 'ready' && (this.producerAway || this.connection.status === 'end'))
      throw new QueueUnavailableError(what);
    const run = work();
    run.catch(() => undefined);
    if (!(await settlesWithin(run, OPERATION_TIMEOUT_MS)))
      throw new QueueUnavailableError(`${what} (no answer within ${OPERATION_TIMEOUT_MS} ms)`);
    return run;
  }

  async startConsuming(dispatch: JobDispatcher): Promise<void> {
    this.assertOpen('startConsuming');
    if (this.workerConnection) throw new Error('BullMqQueueDriver: already consuming');
    this.workerConnection = this.connect('worker', { maxRetriesPerRequest: null });
    for (const name of Object.values(QueueName)) {
      const worker = new Worker(name, (job: Job, token?: string) => this.process(job, token, dispatch), {
        connection: this.workerConnection,
        prefix: this.options.prefix,
        concurrency: this.options.queueConcurrency?.[name] ?? this.options.concurrency,
        // Only the values given: BullMQ merges with Object.assign, so an undefined would erase its default.
        ...definedOnly({
          lockDuration: this.options.lockDurationMs,
          stalledInterval: this.options.stalledIntervalMs,
          maxStalledCount: this.options.maxStalledCount,
        }),
      });
      worker.on('error', (err) => this.logger.error(`Worker ${name}: ${errorMessage(err)}`));
      worker.on('stalled', (jobId) =>
        this.logger.warn(`Job ${jobId} on ${name} stalled (its worker died or was force-closed): moved back to wait`),
      );
      this.workers.push(worker);
    }
    // Not awaited: a process must start and serve while Redis is away; the workers connect (and
    // begin fetching jobs) whenever Redis answers.
    void Promise.all(this.workers.map((w) => w.waitUntilReady()))
      .then(() => this.logger.log('Workers connected to Redis'))
      .catch((err) => this.logger.warn(`Workers not connected yet: ${errorMessage(err)}`));
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  async check(): Promise<QueueHealth> {
    if (this.state !== 'open') return { ok: false, detail: `bullmq: driver ${this.state}` };
    try {
      const pong = this.connection.ping();
      pong.catch(() => undefined);
      const answered = await settlesWithin(pong, CHECK_TIMEOUT_MS);
      if (!answered)
        return { ok: false, detail: `bullmq: Redis did not answer PING within ${CHECK_TIMEOUT_MS} ms (${this.connection.status})` };
      await pong;
      return { ok: true, detail: 'bullmq: Redis answers' };
    } catch (err) {
      return { ok: false, detail: `bullmq: ${errorMessage(err)}` };
    }
  }

  async counts(): Promise<QueueCounts> {
    const totals: QueueCounts = { waiting: 0, active: 0, delayed: 0, failed: 0 };
    for (const queue of this.queues.values()) {
      const c = await this.whileReachable('counts', () => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'));
      totals.waiting += (c.waiting ?? 0) + (c.prioritized ?? 0);
      totals.active += c.active ?? 0;
      totals.delayed += c.delayed ?? 0;
      totals.failed += c.failed ?? 0;
    }
    return totals;
  }

  async countsByQueue(): Promise<NamedQueueCounts[]> {
    const out: NamedQueueCounts[] = [];
    for (const [name, queue] of this.queues) {
      const c = await this.whileReachable('counts', () =>
        queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'),
      );
      out.push({
        name,
        counts: {
          waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
          completed: c.completed ?? 0,
        },
      });
    }
    return out;
  }

  async oldestWaitingSeconds(now = Date.now()): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const [name, queue] of this.queues) {
      // getWaiting lists the oldest first; a delayed job waits from the end of its delay
      const [oldest] = await this.whileReachable('oldest waiting job', () => queue.getWaiting(0, 0));
      out[name] = oldest ? Math.max(0, (now - oldest.timestamp - (oldest.delay ?? 0)) / 1000) : 0;
    }
    return out;
  }

  /** The BullMQ queues themselves, for the admin's Bull Board (not part of the port: BullMQ only). */
  bullQueues(): Queue[] {
    return [...this.queues.values()];
  }

  async recordHeartbeat(at: Date): Promise<void> {
    await this.whileReachable('heartbeat', () => this.connection.set(this.heartbeatKey, at.toISOString(), 'EX', HEARTBEAT_TTL_SECONDS));
  }

  async lastHeartbeat(): Promise<Date | null> {
    const value = await this.whileReachable('heartbeat', () => this.connection.get(this.heartbeatKey));
    return value ? new Date(value) : null;
  }

  private get heartbeatKey(): string {
    return `${this.options.prefix}:heartbeat`;
  }

  private assertOpen(what: string): void {
    if (this.state !== 'open') throw new Error(`Queue is ${this.state}: ${what} refused`);
  }

  private queueFor(name: JobName): Queue {
    const queueName = this.options.jobQueues?.[name] ?? (JOB_QUEUE as Partial<Record<string, QueueName>>)[name];
    const queue = queueName && this.queues.get(queueName);
    if (!queue) throw new Error(`No queue for job "${name}": add it to JOB_QUEUE`);
    return queue;
  }

  private async process(job: Job, token: string | undefined, dispatch: JobDispatcher): Promise<void> {
    if (this.state !== 'open') {
      // Fetched in the instant between close() and the worker noticing it: put it straight back.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const ctx: JobContext = {
      jobId: job.id ?? '?',
      attempt: job.attemptsMade + 1,
      maxAttempts: job.opts.attempts ?? 1,
      name: job.name as JobName,
    };
    const run = dispatch(job.name as JobName, job.data, ctx);
    const tracked = run.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(tracked);
    try {
      await run;
    } finally {
      this.inFlight.delete(tracked);
    }
  }

  private async shutdown(): Promise<void> {
    this.state = 'closing';
    // 1. Stop fetching (local to this process; other workers keep going).
    await Promise.all(this.workers.map((w) => w.pause(true).catch((err) => this.logger.warn(`pause: ${errorMessage(err)}`))));
    // 2. Let running jobs finish, up to the timeout.
    let finished = true;
    if (this.inFlight.size > 0) {
      this.logger.log(`Shutting down: waiting up to ${this.options.shutdownTimeoutMs} ms for ${this.inFlight.size} running job(s)`);
      finished = await settlesWithin(Promise.all([...this.inFlight]), this.options.shutdownTimeoutMs);
    }
    // 3. Close. Forced when jobs still run: their locks stop being renewed, so after lockDuration
    //    another worker's stalled check moves them back to wait and runs them again.
    if (!finished) {
      this.logger.warn(
        `Shutdown timeout: handing back ${this.inFlight.size} running job(s); another worker will pick them up once their lock expires`,
      );
    }
    await Promise.all(this.workers.map((w) => w.close(!finished).catch((err) => this.logger.warn(`worker close: ${errorMessage(err)}`))));
    await Promise.all(
      [...this.queues.values()].map((q) => q.close().catch((err) => this.logger.warn(`queue close: ${errorMessage(err)}`))),
    );
    await Promise.all(
      [this.connection, this.workerConnection]
        .filter((c): c is Redis => c !== undefined)
        .map((c) => (finished ? c.quit().then(() => undefined) : Promise.resolve(c.disconnect())).catch(() => c.disconnect())),
    );
    this.state = 'closed';
  }

  private connect(role: 'producer' | 'worker', extra: Partial<RedisOptions>): Redis {
    const connection = new Redis(this.options.redisUrl, { connectionName: `${this.options.prefix}-${role}`, ...extra });
    connection.on('error', (err: Error) => {
      // ioredis retries forever and reports every failed try: log each distinct error once.
      if (err.message === this.lastConnectionError) return;
      this.lastConnectionError = err.message;
      this.logger.error(`Redis (${role}): ${err.message}`);
    });
    connection.on('ready', () => {
      if (this.lastConnectionError) this.logger.log(`Redis (${role}): connected again`);
      this.lastConnectionError = undefined;
    });
    return connection;
  }
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
