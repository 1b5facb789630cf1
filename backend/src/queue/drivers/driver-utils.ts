import { DEFAULT_JOB_ATTEMPTS, DEFAULT_JOB_BACKOFF_MS, type JobName } from '../queue.constants';
import type { JobOptions } from '../queue.port';

export interface ResolvedJobOptions {
  delayMs: number;
  attempts: number;
  backoffMs: number;
  jobId?: string;
}

/** Applies the defaults of JobOptions and refuses nonsense (negative delays, 0 attempts, empty ids). */
export function resolveJobOptions(opts: JobOptions = {}): ResolvedJobOptions {
  const delayMs = opts.delayMs ?? 0;
  const attempts = opts.attempts ?? DEFAULT_JOB_ATTEMPTS;
  const backoffMs = opts.backoffMs ?? DEFAULT_JOB_BACKOFF_MS;
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error(`JobOptions.delayMs must be >= 0, got ${delayMs}`);
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`JobOptions.attempts must be an integer >= 1, got ${attempts}`);
  if (!Number.isFinite(backoffMs) || backoffMs < 0) throw new Error(`JobOptions.backoffMs must be >= 0, got ${backoffMs}`);
  if (opts.jobId !== undefined && opts.jobId.length === 0) throw new Error('JobOptions.jobId must not be empty');
  return { delayMs: Math.round(delayMs), attempts, backoffMs: Math.round(backoffMs), jobId: opts.jobId };
}

/** Wait before the retry that follows failed run number `attemptsMade` (1-based): backoffMs * 2^(n-1), as BullMQ's 'exponential'. */
export function backoffDelay(backoffMs: number, attemptsMade: number): number {
  return Math.round(backoffMs * 2 ** (attemptsMade - 1));
}

/** Deduplication key of a jobId: scoped to the job name, so two jobs may share an id. */
export function dedupeKey(name: JobName, jobId: string): string {
  return `${name}:${jobId}`;
}

const SCHEDULE_KEY = /^[A-Za-z0-9._-]{1,200}$/;

export function assertRepeatable(everyMs: number, key: string): void {
  if (!Number.isInteger(everyMs) || everyMs < 1) throw new Error(`addRepeatable: everyMs must be an integer >= 1, got ${everyMs}`);
  if (!SCHEDULE_KEY.test(key)) throw new Error(`addRepeatable: key must be letters, digits, '.', '_' or '-', got "${key}"`);
}

/** Payloads travel as JSON in both drivers, so handlers see the same shapes whatever the driver. */
export function toJson(data: unknown): string | undefined {
  return data === undefined ? undefined : JSON.stringify(data);
}

export function fromJson(json: string | undefined): unknown {
  return json === undefined ? undefined : JSON.parse(json);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
