import { testConfig } from '../../config/test-config';
import {
  budgetMsOf,
  checksWithin,
  checkTimesMs,
  deadlineOf,
  lastCheckSlackMs,
  nextCheck,
  pollScheduleOf,
  pollWaitMs,
  type PollSchedule,
} from './generation-schedule';

/** The settings as shipped: AI_POLL_INTERVAL_MS 3000, AI_POLL_MAX_INTERVAL_MS 15000, 300 s for an image, 900 s for a video. */
const DEFAULTS = testConfig().ai;
const SCHEDULE = pollScheduleOf(DEFAULTS);

describe('the default time budgets', () => {
  it('are 5 minutes for an image and 15 for a video, checks starting 3 s after the start and growing to 15 s apart', () => {
    expect(budgetMsOf('image', DEFAULTS)).toBe(300_000);
    expect(budgetMsOf('video', DEFAULTS)).toBe(900_000);
    expect(SCHEDULE).toEqual({ firstMs: 3000, maxMs: 15_000 });
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => pollWaitMs(n, SCHEDULE))).toEqual([3000, 4500, 6750, 10_125, 15_000, 15_000, 15_000]);
  });

  it('fit 23 checks in an image budget and 63 in a video budget, the last one at the deadline', () => {
    const image = checkTimesMs(300_000, SCHEDULE);
    expect(image.slice(0, 5)).toEqual([3000, 7500, 14_250, 24_375, 39_375]);
    expect(image.at(-2)).toBe(294_375);
    expect(image.at(-1)).toBe(300_000);
    expect(image).toHaveLength(23);
    const video = checkTimesMs(900_000, SCHEDULE);
    expect(video.at(-2)).toBe(894_375);
    expect(video.at(-1)).toBe(900_000);
    expect(video).toHaveLength(63);
    expect(checksWithin(900_000, SCHEDULE)).toBe(63);
    // never two checks closer than the first wait, never further apart than the cap
    for (const times of [image, video]) {
      const gaps = times.map((t, i) => t - (times[i - 1] ?? 0));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(3000);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(15_000);
    }
  });

  it('let a 4-minute video complete: seen at check 19, 249.4 s after the start, where the old 60 x 3 s gave up at 180 s', () => {
    const video = checkTimesMs(900_000, SCHEDULE);
    const seenAt = video.findIndex((t) => t >= 240_000);
    expect(seenAt + 1).toBe(19);
    expect(video[seenAt]).toBe(249_375);
    // Kling on fal took 79-151 s per 5 s clip before any queue wait: the slowest is seen at 159.4 s, check 13
    expect(video.findIndex((t) => t >= 151_000) + 1).toBe(13);
    expect(video.find((t) => t >= 151_000)).toBe(159_375);
  });

  it('ask the vendor less than once every 3 s: 23 status queries for a 5-minute image, not 100', () => {
    // DashScope allows 20 task queries a second per account: at 50 generations at once, that was 17 a second at 3 s apart
    const perGenerationPerSecond = checksWithin(300_000, SCHEDULE) / 300;
    expect(perGenerationPerSecond * 50).toBeLessThan(4);
  });
});

