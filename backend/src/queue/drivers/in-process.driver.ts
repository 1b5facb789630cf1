import { Logger } from '@nestjs/common';
import { settlesWithin } from '../../common/concurrency/deadline';
import { JOB_QUEUE, QueueName, type JobName } from '../queue.constants';
import { assertRepeatable, backoffDelay, dedupeKey, errorMessage, fromJson, resolveJobOptions, toJson } from './driver-utils';
import type { JobContext, JobDispatcher, JobOptions, NamedQueueCounts, QueueCounts, QueueDriver, QueueHealth } from '../queue.port';

export interface InProcessQueueDriverOptions {
  /** Jobs run at the same time per queue (job names outside JOB_QUEUE share one). */
  concurrency: number;
  /** A queue's own concurrency, where it differs. */
  queueConcurrency?: Partial<Record<QueueName, number>>;
  /** How long close() waits for running jobs. */
  shutdownTimeoutMs: number;
}

interface InProcessJob {
  id: string;
  name: JobName;
  json: string | undefined;
  attemptsMade: number;
  maxAttempts: number;
  backoffMs: number;
  dedupeKey?: string;
  /** when it last joined the waiting line (ms since the epoch) */
  waitingSince?: number;
}

/**
 * Runs jobs inside this process, without Redis (the embedded default). Same contract as the BullMQ
 * driver: concurrency limit, delays, retries with exponential backoff, jobId dedupe, repeatable
 * jobs. Nothing survives a restart: waiting and delayed jobs are lost with the process, so work
 * that must survive (generations) is resumed from Postgres at boot by its owner.
 */
