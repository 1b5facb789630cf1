import type { JobName } from './queue.constants';

/**
 * The queue port: what the app needs from a job queue, implemented by two drivers
 * (drivers/bullmq.driver.ts on Redis, drivers/in-process.driver.ts without Redis).
 * The rest of the app talks to MessageQueueService, never to a driver.
 */

export interface JobOptions {
  /** Run no earlier than this many ms from now. */
  delayMs?: number;
  /** Total runs allowed, first run included. Default 3. */
  attempts?: number;
  /** First retry waits backoffMs, then 2x, 4x, ... (exponential). Default 1000. */
  backoffMs?: number;
  /**
   * Deduplication id, scoped to the job name: while a job with the same name and jobId is
   * waiting, delayed (including waiting for a retry) or running, adding it again does nothing.
   * Once that job has completed or finally failed, the same jobId can be added again.
   * Note: a handler that re-enqueues its own job with its own jobId is deduplicated against
   * itself (it is still active); use a distinct id per step (e.g. `poll-<id>-<n>`).
   */
  jobId?: string;
}

export interface JobContext {
  /** The driver's id of this job (not JobOptions.jobId). */
  jobId: string;
  /** 1-based: 1 on the first run, 2 on the first retry, ... */
  attempt: number;
  /** JobOptions.attempts of this job: when attempt === maxAttempts, a failure is final. */
  maxAttempts: number;
  name: JobName;
}

export type JobDispatcher = (name: JobName, data: unknown, ctx: JobContext) => Promise<void>;

export interface QueueHealth {
  ok: boolean;
  detail?: string;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** One queue's jobs by state (the console's queue monitor). */
export interface NamedQueueCounts {
  name: string;
  counts: QueueCounts & {
    /** finished jobs still kept (BullMQ trims them after a day); in-process: since the process started */
    completed: number;
  };
}

export interface QueueDriver {
  readonly kind: 'bullmq' | 'in-process';
  /** Enqueues a job. Throws once close() has been called. */
  add(name: JobName, data: unknown, opts?: JobOptions): Promise<void>;
  /**
   * Removes the job added as `name` with JobOptions.jobId `jobId` while it has not started (waiting,
   * or delayed); a running or finished one is left alone. Answers whether one was removed; the jobId
   * may then be added again.
   */
  removePending(name: JobName, jobId: string): Promise<boolean>;
  /**
   * Runs `name` every `everyMs` (first run right away). Upsert by `key` (letters, digits, `.`, `_`,
   * `-`): calling it again with the same key, from a restart or another process, keeps one schedule.
   */
  addRepeatable(name: JobName, data: unknown, everyMs: number, key: string): Promise<void>;
  /** Starts running jobs through `dispatch`; a dispatch that throws is retried per JobOptions. */
  startConsuming(dispatch: JobDispatcher): Promise<void>;
  /**
   * Graceful stop: take no new jobs, wait for running ones up to shutdownTimeoutMs, then hand
   * them back (BullMQ: force-close, the jobs stall and another worker picks them up again;
   * in-process: log and abandon). Idempotent.
   */
  close(): Promise<void>;
  /** Health: BullMQ pings Redis. */
  check(): Promise<QueueHealth>;
  /** Totals over all queues. */
  counts(): Promise<QueueCounts>;
  /** Counts per queue, every queue of QueueName listed (in-process: per the JOB_QUEUE of each job). */
  countsByQueue(): Promise<NamedQueueCounts[]>;
  /** Seconds the oldest waiting job of each queue has waited (0 when none waits), by queue name (the metrics). */
  oldestWaitingSeconds(): Promise<Record<string, number>>;
  /**
   * Where the heartbeat job records its last run, so that any process (the API's health check)
   * can read it: Redis key `${prefix}:heartbeat` for BullMQ, memory for in-process.
   */
  recordHeartbeat(at: Date): Promise<void>;
  lastHeartbeat(): Promise<Date | null>;
}
