import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { testConfig } from '../../config/test-config';
import { JobName, type JobContext, type MessageQueueService } from '../../queue';
import { GenerationPipeline } from './generation-pipeline';
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
import type { GenerationOutcomesService } from './generation-outcomes.service';
import type { GenerationsRepository, RunningRow } from './generations.repository';
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

function setup(options: { kind?: 'in-process' | 'bullmq'; running?: RunningRow[] } = {}) {
  const repo = {
    claimSubmit: jest.fn().mockResolvedValue(row()),
    claimPoll: jest.fn().mockResolvedValue(row()),
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
  };
  const storage = { put: jest.fn(), delete: jest.fn() };
  const config = testConfig({ ai: { pollIntervalMs: 100, maxPolls: 3 } });
  const worker = new GenerationWorkerService(
    repo as unknown as GenerationsRepository,
    queue as unknown as MessageQueueService,
    new GenerationPipeline(queue as unknown as MessageQueueService, provider, storage as unknown as StoragePort),
    outcomes as unknown as GenerationOutcomesService,
    inputs as unknown as ProviderInputsService,
    provider,
    storage as unknown as StoragePort,
    config,
  );
  return { worker, repo, queue, outcomes, provider, storage };
}

const ctx = (jobId = '7'): JobContext => ({ jobId, attempt: 1, maxAttempts: 3, name: JobName.GenerationPoll });

describe('GenerationWorkerService: every step at most once', () => {
  it('calls the provider start only after claiming the start, and schedules poll 1', async () => {
    const { worker, provider, queue } = setup();
    await worker.handleSubmit({ generationId: ID });
    expect(provider.start).toHaveBeenCalledTimes(1);
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationPoll,
      { generationId: ID, n: 1, source: 'poll' },
      expect.objectContaining({ jobId: `poll-${ID}-1`, delayMs: 100 }),
    );
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

  it('fails a start that timed out (never retried: the vendor may have started it)', async () => {
    const { worker, provider, outcomes } = setup();
    provider.start.mockRejectedValue(new ProviderError(ProviderErrorKind.Timeout, 'slow'));
    await worker.handleSubmit({ generationId: ID });
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Operation timed out: generation. Please try again.', expect.anything());
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
    repo.claimPoll.mockResolvedValue(row({ providerJobId: 'job-1', polls: 3 }));
    await worker.handlePoll({ generationId: ID, n: 3, source: 'webhook' }, ctx());
    expect(queue.removePending).toHaveBeenCalledWith(JobName.GenerationPoll, `poll-${ID}-3`);
    queue.removePending.mockClear();
    await worker.handlePoll({ generationId: ID, n: 4, source: 'poll' }, ctx());
    expect(queue.removePending).not.toHaveBeenCalled();
    repo.claimPoll.mockResolvedValue(null); // a webhook whose step was claimed already changes nothing
    await worker.handlePoll({ generationId: ID, n: 4, source: 'webhook' }, ctx());
    expect(queue.removePending).not.toHaveBeenCalled();
  });

  it('schedules the next step while processing, and times out after the last one', async () => {
    const { worker, repo, queue, outcomes, provider } = setup();
    repo.claimPoll.mockResolvedValue(row({ providerJobId: 'job-1', polls: 2 }));
    await worker.handlePoll({ generationId: ID, n: 2 }, ctx());
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationPoll,
      expect.objectContaining({ n: 3 }),
      expect.objectContaining({ jobId: `poll-${ID}-3` }),
    );
    queue.add.mockClear();
    repo.claimPoll.mockResolvedValue(row({ providerJobId: 'job-1', polls: 3 }));
    await worker.handlePoll({ generationId: ID, n: 3 }, ctx());
    expect(queue.add).not.toHaveBeenCalled();
    expect(outcomes.fail).toHaveBeenCalledWith(ID, 'Operation timed out: generation. Please try again.', expect.anything());
    expect(provider.cancel).toHaveBeenCalledWith('job-1');
  });

  it('counts a transient status error as a poll, and fails on an unknown task', async () => {
    const { worker, repo, queue, outcomes, provider } = setup();
    repo.claimPoll.mockResolvedValue(row({ providerJobId: 'job-1', polls: 1 }));
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
    repo.claimPoll.mockResolvedValue(row({ providerJobId: 'job-1', polls: 1, maxPolls: 10 }));
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
    const running: RunningRow[] = [
      { id: 'a', providerJobId: 'job-a', submitStartedAt: old, polls: 4, updatedAt: old },
      { id: 'b', providerJobId: null, submitStartedAt: null, polls: 0, updatedAt: old },
      { id: 'c', providerJobId: null, submitStartedAt: old, polls: 0, updatedAt: old },
      { id: 'd', providerJobId: null, submitStartedAt: new Date(), polls: 0, updatedAt: old },
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
      repo.claimPoll.mockResolvedValueOnce(row({ id: `${ID.slice(0, -2)}${String(i).padStart(2, '0')}`, providerJobId: `job-${i}` }));
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
