/**
 * The worker process is SIGKILLed while it is in the middle of a vendor call: starting a job
 * (mid-submit), asking its status (mid-poll), fetching its result (mid-finalise). Each round starts
 * three generations, holds each at the vendor at one of those moments, kills the worker once all
 * three are there, and starts a new worker. Every generation must end completed or failed, charged
 * once or not at all, with no hold left open, and a completed one must have its file.
 */
import { IMAGE_START, waitFor } from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { testDatabaseUrl, testRedisUrl } from '../helpers/test-app';
import {
  describeTally,
  expectSettledCleanly,
  openDb,
  personWithPhoto,
  report,
  settled,
  Stack,
  tally,
  waitUntilEnded,
  type Settled,
} from './fault-kit';
import { HoldingFashn, type VendorPhase } from './holding-fashn';
import type { DataSource } from 'typeorm';

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 3);
const PHASES: VendorPhase[] = ['submit', 'poll', 'finalise'];

describe('worker SIGKILLed mid-submit, mid-poll and mid-finalise', () => {
  const vendor = new HoldingFashn();
  let stack: Stack;
  let db: DataSource;

  beforeAll(async () => {
    await vendor.start();
    db = await openDb(testDatabaseUrl());
    stack = new Stack({
      databaseUrl: testDatabaseUrl(),
      redisUrl: testRedisUrl(),
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        PROVIDER_INPUTS: 'url', // HoldingFashn tells people apart by their photo links
        AI_REQUEST_TIMEOUT_MS: '1500',
        AI_POLL_INTERVAL_MS: '300',
        AI_RETRY_BASE_MS: '200',
        AI_POLL_MAX_INTERVAL_MS: '300', // a check every 300 ms: the waits do not grow
        AI_SWEEP_INTERVAL_MS: '1000',
      },
    });
    await stack.start();
  }, 120_000);

  afterAll(async () => {
    vendor.releaseAll();
    await stack?.close();
    await db?.destroy();
    await vendor.stop();
  });

  it(`${ROUNDS} rounds: every generation settles exactly`, async () => {
    const outcomes: Array<Settled & { phase: VendorPhase; runs: number }> = [];
    const recoveries: number[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const people = await Promise.all(PHASES.map(() => personWithPhoto(stack.http, db)));
        people.forEach((who, i) => vendor.hold(PHASES[i], who.userId));
        const ids: string[] = [];
        for (const who of people) {
          const res = await stack.http
            .post('/api/generations')
            .set(bearer(who.accessToken))
            .send({ ...IMAGE_START, upload_ids: [who.photo] });
          expect(res.status).toBe(202);
          ids.push(res.body.id);
        }
        await waitFor(
          'every generation to be held at its phase',
          async () => people.every((who, i) => vendor.isHeld(PHASES[i], who.userId)),
          30_000,
          20,
        );

        await stack.killWorker();
        vendor.releaseAll();
        const t0 = Date.now();
        await stack.startWorker();
        await Promise.all(ids.map((id) => waitUntilEnded(db, id, 90_000)));
        recoveries.push(Date.now() - t0);

        for (const [i, id] of ids.entries()) {
          const s = await settled(db, stack.storageDir, id);
          expectSettledCleanly(s);
          outcomes.push({ ...s, phase: PHASES[i], runs: vendor.runsOf(people[i].userId) });
        }
      }
    } catch (error) {
      process.stderr.write(`${stack.output()}\n`);
      throw error;
    }

    // the vendor's job survived the kill: those generations complete, each started once at the vendor
    for (const o of outcomes.filter((o) => o.phase !== 'submit'))
      expect({ phase: o.phase, status: o.status, runs: o.runs }).toEqual({ phase: o.phase, status: 'completed', runs: 1 });
    // a start cut off before its answer is in doubt: never started a second time (no double job, no double charge)
    for (const o of outcomes.filter((o) => o.phase === 'submit')) expect(o.runs).toBe(1);

    const byPhase = (phase: VendorPhase) => {
      const these = outcomes.filter((o) => o.phase === phase);
      return `${these.length} generations: ${describeTally(tally(these, (o) => o.status))}; charged ${these.reduce((n, o) => n + o.charges, 0)}; vendor starts ${these.reduce((n, o) => n + o.runs, 0)}`;
    };
    report('Worker SIGKILLed in the middle of a vendor call (API and worker processes, BullMQ, fake FASHN)', {
      'rounds (one kill each)': ROUNDS,
      'killed mid-submit': byPhase('submit'),
      'killed mid-poll': byPhase('poll'),
      'killed mid-finalise': byPhase('finalise'),
      'open holds after': outcomes.reduce((n, o) => n + o.openHolds, 0),
      'completed without their file': outcomes.filter((o) => o.status === 'completed' && !o.fileStored).length,
      'unbalanced ledgers': outcomes.filter((o) => !o.balanced).length,
      'restart to all settled (ms)': recoveries.join(', '),
    });
  }, 600_000);
});
