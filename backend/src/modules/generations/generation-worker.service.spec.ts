import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { testConfig } from '../../config/test-config';
import { JobName, type JobContext, type MessageQueueService } from '../../queue';
import { GenerationPipeline } from './generation-pipeline';
import { checksWithin, pollScheduleOf } from './generation-schedule';
import {
  backoffMs,
  GenerationWorkerService,
  RESULTS_IN_MEMORY,
  startMayBeRetried,
  StepTimeoutError,
  withTimeout,
} from './generation-worker.service';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import { ProviderError, ProviderErrorKind, type AiProvider } from './providers/ai-provider';
import type { StoragePort } from '../../storage';
import type { LikenessService } from '../faces/likeness.service';
import type { GenerationOutcomesService } from './generation-outcomes.service';
import type { ClaimedRow, GenerationsRepository, RunningRow } from './generations.repository';
import type { ProviderInputsService } from './provider-inputs.service';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

const ID = '6f0c1e9e-8d3b-4a51-9a43-0d1bb1b1a001';

function row(overrides: Partial<GenerationEntity> = {}): GenerationEntity {
  return {
    id: ID,
    userId: 'u1',
    type: 'image',
    status: GenerationStatus.Processing,
    cost: 1,
    category: 'bikini',
    prompt: 'show the woman',
    metadata: { outfit_id: 'bikini-yellow', scene_id: 'beach-standing', upload_path: 'users/u1/uploads/p.jpg', upload_ids: ['p'] },
    tier: 'free',
    stage: GenerationStage.Starting,
    polls: 0,
    maxPolls: 3,
    pollClaim: null,
    provider: 'preview',
    providerJobId: null,
    submitStartedAt: null,
    deadlineAt: new Date(Date.now() + 60_000),
    attempts: 1,
    error: null,
    resultKey: null,
    resultPhash: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    completedAt: null,
    ...overrides,
  };
}

/** The row as a claim answers it: with the database's clock, here the test's. */
function claimed(overrides: Partial<GenerationEntity> = {}): ClaimedRow {
  return { ...row(overrides), checkedAt: new Date() };
}

/** First check 100 ms after the start, then x1.5 up to a second; images have a minute. */
const AI = { pollIntervalMs: 100, pollMaxIntervalMs: 1000, deadlineSeconds: { image: 60, video: 120 } };
const SCHEDULE = pollScheduleOf(AI);

function setup(options: { kind?: 'in-process' | 'bullmq'; running?: RunningRow[] } = {}) {
  const repo = {
    claimSubmit: jest.fn().mockResolvedValue(claimed()),
    claimPoll: jest.fn().mockResolvedValue(claimed()),
    findById: jest.fn().mockResolvedValue(row()),
    recordProviderJob: jest.fn().mockResolvedValue(true),
    releaseSubmit: jest.fn().mockResolvedValue(true),
    setStage: jest.fn(),
    findRunning: jest.fn().mockResolvedValue(options.running ?? []),
  };
  const queue = {
    add: jest.fn(),
    addRepeatable: jest.fn(),
    removePending: jest.fn().mockResolvedValue(false),
    kind: options.kind ?? 'bullmq',
    consuming: true,
  };
  const outcomes = { fail: jest.fn().mockResolvedValue(true), complete: jest.fn().mockResolvedValue(true), publishProgress: jest.fn() };
  const inputs = { startInput: jest.fn().mockResolvedValue({ generationId: ID }), forget: jest.fn().mockResolvedValue(undefined) };
  const provider: jest.Mocked<AiProvider> = {
    name: 'preview',
    supportsWebhooks: false,
    generatesWithAi: false,
    inputSpec: jest.fn().mockReturnValue({ minSide: 1, maxSide: 4096, acceptsDataUri: false }),
    start: jest.fn().mockResolvedValue({ jobId: 'job-1' }),
    status: jest.fn().mockResolvedValue({ state: 'processing' }),
    cancel: jest.fn().mockResolvedValue(undefined),
    discard: jest.fn().mockResolvedValue(undefined),
  };
  const storage = { put: jest.fn(), delete: jest.fn() };
  const config = testConfig({ ai: AI });
  const worker = new GenerationWorkerService(
    repo as unknown as GenerationsRepository,
    queue as unknown as MessageQueueService,
    new GenerationPipeline(queue as unknown as MessageQueueService, provider, storage as unknown as StoragePort),
    outcomes as unknown as GenerationOutcomesService,
    inputs as unknown as ProviderInputsService,
    provider,
    storage as unknown as StoragePort,
    config,
    // the likeness guard with FACE_CHECKS off: every result passes unchecked
    { judge: jest.fn().mockResolvedValue({ outcome: 'unchecked', distance: null }) } as unknown as LikenessService,
  );
  return { worker, repo, queue, outcomes, provider, storage, inputs };
}

