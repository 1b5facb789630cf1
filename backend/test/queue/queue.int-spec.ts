/**
 * The queue port against both drivers: the in-process one and BullMQ on the real Redis
 * (REDIS_URL, default redis://127.0.0.1:6379). Nothing of BullMQ or Redis is mocked. Every test
 * uses its own key prefix and deletes its keys afterwards.
 */
import { Injectable, Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Redis } from 'ioredis';
import {
  BullMqQueueDriver,
  InProcessQueueDriver,
  JobName,
  MessageQueueService,
  OnJob,
  QueueHeartbeatService,
  QueueModule,
  QueueName,
  assertOneHandlerPerJob,
  type JobContext,
  type JobDispatcher,
  type QueueDriver,
  type QueueModuleOptions,
} from '../../src/queue';

const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Job names of these tests only, routed to real queues through `jobQueues`. */
const TEST_ROUTES: Record<string, QueueName> = {
  'test.job': QueueName.Maintenance,
  'test.other': QueueName.Generations,
  'test.echo': QueueName.Generations,
};
const TEST_JOB = 'test.job' as JobName;
const OTHER_JOB = 'test.other' as JobName;
const ECHO_JOB = 'test.echo' as JobName;
/** Test payloads are not in JobPayloads: this lets them through MessageQueueService.add's typing. */
const payload = (data: Record<string, unknown>) => data as never;

type DriverKind = 'in-process' | 'bullmq';

interface Run {
  name: JobName;
  data: any;
  attempt: number;
  maxAttempts: number;
  jobId: string;
  at: number;
}

let redis: Redis;
let prefix: string;
let openDrivers: QueueDriver[] = [];
let openModules: TestingModule[] = [];

beforeAll(() => {
  redis = new Redis(REDIS_URL);
  Logger.overrideLogger(false);
});

afterAll(async () => {
  await redis.quit();
});

