import type { QueueName } from './queue.constants';

export interface QueueModuleOptions {
  driver: 'bullmq' | 'in-process';
  /** Required for 'bullmq'. */
  redisUrl?: string;
  /** Prefix of every Redis key this module writes. */
  prefix: string;
  /** Whether this process runs jobs (the worker; the API too when there is no Redis). */
  consume: boolean;
  /** Jobs run at the same time per queue in this process. */
  concurrency: number;
  /** A queue's own concurrency, where it differs from `concurrency`. */
  queueConcurrency?: Partial<Record<QueueName, number>>;
  /** How long shutdown waits for running jobs before handing them back. */
  shutdownTimeoutMs: number;
  /** Jobs that must have exactly one handler when consuming. Default: Object.values(JobName). */
  jobNames?: string[];
  /** Extra job -> queue routes over JOB_QUEUE, for job names outside JobName (tests). */
  jobQueues?: Partial<Record<string, QueueName>>;
  /** Heartbeat interval. Default HEARTBEAT_EVERY_MS (60 s). */
  heartbeatEveryMs?: number;
  /** BullMQ worker tuning (defaults: lock 30 s, stalled check 30 s, 1 stall allowed). */
  bullmq?: { lockDurationMs?: number; stalledIntervalMs?: number; maxStalledCount?: number };
}