const ctx = (jobId = '7'): JobContext => ({ jobId, attempt: 1, maxAttempts: 3, name: JobName.GenerationPoll });

describe('GenerationWorkerService: every step at most once', () => {
  it('calls the provider start only after claiming the start, and schedules poll 1', async () => {
    const { worker, provider, queue, repo } = setup();
    await worker.handleSubmit({ generationId: ID });
    expect(provider.start).toHaveBeenCalledTimes(1);
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationPoll,
      { generationId: ID, n: 1, source: 'poll' },
      expect.objectContaining({ jobId: `poll-${ID}-1`, delayMs: 100 }),
    );
    // the job id goes with the number of checks that fit in the minute left (the progress counts to it)
    const [, jobId, maxPolls] = repo.recordProviderJob.mock.calls[0];
    expect(jobId).toBe('job-1');
    expect(maxPolls).toBeGreaterThanOrEqual(checksWithin(59_000, SCHEDULE));
    expect(maxPolls).toBeLessThanOrEqual(checksWithin(60_000, SCHEDULE));
  });

  it('starts nothing when the queue held the start past its deadline: timed out, nothing charged', async () => {
    const { worker, repo, provider, outcomes } = setup();
    repo.claimSubmit.mockResolvedValue(claimed({ deadlineAt: new Date(Date.now() - 1) }));
    await worker.handleSubmit({ generationId: ID });
    expect(provider.start).not.toHaveBeenCalled();
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Operation timed out: generation. Please try again.', expect.anything());
  });

  it('counts the budget of a row without a deadline (written before the column) from its creation', async () => {
    const { worker, repo, provider, outcomes } = setup();
    repo.claimSubmit.mockResolvedValue(claimed({ deadlineAt: null, createdAt: new Date(Date.now() - 61_000) }));
    await worker.handleSubmit({ generationId: ID });
    expect(provider.start).not.toHaveBeenCalled();
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Operation timed out: generation. Please try again.', expect.anything());
    outcomes.fail.mockClear();
    repo.claimSubmit.mockResolvedValue(claimed({ deadlineAt: null, createdAt: new Date(Date.now() - 30_000) }));
    await worker.handleSubmit({ generationId: ID });
    expect(provider.start).toHaveBeenCalledTimes(1);
    expect(outcomes.fail).not.toHaveBeenCalled();
  });

  it('never calls start for a retried or duplicated submit (the claim is taken)', async () => {
    const { worker, repo, provider, queue } = setup();
    repo.claimSubmit.mockResolvedValue(null);
    repo.findById.mockResolvedValue(row({ providerJobId: 'job-1', polls: 0 }));
    await worker.handleSubmit({ generationId: ID });
    expect(provider.start).not.toHaveBeenCalled();
    // the first poll is (re)added; its job id makes that a no-op when it is already queued
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationPoll,
      expect.objectContaining({ n: 1 }),
      expect.objectContaining({ jobId: `poll-${ID}-1` }),
    );
  });

  it('asks the provider to stop when the generation was cancelled while starting', async () => {
    const { worker, repo, provider, queue } = setup();
    repo.recordProviderJob.mockResolvedValue(false);
    await worker.handleSubmit({ generationId: ID });
    expect(provider.cancel).toHaveBeenCalledWith('job-1');
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('deletes the copies made for the vendor when the generation was cancelled while a start that then failed was on its way', async () => {
    for (const error of [
      new ProviderError(ProviderErrorKind.Rejected, 'bad input'),
      new ProviderError(ProviderErrorKind.RateLimited, '429'),
    ]) {
      const { worker, repo, provider, outcomes, inputs, queue } = setup();
      provider.start.mockRejectedValue(error);
      outcomes.fail.mockResolvedValue(false); // it had ended already (cancelled)
      repo.releaseSubmit.mockResolvedValue(false); // likewise: nothing to start again
      await worker.handleSubmit({ generationId: ID });
      expect(inputs.forget).toHaveBeenCalledWith('u1', ID);
      expect(queue.add).not.toHaveBeenCalled();
    }
  });

  it('keeps the copies of a start that will be tried again, and leaves a failure to its own clean-up', async () => {
    const { worker, provider, inputs } = setup();
    provider.start.mockRejectedValueOnce(new ProviderError(ProviderErrorKind.RateLimited, '429'));
    await worker.handleSubmit({ generationId: ID });
    provider.start.mockRejectedValueOnce(new ProviderError(ProviderErrorKind.Rejected, 'bad input'));
    await worker.handleSubmit({ generationId: ID });
    expect(inputs.forget).not.toHaveBeenCalled();
  });

  it('fails a start that timed out (never retried: the vendor may have started it)', async () => {
    const { worker, provider, outcomes, repo, queue } = setup();
    provider.start.mockRejectedValue(new ProviderError(ProviderErrorKind.Timeout, 'slow'));
    await worker.handleSubmit({ generationId: ID });
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Operation timed out: generation. Please try again.', expect.anything());
    expect(repo.releaseSubmit).not.toHaveBeenCalled(); // the marker stays: no later job may start it
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('tries a start refused with 429 again later, but not when the wait would pass its deadline', async () => {
    const { worker, provider, outcomes, repo, queue } = setup();
    provider.start.mockRejectedValue(new ProviderError(ProviderErrorKind.RateLimited, '429', { status: 429, retryAfterMs: 1000 }));
    await worker.handleSubmit({ generationId: ID });
    expect(repo.releaseSubmit).toHaveBeenCalledWith(ID);
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationSubmit,
      { generationId: ID },
      expect.objectContaining({ jobId: `submit-${ID}-2`, delayMs: expect.any(Number) }),
    );
    expect(outcomes.fail).not.toHaveBeenCalled();

    repo.releaseSubmit.mockClear();
    queue.add.mockClear();
    repo.claimSubmit.mockResolvedValue(claimed({ deadlineAt: new Date(Date.now() + 500) }));
    await worker.handleSubmit({ generationId: ID });
    expect(repo.releaseSubmit).not.toHaveBeenCalled();
    expect(queue.add).not.toHaveBeenCalled();
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Failed to start generation', expect.anything());
  });

  it('does nothing for a poll step another job claimed', async () => {
    const { worker, repo, provider } = setup();
    repo.claimPoll.mockResolvedValue(null);
    await worker.handlePoll({ generationId: ID, n: 2 }, ctx());
    expect(provider.status).not.toHaveBeenCalled();
    expect(repo.claimPoll).toHaveBeenCalledWith(ID, 2, `${JobName.GenerationPoll}:7`);
  });

  it("removes the waiting timed step when the webhook's step of the same number runs, and only then", async () => {
    const { worker, repo, queue } = setup();
    queue.removePending.mockResolvedValue(true);
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 3 }));
    await worker.handlePoll({ generationId: ID, n: 3, source: 'webhook' }, ctx());
    expect(queue.removePending).toHaveBeenCalledWith(JobName.GenerationPoll, `poll-${ID}-3`);
    queue.removePending.mockClear();
    await worker.handlePoll({ generationId: ID, n: 4, source: 'poll' }, ctx());
    expect(queue.removePending).not.toHaveBeenCalled();
    repo.claimPoll.mockResolvedValue(null); // a webhook whose step was claimed already changes nothing
    await worker.handlePoll({ generationId: ID, n: 4, source: 'webhook' }, ctx());
    expect(queue.removePending).not.toHaveBeenCalled();
  });

  it('schedules the next step while processing, each wait half as long again (100, 150, 225 ms ...)', async () => {
    const { worker, repo, queue, outcomes } = setup();
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 2, maxPolls: 70 }));
    await worker.handlePoll({ generationId: ID, n: 2 }, ctx());
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationPoll,
      { generationId: ID, n: 3, source: 'poll' },
      expect.objectContaining({ jobId: `poll-${ID}-3`, delayMs: 225 }),
    );
    expect(outcomes.fail).not.toHaveBeenCalled();
  });

  it('moves a check that would fall just before the deadline to the deadline: the last check, numbered max_polls', async () => {
    const { worker, repo, queue } = setup();
    // 300 ms left: check 3 would come 225 ms from now, less than the slack (100 ms) before the deadline
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 2, maxPolls: 4, deadlineAt: new Date(Date.now() + 300) }));
    await worker.handlePoll({ generationId: ID, n: 2 }, ctx());
    const [, payload, opts] = queue.add.mock.calls[0];
    expect(payload).toEqual({ generationId: ID, n: 4, source: 'poll' });
    expect(opts.jobId).toBe(`poll-${ID}-4`);
    expect(opts.delayMs).toBeGreaterThan(200);
    expect(opts.delayMs).toBeLessThanOrEqual(300);
  });

  it('at its deadline: still processing, it fails with the timeout and the vendor is asked to cancel and forget the job', async () => {
    const { worker, repo, queue, outcomes, provider } = setup();
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 4, maxPolls: 4, deadlineAt: new Date(Date.now() - 5) }));
    await worker.handlePoll({ generationId: ID, n: 4 }, ctx());
    expect(provider.status).toHaveBeenCalledWith('job-1', expect.anything()); // asked once more first
    expect(queue.add).not.toHaveBeenCalled();
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Operation timed out: generation. Please try again.', expect.anything());
    expect(provider.cancel).toHaveBeenCalledWith('job-1');
    expect(provider.discard).toHaveBeenCalledWith('job-1');
  });

  it('at its deadline: a result the last check finds is taken and charged, and nothing is cancelled', async () => {
    const { worker, repo, outcomes, provider } = setup();
    const jpeg = await sharp({ create: { width: 64, height: 80, channels: 3, background: '#c08060' } })
      .jpeg()
      .toBuffer();
    provider.status.mockResolvedValue({ state: 'completed', result: { buffer: jpeg, contentType: 'image/jpeg' } });
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 4, maxPolls: 4, deadlineAt: new Date(Date.now() - 5) }));
    await worker.handlePoll({ generationId: ID, n: 4 }, ctx());
    expect(outcomes.complete).toHaveBeenCalledTimes(1);
    expect(outcomes.fail).not.toHaveBeenCalled();
    expect(provider.cancel).not.toHaveBeenCalled();
  });

  it('at its deadline: a generation that ended otherwise meanwhile (cancelled, completed by a webhook) is not cancelled again', async () => {
    const { worker, repo, outcomes, provider } = setup();
    outcomes.fail.mockResolvedValue(false);
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 4, maxPolls: 4, deadlineAt: new Date(Date.now() - 5) }));
    await worker.handlePoll({ generationId: ID, n: 4 }, ctx());
    expect(outcomes.fail).toHaveBeenCalledTimes(1);
    expect(provider.cancel).not.toHaveBeenCalled();
  });

  it('at its deadline after failed checks: "Generation failed", not the timeout', async () => {
    const { worker, repo, outcomes, provider } = setup();
    provider.status.mockRejectedValue(new ProviderError(ProviderErrorKind.BadResponse, '503', { status: 503 }));
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 4, maxPolls: 4, deadlineAt: new Date(Date.now() - 5) }));
    await worker.handlePoll({ generationId: ID, n: 4, errors: 2 }, ctx());
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Generation failed', expect.objectContaining({ detail: expect.stringContaining('3') }));
    expect(provider.cancel).toHaveBeenCalledWith('job-1');
  });

  it('counts a transient status error as a poll, and fails on an unknown task', async () => {
    const { worker, repo, queue, outcomes, provider } = setup();
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 1 }));
    provider.status.mockRejectedValueOnce(new ProviderError(ProviderErrorKind.RateLimited, '429', { retryAfterMs: 2000 }));
    await worker.handlePoll({ generationId: ID, n: 1 }, ctx());
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationPoll,
      expect.objectContaining({ n: 2 }),
      expect.objectContaining({ delayMs: 2000 }),
    );
    provider.status.mockRejectedValueOnce(new ProviderError(ProviderErrorKind.NotFound, 'expired'));
    await worker.handlePoll({ generationId: ID, n: 2 }, ctx());
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Generation failed', expect.anything());
  });

  it('waits longer after each status check that fails in a row, and never less than Retry-After', async () => {
    const { worker, repo, queue, provider } = setup();
    repo.claimPoll.mockResolvedValue(claimed({ providerJobId: 'job-1', polls: 1, maxPolls: 10 }));
    const delays: number[] = [];
    for (let n = 1; n <= 4; n++) {
      queue.add.mockClear();
      provider.status.mockRejectedValueOnce(new ProviderError(ProviderErrorKind.BadResponse, '503', { status: 503 }));
      await worker.handlePoll({ generationId: ID, n, errors: n - 1 }, ctx());
      const [, payload, opts] = queue.add.mock.calls[0];
      expect(payload).toMatchObject({ n: n + 1, errors: n });
      delays.push(opts.delayMs);
    }
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]);
    // a good answer starts the count again
    queue.add.mockClear();
    provider.status.mockResolvedValueOnce({ state: 'processing' });
    await worker.handlePoll({ generationId: ID, n: 5, errors: 4 }, ctx());
    expect(queue.add.mock.calls[0][1]).not.toHaveProperty('errors');
  });

  describe('resume (boot and sweep)', () => {
    const old = new Date(Date.now() - 10 * 60_000);
    const base = { type: 'image' as const, createdAt: old, deadlineAt: new Date(Date.now() + 60_000), readAt: new Date() };
    const running: RunningRow[] = [
      { ...base, id: 'a', providerJobId: 'job-a', submitStartedAt: old, polls: 4, updatedAt: old },
      { ...base, id: 'b', providerJobId: null, submitStartedAt: null, polls: 0, updatedAt: old },
      { ...base, id: 'c', providerJobId: null, submitStartedAt: old, polls: 0, updatedAt: old },
      { ...base, id: 'd', providerJobId: null, submitStartedAt: new Date(), polls: 0, updatedAt: old },
    ];

    it('polls the next step, submits what never started, and fails a start in doubt instead of starting it again', async () => {
      const { worker, queue, outcomes, provider } = setup({ running });
      expect(await worker.resume(false)).toBe(3);
      expect(queue.add).toHaveBeenCalledWith(
        JobName.GenerationPoll,
        { generationId: 'a', n: 5, source: 'resume' },
        expect.objectContaining({ jobId: 'poll-a-5' }),
      );
      expect(queue.add).toHaveBeenCalledWith(JobName.GenerationSubmit, { generationId: 'b' }, { jobId: 'submit-b' });
      expect(outcomes.fail).toHaveBeenCalledWith('c', 'Failed to start generation', expect.anything());
      expect(outcomes.fail).not.toHaveBeenCalledWith('d', expect.anything(), expect.anything()); // its start may still be running
      expect(provider.start).not.toHaveBeenCalled();
    });

    it('past its deadline: one that never reached the vendor fails with the timeout; one at the vendor gets its last check at once', async () => {
      const past = { ...base, deadlineAt: new Date(Date.now() - 1000), readAt: new Date() };
      const { worker, queue, outcomes, provider } = setup({
        running: [
          { ...past, id: 'e', providerJobId: null, submitStartedAt: null, polls: 0, updatedAt: old },
          { ...past, id: 'f', providerJobId: 'job-f', submitStartedAt: old, polls: 9, updatedAt: old },
        ],
      });
      expect(await worker.resume(false)).toBe(2);
      expect(outcomes.fail).toHaveBeenCalledWith('e', 'Operation timed out: generation. Please try again.', expect.anything());
      expect(queue.add).not.toHaveBeenCalledWith(JobName.GenerationSubmit, expect.anything(), expect.anything());
      expect(queue.add).toHaveBeenCalledWith(
        JobName.GenerationPoll,
        { generationId: 'f', n: 10, source: 'resume' },
        expect.objectContaining({ jobId: 'poll-f-10', delayMs: 0 }),
      );
      expect(provider.start).not.toHaveBeenCalled();
    });

    it('at an in-process boot, resumes everything (nothing else can be running)', async () => {
      const { worker, repo, outcomes } = setup({ kind: 'in-process', running });
      expect(await worker.resume(true)).toBe(4);
      expect(repo.findRunning).toHaveBeenCalledWith(undefined);
      expect(outcomes.fail).toHaveBeenCalledWith('d', 'Failed to start generation', expect.anything());
    });

    it('with BullMQ, looks only at generations untouched for longer than a step can take', async () => {
      const { worker, repo } = setup({ kind: 'bullmq' });
      await worker.resume(true);
      const before = repo.findRunning.mock.calls[0][0] as Date;
      expect(Date.now() - before.getTime()).toBeGreaterThanOrEqual(testConfig().ai.requestTimeoutMs * 2);
    });
  });
});

