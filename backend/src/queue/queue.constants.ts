/**
 * The queue's vocabulary: which queues exist, which jobs exist, what each job carries and which
 * queue it goes to. One place for each fact; handlers and producers import from here.
 */

/** Queues (BullMQ: one Redis queue and one Worker each). */
export enum QueueName {
  Generations = 'generations',
  Maintenance = 'maintenance',
}

/** Every job the app knows. A job has exactly one handler (checked at worker startup). */
export enum JobName {
  MaintenanceHeartbeat = 'maintenance.heartbeat',
  CreditsMonthlyReset = 'credits.monthly-reset',
}

/**
 * Payload of each job. Payloads travel as JSON (BullMQ stores them in Redis; the in-process
 * driver round-trips them through JSON too), so use plain data: ids and strings, no Dates or
 * class instances. A JobName without an entry here is a compile error in JobPayload below.
 */
export interface JobPayloads {
  [JobName.MaintenanceHeartbeat]: { at?: string };
  [JobName.CreditsMonthlyReset]: Record<string, never>;
}

export type JobPayload<N extends JobName> = JobPayloads[N];

/** Which queue each job goes to. */
export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.MaintenanceHeartbeat]: QueueName.Maintenance,
  [JobName.CreditsMonthlyReset]: QueueName.Maintenance,
};

/** Defaults of JobOptions. */
export const DEFAULT_JOB_ATTEMPTS = 3;
export const DEFAULT_JOB_BACKOFF_MS = 1000;

/** How often the heartbeat job runs, and the key of its schedule. */
export const HEARTBEAT_EVERY_MS = 60_000;
export const HEARTBEAT_SCHEDULE_KEY = 'maintenance-heartbeat';

/** Injection token of the QueueDriver (see queue.port.ts). */
export const QUEUE_DRIVER = Symbol('QUEUE_DRIVER');
/** Injection token of the QueueModuleOptions given to QueueModule.forRoot. */
export const QUEUE_MODULE_OPTIONS = Symbol('QUEUE_MODULE_OPTIONS');
/** Metadata key written by @OnJob. */
export const ON_JOB_METADATA = 'fitting-room:queue:on-job';