beforeEach(() => {
  prefix = `qt-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
});

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(openModules.map((m) => m.close().catch(() => undefined)));
  await Promise.all(openDrivers.map((d) => d.close().catch(() => undefined)));
  openModules = [];
  openDrivers = [];
  await deleteKeys(prefix);
});

async function deleteKeys(keyPrefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

function makeDriver(
  kind: DriverKind,
  tuning: {
    concurrency?: number;
    queueConcurrency?: Partial<Record<QueueName, number>>;
    shutdownTimeoutMs?: number;
    lockDurationMs?: number;
    stalledIntervalMs?: number;
  } = {},
): QueueDriver {
  const concurrency = tuning.concurrency ?? 2;
  const shutdownTimeoutMs = tuning.shutdownTimeoutMs ?? 5000;
  const driver =
    kind === 'in-process'
      ? new InProcessQueueDriver({ concurrency, queueConcurrency: tuning.queueConcurrency, shutdownTimeoutMs })
      : new BullMqQueueDriver({
          redisUrl: REDIS_URL,
          prefix,
          concurrency,
          queueConcurrency: tuning.queueConcurrency,
          shutdownTimeoutMs,
          lockDurationMs: tuning.lockDurationMs,
          stalledIntervalMs: tuning.stalledIntervalMs,
          jobQueues: TEST_ROUTES,
        });
  openDrivers.push(driver);
  return driver;
}

/** A dispatcher that records every run, then hands it to `behaviour` (which may throw or wait). */
function recorder(behaviour: (run: Run) => Promise<void> | void = () => undefined): { runs: Run[]; dispatch: JobDispatcher } {
  const runs: Run[] = [];
  const dispatch: JobDispatcher = async (name, data, ctx) => {
    const run = { name, data, attempt: ctx.attempt, maxAttempts: ctx.maxAttempts, jobId: ctx.jobId, at: Date.now() };
    runs.push(run);
    await behaviour(run);
  };
  return { runs, dispatch };
}

async function waitFor(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(20);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function idle(driver: QueueDriver): Promise<boolean> {
  const c = await driver.counts();
  return c.waiting === 0 && c.active === 0 && c.delayed === 0;
}

describe.each<DriverKind>(['in-process', 'bullmq'])('queue driver: %s', (kind) => {
  it('runs a job with its payload (as JSON)', async () => {
    const driver = makeDriver(kind);
    const { runs, dispatch } = recorder();
    await driver.startConsuming(dispatch);

    await driver.add(TEST_JOB, { hello: 'world', n: 1, when: new Date('2030-01-02T03:04:05.000Z') });

    await waitFor('the run', () => runs.length === 1);
    expect(runs[0]).toMatchObject({
      name: TEST_JOB,
      data: { hello: 'world', n: 1, when: '2030-01-02T03:04:05.000Z' },
      attempt: 1,
      maxAttempts: 3,
    });
    expect(runs[0].jobId).toEqual(expect.any(String));
    await waitFor('the queue to be idle', () => idle(driver));
    expect((await driver.counts()).failed).toBe(0);
  });

  it('retries a job that fails three times with growing (exponential) backoff, and it ends done', async () => {
    const driver = makeDriver(kind);
    const { runs, dispatch } = recorder((run) => {
      if (run.attempt < 4) throw new Error(`flaky ${run.attempt}`);
    });
    await driver.startConsuming(dispatch);

    await driver.add(TEST_JOB, { id: 'flaky' }, { attempts: 5, backoffMs: 150 });

    await waitFor('four runs', () => runs.length === 4);
    await waitFor('the queue to be idle', () => idle(driver));
    await sleep(400); // a 5th run would come 1,200 ms after the 4th
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    expect(runs.every((r) => r.data.id === 'flaky' && r.maxAttempts === 5)).toBe(true);
    // Each wait is at least its exponential delay (150, 300, 600 ms). Only minimums: a busy machine
    // makes a wait longer, never shorter, so a ratio between two waits would fail for nothing.
    const gaps = runs.slice(1).map((r, i) => r.at - runs[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(140);
    expect(gaps[1]).toBeGreaterThanOrEqual(290);
    expect(gaps[2]).toBeGreaterThanOrEqual(590);
    expect(await driver.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  it('marks a job failed once its attempts are used up', async () => {
    const driver = makeDriver(kind);
    const { runs, dispatch } = recorder(() => {
      throw new Error('always');
    });
    await driver.startConsuming(dispatch);

    await driver.add(TEST_JOB, {}, { attempts: 2, backoffMs: 50 });

    await waitFor('the job to fail', async () => (await driver.counts()).failed === 1);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
    expect(await idle(driver)).toBe(true);
  });

  it('does not run a delayed job before its delay, and runs it after', async () => {
    const driver = makeDriver(kind);
    const { runs, dispatch } = recorder();
    await driver.startConsuming(dispatch);

    // The delay is long beside the check made during it: a machine that stalls for a second
    // (CI on a loaded VM) must not reach the delay before the first check runs.
    const addedAt = Date.now();
    await driver.add(TEST_JOB, { late: true }, { delayMs: 3000 });

    await sleep(300);
    expect(runs).toHaveLength(0);
    expect((await driver.counts()).delayed).toBe(1);
    await waitFor('the delayed run', () => runs.length === 1, 10_000);
    expect(runs[0].at - addedAt).toBeGreaterThanOrEqual(2990);
    expect(runs[0].data).toEqual({ late: true });
  });

  it('adds a jobId once while it is pending or running, and again once it is done', async () => {
    const driver = makeDriver(kind);
    const release = gate();
    const { runs, dispatch } = recorder(async (run) => {
      if (run.data.step === 'first') await release.promise;
    });
    await driver.startConsuming(dispatch);

    await driver.add(TEST_JOB, { step: 'first' }, { jobId: 'gen:42', delayMs: 200 });
    await driver.add(TEST_JOB, { step: 'dup-while-delayed' }, { jobId: 'gen:42' });
    await driver.add(TEST_JOB, { step: 'other-id' }, { jobId: 'gen:43' });
    await driver.add(OTHER_JOB, { step: 'same-id-other-job' }, { jobId: 'gen:42' });
    await waitFor('the first run', () => runs.some((r) => r.data.step === 'first'));
    await driver.add(TEST_JOB, { step: 'dup-while-active' }, { jobId: 'gen:42' });
    release.open();
    await waitFor('the queue to be idle', () => idle(driver));
    await driver.add(TEST_JOB, { step: 'after-done' }, { jobId: 'gen:42' });
    await waitFor('the run after done', () => runs.some((r) => r.data.step === 'after-done'));
    await waitFor('the queue to be idle', () => idle(driver));

    expect(runs.map((r) => `${r.name}/${r.data.step}`).sort()).toEqual(
      [`${TEST_JOB}/first`, `${TEST_JOB}/other-id`, `${OTHER_JOB}/same-id-other-job`, `${TEST_JOB}/after-done`].sort(),
    );
  });

  it('removes a job that has not started by its jobId, never a running one, and the jobId can be added again', async () => {
    const driver = makeDriver(kind);
    const release = gate();
    const { runs, dispatch } = recorder(async (run) => {
      if (run.data.step === 'running') await release.promise;
    });
    await driver.startConsuming(dispatch);

    // Long enough that a stalled machine cannot reach it before removePending runs.
    const delayedAt = Date.now();
    await driver.add(TEST_JOB, { step: 'delayed' }, { jobId: 'poll:1', delayMs: 5000 });
    await driver.add(TEST_JOB, { step: 'running' }, { jobId: 'poll:2' });
    await waitFor('the running job', () => runs.some((r) => r.data.step === 'running'));
    expect(await driver.removePending(TEST_JOB, 'poll:1')).toBe(true);
    expect(await driver.removePending(TEST_JOB, 'poll:1')).toBe(false); // gone already
    expect(await driver.removePending(TEST_JOB, 'poll:2')).toBe(false); // running: left alone
    expect(await driver.removePending(OTHER_JOB, 'poll:1')).toBe(false); // the jobId is the job name's
    expect(await driver.removePending(TEST_JOB, 'never-added')).toBe(false);
    expect((await driver.counts()).delayed).toBe(0);

    await driver.add(TEST_JOB, { step: 'again' }, { jobId: 'poll:1' });
    release.open();
    await waitFor('the queue to be idle', () => idle(driver), 10_000);
    await sleep(Math.max(0, delayedAt + 5200 - Date.now())); // past the removed job's delay: it never runs
    expect(runs.map((r) => r.data.step).sort()).toEqual(['again', 'running']);
  });

  it("runs each queue's jobs up to its own concurrency, and a full queue holds back no other", async () => {
    // generation steps wait on the vendor: their queue runs many at once, mail a few
    const driver = makeDriver(kind, { concurrency: 1, queueConcurrency: { [QueueName.Generations]: 3 } });
    const release = gate();
    const { runs, dispatch } = recorder(() => release.promise);
    await driver.startConsuming(dispatch);
    for (let i = 0; i < 2; i++) await driver.add(JobName.UserMail, { i });
    for (let i = 0; i < 5; i++) await driver.add(JobName.GenerationPoll, { i });

    await waitFor('three generation steps and one mail running', () => runs.length === 4);
    await sleep(300); // no fifth starts while they run
    const running = (name: JobName) => runs.filter((r) => r.name === name).length;
    expect([running(JobName.GenerationPoll), running(JobName.UserMail)]).toEqual([3, 1]);

    release.open();
    await waitFor('every job done', () => runs.length === 7 && idle(driver));
    expect((await driver.counts()).failed).toBe(0);
  });

  it('close() waits for a running slow job, starts no other, and refuses new jobs', async () => {
    const driver = makeDriver(kind, { concurrency: 1, shutdownTimeoutMs: 5000 });
    let finished = false;
    const release = gate();
    const { runs, dispatch } = recorder(async (run) => {
      if (run.data.n === 1) {
        await release.promise;
        finished = true;
      }
    });
    await driver.startConsuming(dispatch);
    await driver.add(TEST_JOB, { n: 1 });
    await waitFor('the slow job to start', () => runs.length === 1);
    await driver.add(TEST_JOB, { n: 2 });

    let closed = false;
    const closing = driver.close().then(() => (closed = true));
    await sleep(300);
    expect(closed).toBe(false); // still waiting for the running job
    release.open();
    await closing;
    expect(finished).toBe(true);
    await expect(driver.add(TEST_JOB, { n: 3 })).rejects.toThrow(/closing|closed/);
    await sleep(300);
    expect(runs.map((r) => r.data.n)).toEqual([1]);

    if (kind === 'bullmq') {
      // The slow job is recorded as completed, the queued one is left for another worker.
      const observer = makeDriver(kind);
      expect(await observer.counts()).toEqual({ waiting: 1, active: 0, delayed: 0, failed: 0 });
    }
  });

  it('close() gives up on a job that outlives shutdownTimeoutMs', async () => {
    const driver = makeDriver(kind, { shutdownTimeoutMs: 300, lockDurationMs: 1000, stalledIntervalMs: 500 });
    const stuck = gate();
    const { runs, dispatch } = recorder(() => stuck.promise);
    await driver.startConsuming(dispatch);
    await driver.add(TEST_JOB, { stuck: true });
    await waitFor('the stuck job to start', () => runs.length === 1);

    const closeStarted = Date.now();
    await driver.close();
    const took = Date.now() - closeStarted;
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(10_000); // it gave up: the stuck job never ends on its own

    if (kind === 'bullmq') {
      // Handed back: still active in Redis, its lock no longer renewed; a NEW worker takes it over.
      const observer = makeDriver(kind);
      expect((await observer.counts()).active).toBe(1);
      const second = makeDriver(kind, { lockDurationMs: 1000, stalledIntervalMs: 500 });
      const rescued = recorder();
      await second.startConsuming(rescued.dispatch);
      await waitFor('another worker to run the stalled job', () => rescued.runs.length === 1, 10_000);
      expect(rescued.runs[0]).toMatchObject({ name: TEST_JOB, data: { stuck: true }, jobId: runs[0].jobId });
      await waitFor('the queue to be idle', () => idle(second));
      expect((await second.counts()).failed).toBe(0);
    }
    stuck.open(); // the abandoned handler ends; it must not disturb anything
    await sleep(100);
    expect(runs).toHaveLength(1);
  });

  it('keeps one schedule per key, however often it is added', async () => {
    const driver = makeDriver(kind);
    // Same key added twice, from a second producer for BullMQ (as two processes or a restart would).
    await driver.addRepeatable(TEST_JOB, { tick: true }, 250, 'test-tick');
    const producer = kind === 'bullmq' ? makeDriver(kind) : driver;
    await producer.addRepeatable(TEST_JOB, { tick: true }, 250, 'test-tick');
    const { runs, dispatch } = recorder();
    await driver.startConsuming(dispatch);

    // Counted over a window rather than gap by gap: a stalled machine runs a late tick close to the
    // next one, but never more ticks in all than the schedule has.
    await waitFor('the first tick', () => runs.length >= 1, 10_000);
    const windowMs = 2000;
    await sleep(windowMs + 300);
    const inWindow = runs.filter((r) => r.at - runs[0].at <= windowMs).length;
    expect(runs.every((r) => r.data.tick === true)).toBe(true);
    expect(inWindow).toBeGreaterThanOrEqual(3); // it repeats
    expect(inWindow).toBeLessThanOrEqual(windowMs / 250 + 2); // a duplicate schedule would run about twice as often
  });

  it('records and reads the heartbeat', async () => {
    const driver = makeDriver(kind);
    expect(await driver.lastHeartbeat()).toBeNull();
    const at = new Date('2031-05-06T07:08:09.000Z');
    await driver.recordHeartbeat(at);
    expect((await driver.lastHeartbeat())?.toISOString()).toBe(at.toISOString());
    if (kind === 'bullmq') expect(await redis.get(`${prefix}:heartbeat`)).toBe(at.toISOString());
    expect((await driver.check()).ok).toBe(true);
  });

  it('delivers a job end to end to an @OnJob handler of a Nest app', async () => {
    @Injectable()
    class EchoHandlers {
      readonly received: { data: any; ctx: JobContext }[] = [];

      @OnJob(ECHO_JOB)
      async echo(data: any, ctx: JobContext): Promise<void> {
        if (data.failFirst && ctx.attempt === 1) throw new Error('boom');
        this.received.push({ data, ctx });
      }
    }
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const moduleRef = await Test.createTestingModule({
      imports: [QueueModule.forRoot(moduleOptions(kind, { jobNames: [JobName.MaintenanceHeartbeat, ECHO_JOB] }))],
      providers: [EchoHandlers],
    }).compile();
    openModules.push(moduleRef);
    await moduleRef.init();
    const queue = moduleRef.get(MessageQueueService);
    const handlers = moduleRef.get(EchoHandlers);
    expect(queue.kind).toBe(kind);

    await queue.add(ECHO_JOB, payload({ text: 'hi' }));
    await queue.add(ECHO_JOB, payload({ text: 'again', failFirst: true }), { backoffMs: 50 });

    await waitFor('both jobs handled', () => handlers.received.length === 2);
    expect(handlers.received.map((r) => [r.data.text, r.ctx.attempt, r.ctx.name]).sort()).toEqual([
      ['again', 2, ECHO_JOB],
      ['hi', 1, ECHO_JOB],
    ]);
    expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(
      expect.stringMatching(new RegExp(`^Job ${ECHO_JOB} \\(.+\\) failed on attempt 1/3, will retry: boom$`)),
    );

    // The heartbeat scheduled itself at bootstrap and ran at once; check() reports it.
    await waitFor('the first heartbeat', async () => (await queue.check()).lastHeartbeatAt !== undefined);
    const health = await queue.check();
    expect(health.ok).toBe(true);
    expect(health.detail).toMatch(/last heartbeat \d{4}-\d\d-\d\dT/);
    expect(await moduleRef.get(QueueHeartbeatService).lastHeartbeat()).toBeInstanceOf(Date);
    if (kind === 'bullmq') expect(await redis.get(`${prefix}:heartbeat`)).toBe(health.lastHeartbeatAt);

    await moduleRef.close();
    await expect(queue.add(ECHO_JOB, payload({ text: 'late' }))).rejects.toThrow(/closed/);
  });
});

function moduleOptions(driver: DriverKind, overrides: Partial<QueueModuleOptions> = {}): QueueModuleOptions {
  return {
    driver,
    redisUrl: REDIS_URL,
    prefix,
    consume: true,
    concurrency: 2,
    shutdownTimeoutMs: 2000,
    jobQueues: TEST_ROUTES,
    ...overrides,
  };
}

describe('job handler registry', () => {
  it('assertOneHandlerPerJob names every job with no handler or several, and handlers of unknown jobs', () => {
    const check = () =>
      assertOneHandlerPerJob(
        [
          { name: 'b', owner: 'B1.run' },
          { name: 'b', owner: 'B2.run' },
          { name: 'c', owner: 'C.run' },
          { name: 'zzz', owner: 'Z.run' },
        ],
        ['a', 'b', 'c', 'd'],
      );
    expect(check).toThrow('job "a" has no handler');
    expect(check).toThrow('job "d" has no handler');
    expect(check).toThrow('job "b" has 2 handlers: B1.run, B2.run');
    expect(check).toThrow('unknown job "zzz" has handler(s): Z.run');
    expect(check).not.toThrow(/job "c"/);
    expect(() => assertOneHandlerPerJob([{ name: 'a', owner: 'A.run' }], ['a'])).not.toThrow();
  });

  it('refuses to boot a consumer with a job that has no handler', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [QueueModule.forRoot(moduleOptions('in-process', { jobNames: [JobName.MaintenanceHeartbeat, 'test.orphan'] }))],
    }).compile();
    openModules.push(moduleRef);
    await expect(moduleRef.init()).rejects.toThrow('job "test.orphan" has no handler');
  });

  it('refuses to boot a consumer with a job that has two handlers', async () => {
    @Injectable()
    class FirstHandler {
      @OnJob('test.dup' as JobName)
      async handle(): Promise<void> {}
    }
    @Injectable()
    class SecondHandler {
      @OnJob('test.dup' as JobName)
      async handle(): Promise<void> {}
    }
    const moduleRef = await Test.createTestingModule({
      imports: [QueueModule.forRoot(moduleOptions('in-process', { jobNames: [JobName.MaintenanceHeartbeat, 'test.dup'] }))],
      providers: [FirstHandler, SecondHandler],
    }).compile();
    openModules.push(moduleRef);
    await expect(moduleRef.init()).rejects.toThrow('job "test.dup" has 2 handlers: FirstHandler.handle, SecondHandler.handle');
  });

  it('boots with the module heartbeat handler, and a producer-only process without handlers', async () => {
    // (the app's whole job list is checked by every test that boots the AppModule)
    const consumer = await Test.createTestingModule({
      imports: [QueueModule.forRoot(moduleOptions('in-process', { jobNames: [JobName.MaintenanceHeartbeat] }))],
    }).compile();
    openModules.push(consumer);
    await expect(consumer.init()).resolves.toBeDefined();

    const producer = await Test.createTestingModule({
      imports: [QueueModule.forRoot(moduleOptions('bullmq', { consume: false, jobNames: ['test.orphan'] }))],
    }).compile();
    openModules.push(producer);
    await expect(producer.init()).resolves.toBeDefined();
    // A producer schedules nothing: no heartbeat schedule appears in Redis.
    await producer.get(MessageQueueService).add(ECHO_JOB, payload({ text: 'queued' }));
    expect(await producer.get(MessageQueueService).counts()).toEqual({ waiting: 1, active: 0, delayed: 0, failed: 0 });
  });
});