describe('withTimeout', () => {
  it('aborts the signal and rejects when the call takes too long, even if it ignores the signal', async () => {
    let seen: AbortSignal | undefined;
    const never = (signal: AbortSignal) => {
      seen = signal;
      return new Promise<string>(() => undefined);
    };
    await expect(withTimeout(20, 'start', never)).rejects.toBeInstanceOf(StepTimeoutError);
    expect(seen?.aborted).toBe(true);
    await expect(withTimeout(1000, 'x', async () => 'ok')).resolves.toBe('ok');
  });
});

describe('vendor retries', () => {
  const refused = (code: string) =>
    new ProviderError(ProviderErrorKind.Network, 'unreachable', {
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code } }),
    });

  it('a start is tried again only when the vendor cannot have started anything', () => {
    expect(startMayBeRetried(new ProviderError(ProviderErrorKind.RateLimited, '429', { status: 429 }))).toBe(true);
    expect(startMayBeRetried(new ProviderError(ProviderErrorKind.BadResponse, '503', { status: 503 }))).toBe(true);
    // a gateway timeout: the service behind the gateway may have started the job
    expect(startMayBeRetried(new ProviderError(ProviderErrorKind.BadResponse, '504', { status: 504 }))).toBe(false);
    expect(startMayBeRetried(refused('ECONNREFUSED'))).toBe(true);
    // a reset, a timeout or a malformed 200 may hide a started job
    expect(startMayBeRetried(refused('ECONNRESET'))).toBe(false);
    expect(startMayBeRetried(new ProviderError(ProviderErrorKind.Timeout, 'slow'))).toBe(false);
    expect(startMayBeRetried(new ProviderError(ProviderErrorKind.BadResponse, 'not JSON', { status: 200 }))).toBe(false);
    expect(startMayBeRetried(new ProviderError(ProviderErrorKind.Rejected, 'bad input', { status: 400 }))).toBe(false);
  });

  it('backs off exponentially within +-20 %, capped, and Retry-After wins when longer', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 1000, 60_000, undefined, mid))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(10, 1000, 60_000, undefined, mid)).toBe(60_000);
    expect(backoffMs(1, 1000, 60_000, undefined, () => 0)).toBe(800);
    expect(backoffMs(1, 1000, 60_000, undefined, () => 1)).toBe(1200);
    expect(backoffMs(1, 1000, 60_000, 5000, mid)).toBe(5000);
    expect(backoffMs(3, 1000, 60_000, 1500, mid)).toBe(4000);
  });
});