describe('the schedule arithmetic', () => {
  const s: PollSchedule = { firstMs: 100, maxMs: 1000 };

  it('caps the waits at 5 x the first unless AI_POLL_MAX_INTERVAL_MS says otherwise; a bad value stops the start', () => {
    const ai = (env: Record<string, string>) => pollScheduleOf(testConfig(undefined, env).ai);
    expect(ai({ AI_POLL_INTERVAL_MS: '200' })).toEqual({ firstMs: 200, maxMs: 1000 });
    expect(ai({ AI_POLL_INTERVAL_MS: '200', AI_POLL_MAX_INTERVAL_MS: '300' })).toEqual({ firstMs: 200, maxMs: 300 });
    expect(() => ai({ AI_POLL_MAX_INTERVAL_MS: 'soon' })).toThrow(/AI_POLL_MAX_INTERVAL_MS/);
    expect(() => ai({ AI_IMAGE_DEADLINE_SECONDS: '0' })).toThrow(/AI_IMAGE_DEADLINE_SECONDS/);
  });

  it('rounds each wait and caps it; a cap below the first wait is raised to it', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => pollWaitMs(n, s))).toEqual([100, 150, 225, 338, 506, 759, 1000]);
    expect(pollScheduleOf({ pollIntervalMs: 60_000, pollMaxIntervalMs: 15_000 })).toEqual({ firstMs: 60_000, maxMs: 60_000 });
  });

  it('puts the last check at the deadline, and moves one that would fall within the slack of it there', () => {
    expect(lastCheckSlackMs(s)).toBe(100);
    expect(lastCheckSlackMs(SCHEDULE)).toBe(1000);
    expect(checkTimesMs(1000, s)).toEqual([100, 250, 475, 813, 1000]);
    // 813 + 506 = 1319 is within 100 ms of a 1400 ms deadline: the last check is at 1400 instead
    expect(checkTimesMs(1400, s)).toEqual([100, 250, 475, 813, 1400]);
    expect(checkTimesMs(1420, s)).toEqual([100, 250, 475, 813, 1319, 1420]);
  });

  it('always has a last check, at once when no budget is left', () => {
    expect(checkTimesMs(0, s)).toEqual([0]);
    expect(checkTimesMs(-50, s)).toEqual([0]);
    expect(checkTimesMs(150, s)).toEqual([150]);
    expect(checksWithin(150, s)).toBe(1);
  });

  it('next check: the wait asked for, unless the deadline comes first; then the last check, numbered max_polls', () => {
    expect(nextCheck(3, 338, 5000, 9, s)).toEqual({ n: 4, delayMs: 338, last: false });
    expect(nextCheck(3, 338, 420, 9, s)).toEqual({ n: 9, delayMs: 420, last: true });
    expect(nextCheck(3, 2000, 1500, 9, s)).toEqual({ n: 9, delayMs: 1500, last: true }); // a long Retry-After
    // more checks than planned ran (a webhook's): the last one still comes after them
    expect(nextCheck(9, 338, 300, 9, s)).toEqual({ n: 10, delayMs: 300, last: true });
    expect(nextCheck(3, 338, -20, 9, s)).toEqual({ n: 9, delayMs: 0, last: true });
  });

  it('follows the checks a schedule plans, one by one, to the same last check', () => {
    for (const budget of [1000, 1400, 1420, 5000, 12_345]) {
      const planned = checkTimesMs(budget, s);
      const max = planned.length;
      // what the worker does after each check: ask for the next one, with the budget left
      const seen: Array<{ n: number; at: number }> = [];
      let last = { n: 0, at: 0 };
      for (;;) {
        const next = nextCheck(last.n, pollWaitMs(last.n + 1, s), budget - last.at, max, s);
        last = { n: next.n, at: last.at + next.delayMs };
        seen.push(last);
        if (next.last) break;
      }
      expect(seen).toEqual(planned.map((t, i) => ({ n: i + 1, at: t })));
    }
  });
});

describe('deadlineOf', () => {
  const created = new Date('2026-01-01T12:00:00Z');

  it("is the row's stored deadline, whatever the settings say now", () => {
    const stored = new Date('2026-01-01T12:07:00Z');
    expect(deadlineOf({ type: 'image', createdAt: created, deadlineAt: stored }, DEFAULTS)).toEqual(stored);
  });

  it('for a row written without one, its budget under the current setting from its creation', () => {
    expect(deadlineOf({ type: 'image', createdAt: created, deadlineAt: null }, DEFAULTS)).toEqual(new Date('2026-01-01T12:05:00Z'));
    expect(deadlineOf({ type: 'video', createdAt: created, deadlineAt: null }, DEFAULTS)).toEqual(new Date('2026-01-01T12:15:00Z'));
  });
});