export class InProcessQueueDriver implements QueueDriver {
  readonly kind = 'in-process' as const;
  private readonly logger = new Logger(InProcessQueueDriver.name);
  private dispatch?: JobDispatcher;
  private state: 'open' | 'closing' | 'closed' = 'open';
  private closing?: Promise<void>;
  private seq = 0;
  private failedCount = 0;
  /** finally failed and completed jobs per queue, since the process started */
  private readonly finished = new Map<string, { failed: number; completed: number }>();
  private heartbeatAt: Date | null = null;
  private readonly waiting: InProcessJob[] = [];
  /** Jobs waiting for their delay or their retry backoff. */
  private readonly delayed = new Map<NodeJS.Timeout, InProcessJob>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly runningJobs = new Map<string, InProcessJob>();
  /** running jobs per queue */
  private readonly runningIn = new Map<string, number>();
  /** Dedupe keys of jobs not yet completed or finally failed. */
  private readonly pendingKeys = new Set<string>();
  private readonly schedules = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: InProcessQueueDriverOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new Error(`InProcessQueueDriver: concurrency must be an integer >= 1, got ${options.concurrency}`);
    }
  }

  async add(name: JobName, data: unknown, opts?: JobOptions): Promise<void> {
    this.assertOpen('add');
    const o = resolveJobOptions(opts);
    const key = o.jobId === undefined ? undefined : dedupeKey(name, o.jobId);
    if (key !== undefined && this.pendingKeys.has(key)) {
      this.logger.debug(`Job ${name} with jobId "${o.jobId}" is already pending: not added again`);
      return;
    }
    const job: InProcessJob = {
      id: `ip-${++this.seq}`,
      name,
      json: toJson(data),
      attemptsMade: 0,
      maxAttempts: o.attempts,
      backoffMs: o.backoffMs,
      dedupeKey: key,
    };
    if (key !== undefined) this.pendingKeys.add(key);
    this.schedule(job, o.delayMs);
  }

  async removePending(name: JobName, jobId: string): Promise<boolean> {
    this.assertOpen('removePending');
    const key = dedupeKey(name, jobId);
    if (!this.pendingKeys.has(key)) return false;
    const waitingAt = this.waiting.findIndex((job) => job.dedupeKey === key);
    if (waitingAt >= 0) {
      this.waiting.splice(waitingAt, 1);
    } else {
      const timer = [...this.delayed].find(([, job]) => job.dedupeKey === key)?.[0];
      if (!timer) return false; // running
      clearTimeout(timer);
      this.delayed.delete(timer);
    }
    this.pendingKeys.delete(key);
    return true;
  }

  async addRepeatable(name: JobName, data: unknown, everyMs: number, key: string): Promise<void> {
    this.assertOpen('addRepeatable');
    assertRepeatable(everyMs, key);
    const previous = this.schedules.get(key);
    if (previous) clearInterval(previous);
    // One run at a time per schedule: an iteration still pending swallows the next one.
    const iterate = () => {
      if (this.state !== 'open') return;
      this.add(name, data, { jobId: `schedule-${key}`, attempts: 1 }).catch((err) =>
        this.logger.error(`Schedule "${key}" could not add ${name}: ${errorMessage(err)}`),
      );
    };
    const timer = setInterval(iterate, everyMs);
    timer.unref();
    this.schedules.set(key, timer);
    iterate();
  }

  async startConsuming(dispatch: JobDispatcher): Promise<void> {
    this.assertOpen('startConsuming');
    if (this.dispatch) throw new Error('InProcessQueueDriver: already consuming');
    this.dispatch = dispatch;
    this.pump();
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  async check(): Promise<QueueHealth> {
    const c = await this.counts();
    return {
      ok: this.state === 'open',
      detail: `in-process (${this.state}): ${c.active} active, ${c.waiting} waiting, ${c.delayed} delayed`,
    };
  }

  async counts(): Promise<QueueCounts> {
    return {
      waiting: this.waiting.length,
      active: this.running.size,
      delayed: this.delayed.size,
      failed: this.failedCount,
    };
  }

  async oldestWaitingSeconds(now = Date.now()): Promise<Record<string, number>> {
    const out: Record<string, number> = Object.fromEntries(Object.values(QueueName).map((q) => [q, 0]));
    for (const job of this.waiting) {
      const queue = queueOf(job.name);
      out[queue] = Math.max(out[queue] ?? 0, (now - (job.waitingSince ?? now)) / 1000);
    }
    return out;
  }

  async countsByQueue(): Promise<NamedQueueCounts[]> {
    const names = [...new Set<string>([...Object.values(QueueName), ...this.finished.keys()])];
    const count = (jobs: Iterable<InProcessJob>, name: string) => [...jobs].filter((j) => queueOf(j.name) === name).length;
    return names.map((name) => ({
      name,
      counts: {
        waiting: count(this.waiting, name),
        active: count(this.runningJobs.values(), name),
        delayed: count(this.delayed.values(), name),
        failed: this.finished.get(name)?.failed ?? 0,
        completed: this.finished.get(name)?.completed ?? 0,
      },
    }));
  }

  async recordHeartbeat(at: Date): Promise<void> {
    this.heartbeatAt = at;
  }

  async lastHeartbeat(): Promise<Date | null> {
    return this.heartbeatAt;
  }

  private assertOpen(what: string): void {
    if (this.state !== 'open') throw new Error(`Queue is ${this.state}: ${what} refused`);
  }

  private schedule(job: InProcessJob, delayMs: number): void {
    if (delayMs <= 0) {
      job.waitingSince = Date.now();
      this.waiting.push(job);
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      job.waitingSince = Date.now();
      this.waiting.push(job);
      this.pump();
    }, delayMs);
    this.delayed.set(timer, job);
  }

  private pump(): void {
    // in order, each queue up to its own limit: a full queue does not hold back another's jobs
    for (let i = 0; this.dispatch && this.state === 'open' && i < this.waiting.length;) {
      const queue = queueOf(this.waiting[i].name);
      if ((this.runningIn.get(queue) ?? 0) < (this.options.queueConcurrency?.[queue as QueueName] ?? this.options.concurrency)) {
        this.run(this.waiting.splice(i, 1)[0], this.dispatch);
      } else {
        i++;
      }
    }
  }

  private run(job: InProcessJob, dispatch: JobDispatcher): void {
    const ctx: JobContext = { jobId: job.id, attempt: job.attemptsMade + 1, maxAttempts: job.maxAttempts, name: job.name };
    const queue = queueOf(job.name);
    const execution = (async () => {
      try {
        // Parsed per attempt, as BullMQ does: a handler that mutates its payload does not change the retry's.
        await dispatch(job.name, fromJson(job.json), ctx);
        this.tally(job, 'completed');
        this.settle(job);
      } catch (err) {
        this.onFailure(job, err);
      }
    })().finally(() => {
      this.running.delete(job.id);
      this.runningJobs.delete(job.id);
      this.runningIn.set(queue, (this.runningIn.get(queue) ?? 1) - 1);
      this.pump();
    });
    this.running.set(job.id, execution);
    this.runningJobs.set(job.id, job);
    this.runningIn.set(queue, (this.runningIn.get(queue) ?? 0) + 1);
  }

  private onFailure(job: InProcessJob, err: unknown): void {
    job.attemptsMade += 1;
    if (job.attemptsMade >= job.maxAttempts) {
      this.failedCount += 1;
      this.tally(job, 'failed');
      this.settle(job);
      return;
    }
    if (this.state !== 'open') {
      this.logger.warn(`Job ${job.name} (${job.id}) failed during shutdown: its retry is abandoned (${errorMessage(err)})`);
      this.settle(job);
      return;
    }
    this.schedule(job, backoffDelay(job.backoffMs, job.attemptsMade));
  }

  private tally(job: InProcessJob, outcome: 'failed' | 'completed'): void {
    const name = queueOf(job.name);
    const entry = this.finished.get(name) ?? { failed: 0, completed: 0 };
    entry[outcome] += 1;
    this.finished.set(name, entry);
  }

  private settle(job: InProcessJob): void {
    if (job.dedupeKey !== undefined) this.pendingKeys.delete(job.dedupeKey);
  }

  private async shutdown(): Promise<void> {
    this.state = 'closing';
    for (const timer of this.schedules.values()) clearInterval(timer);
    this.schedules.clear();
    const notStarted = this.waiting.length + this.delayed.size;
    for (const timer of this.delayed.keys()) clearTimeout(timer);
    this.delayed.clear();
    this.waiting.length = 0;
    if (notStarted > 0) this.logger.warn(`Shutting down: ${notStarted} waiting or delayed in-process job(s) abandoned`);

    const inFlight = [...this.running.values()];
    if (inFlight.length > 0) {
      this.logger.log(`Shutting down: waiting up to ${this.options.shutdownTimeoutMs} ms for ${inFlight.length} running job(s)`);
      const finished = await settlesWithin(Promise.allSettled(inFlight), this.options.shutdownTimeoutMs);
      if (!finished) {
        this.logger.warn(
          `Shutdown timeout: ${this.running.size} running in-process job(s) abandoned (${[...this.running.keys()].join(', ')})`,
        );
      }
    }
    this.pendingKeys.clear();
    this.state = 'closed';
  }
}

/** The queue a job belongs to (jobs unknown to JOB_QUEUE, e.g. the tests' own, count as "other"). */
function queueOf(name: string): string {
  return (JOB_QUEUE as Partial<Record<string, QueueName>>)[name] ?? 'other';
}