describe('GenerationWorkerService: results in memory', () => {
  it(`holds at most ${RESULTS_IN_MEMORY} results at once, however many steps finish together`, async () => {
    const { worker, repo, provider, storage, outcomes } = setup();
    const jpeg = await sharp({ create: { width: 64, height: 80, channels: 3, background: '#c08060' } })
      .jpeg()
      .toBuffer();
    provider.status.mockResolvedValue({ state: 'completed', result: { buffer: jpeg, contentType: 'image/jpeg' } });
    let storing = 0;
    let most = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    storage.put.mockImplementation(async () => {
      most = Math.max(most, ++storing);
      await released;
      storing--;
    });
    const steps = Array.from({ length: RESULTS_IN_MEMORY + 4 }, (_, i) => {
      repo.claimPoll.mockResolvedValueOnce(claimed({ id: `${ID.slice(0, -2)}${String(i).padStart(2, '0')}`, providerJobId: `job-${i}` }));
      return worker.handlePoll({ generationId: ID, n: 1 }, ctx(String(i)));
    });
    // the first ones reach the store (how soon depends on the machine) ...
    for (const until = Date.now() + 10_000; storing < RESULTS_IN_MEMORY && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(storing).toBe(RESULTS_IN_MEMORY);
    // ... and while they are held there, the others wait their turn instead of joining them
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(most).toBe(RESULTS_IN_MEMORY);
    release();
    await Promise.all(steps);
    expect(outcomes.complete).toHaveBeenCalledTimes(RESULTS_IN_MEMORY + 4);
    expect(most).toBe(RESULTS_IN_MEMORY);
  });
});
