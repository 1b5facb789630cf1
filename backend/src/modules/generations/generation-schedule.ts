import type { AiConfig } from '../../config/app-config';
import type { GenerationType } from './providers/ai-provider';

/**
 * The time budget of a generation and when its status is checked (docs/generations.md "Time budgets").
 *
 * A generation gets a wall-clock deadline when it is recorded: AI_IMAGE_DEADLINE_SECONDS (5 min) or
 * AI_VIDEO_DEADLINE_SECONDS (15 min) from then, stored in `deadline_at`, so a change of the setting
 * never moves a running generation's deadline and every process reads the same one. Once the
 * vendor has accepted the job, its status is checked AI_POLL_INTERVAL_MS (3 s) later, then each
 * wait grows by half (x1.5) up to AI_POLL_MAX_INTERVAL_MS (15 s), and the last check happens at the
 * deadline itself, never after it. `max_polls` is the number of checks that fit in the budget left
 * when the vendor accepted the job: 23 for an image, 63 for a video with the defaults.
 */

/** Each wait between two status checks is this many times the one before, up to the cap. */
export const POLL_GROWTH = 1.5;

export interface PollSchedule {
  /** the wait before the first check (AI_POLL_INTERVAL_MS) */
  firstMs: number;
  /** the longest wait between two checks (AI_POLL_MAX_INTERVAL_MS, never less than firstMs) */
  maxMs: number;
}

export function pollScheduleOf(ai: Pick<AiConfig, 'pollIntervalMs' | 'pollMaxIntervalMs'>): PollSchedule {
  return { firstMs: ai.pollIntervalMs, maxMs: Math.max(ai.pollIntervalMs, ai.pollMaxIntervalMs) };
}

/** The budget of a generation of this type, in ms (AI_IMAGE_DEADLINE_SECONDS or AI_VIDEO_DEADLINE_SECONDS). */
export function budgetMsOf(type: GenerationType, ai: Pick<AiConfig, 'deadlineSeconds'>): number {
  return ai.deadlineSeconds[type] * 1000;
}

/** The wait before status check `n` (1-based): firstMs, then x1.5 each time, at most maxMs. */
export function pollWaitMs(n: number, s: PollSchedule): number {
  return Math.round(Math.min(s.maxMs, s.firstMs * POLL_GROWTH ** Math.max(0, n - 1)));
}

/**
 * How close to the deadline a check may fall and still be the last one: a check due less than this
 * before the deadline is moved to the deadline (a second, or the first wait when that is shorter).
 * Timers and clocks of different processes are never exact: without it, a last check that ran a few
 * milliseconds early would ask for one more, a few milliseconds later.
 */
export function lastCheckSlackMs(s: PollSchedule): number {
  return Math.min(1000, s.firstMs);
}

/**
 * When each status check happens, in ms after the vendor accepted the job, for a budget of
 * `budgetMs` left at that moment: the schedule's checks that fall more than the slack before the
 * deadline, then the last one at the deadline. `max_polls` is its length.
 */
export function checkTimesMs(budgetMs: number, s: PollSchedule): number[] {
  const times: number[] = [];
  const end = Math.max(0, budgetMs);
  const slack = lastCheckSlackMs(s);
  for (let n = 1, at = pollWaitMs(1, s); at < end - slack; at += pollWaitMs(++n, s)) times.push(at);
  times.push(end);
  return times;
}

/** The number of status checks that fit in `budgetMs` under the schedule, the last one at the deadline (`max_polls`). */
export function checksWithin(budgetMs: number, s: PollSchedule): number {
  return checkTimesMs(budgetMs, s).length;
}

/** What to do after status check `n` while the generation is still running. */
export type NextCheck = { n: number; delayMs: number; last: boolean };

/**
 * The next status check after check `n`, given `remainingMs` of budget left now and the wait the
 * schedule (or a failed check's backoff) asks for: check n+1 after that wait, unless it would fall
 * within the slack of the deadline or after it; then the last check, at the deadline, numbered
 * `maxPolls` (or n+1 when more checks than planned already ran, a webhook's or a resumed one).
 */
export function nextCheck(n: number, waitMs: number, remainingMs: number, maxPolls: number, s: PollSchedule): NextCheck {
  if (remainingMs - waitMs > lastCheckSlackMs(s)) return { n: n + 1, delayMs: waitMs, last: false };
  return { n: Math.max(n + 1, maxPolls), delayMs: Math.max(0, remainingMs), last: true };
}

/**
 * When a generation runs out of budget: its stored `deadline_at`, or, for a row written without
 * one (before the column existed, or by hand), its budget under the current setting from `created_at`.
 */
export function deadlineOf(
  row: { type: GenerationType; createdAt: Date | string; deadlineAt: Date | string | null },
  ai: Pick<AiConfig, 'deadlineSeconds'>,
): Date {
  if (row.deadlineAt) return new Date(row.deadlineAt);
  return new Date(new Date(row.createdAt).getTime() + budgetMsOf(row.type, ai));
}
