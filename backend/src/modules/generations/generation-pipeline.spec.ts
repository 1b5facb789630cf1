import { Logger } from '@nestjs/common';
import { newTestService } from '../../../test/helpers/new-test-service';
import { JobName, MessageQueueService } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { GenerationPipeline } from './generation-pipeline';
import { AI_PROVIDER, type AiProvider } from './providers/ai-provider';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

const ID = '6f0c1e9e-8d3b-4a51-9a43-0d1bb1b1a001';

function setup() {
  const provider = { name: 'preview', cancel: jest.fn().mockResolvedValue(undefined), discard: jest.fn().mockResolvedValue(undefined) };
  const storage = { delete: jest.fn().mockResolvedValue(undefined) };
  const { sut, mock } = newTestService(
    GenerationPipeline,
    { provide: AI_PROVIDER, useValue: provider },
    { provide: STORAGE, useValue: storage },
  );
  const queue = mock(MessageQueueService);
  queue.add.mockResolvedValue(undefined);
  return {
    pipeline: sut,
    queue,
    provider: provider as unknown as jest.Mocked<Required<AiProvider>>,
    storage: storage as unknown as jest.Mocked<StoragePort>,
  };
}

describe('GenerationPipeline', () => {
  it('gives a start the same job id every time, so a second add of a pending start collapses into the first', async () => {
    const { pipeline, queue } = setup();
    await pipeline.submit(ID);
    await pipeline.submit(ID);
    expect(queue.add.mock.calls).toEqual([
      [JobName.GenerationSubmit, { generationId: ID }, { jobId: `submit-${ID}` }],
      [JobName.GenerationSubmit, { generationId: ID }, { jobId: `submit-${ID}` }],
    ]);
  });

  it('gives each retried start its own job id (the attempt), after the delay asked', async () => {
    const { pipeline, queue } = setup();
    await pipeline.resubmit({ id: ID, attempts: 1 }, 2500);
    await pipeline.resubmit({ id: ID, attempts: 2 }, 5000);
    expect(queue.add.mock.calls.map(([, , opts]) => opts)).toEqual([
      { delayMs: 2500, jobId: `submit-${ID}-2` },
      { delayMs: 5000, jobId: `submit-${ID}-3` },
    ]);
  });

  it('names a poll step by generation and step, a webhook step apart, and retries each step 3 times a second apart', async () => {
    const { pipeline, queue } = setup();
    await pipeline.schedulePoll(ID, 4, 'poll', 100);
    await pipeline.schedulePoll(ID, 4, 'resume', 0);
    await pipeline.schedulePoll(ID, 4, 'webhook');
    expect(queue.add.mock.calls).toEqual([
      [
        JobName.GenerationPoll,
        { generationId: ID, n: 4, source: 'poll' },
        { delayMs: 100, jobId: `poll-${ID}-4`, attempts: 3, backoffMs: 1000 },
      ],
      // a resumed step is the same step as the chain's: whichever is added second is a no-op
      [
        JobName.GenerationPoll,
        { generationId: ID, n: 4, source: 'resume' },
        { delayMs: 0, jobId: `poll-${ID}-4`, attempts: 3, backoffMs: 1000 },
      ],
      // a webhook's step runs at once, even while the chain's step of that number waits
      [JobName.GenerationPoll, { generationId: ID, n: 4, source: 'webhook' }, { jobId: `hook-${ID}-4`, attempts: 3, backoffMs: 1000 }],
    ]);
  });

  it('carries the count of status checks that failed in a row, and only when there is one', async () => {
    const { pipeline, queue } = setup();
    await pipeline.schedulePoll(ID, 2, 'poll', 800, 2);
    await pipeline.schedulePoll(ID, 3, 'poll', 100, 0);
    expect(queue.add.mock.calls.map(([, data]) => data)).toEqual([
      { generationId: ID, n: 2, source: 'poll', errors: 2 },
      { generationId: ID, n: 3, source: 'poll' },
    ]);
  });

  it('asks the provider to stop a job, and a provider that fails or cannot cancel never fails the caller', async () => {
    const { pipeline, provider } = setup();
    await pipeline.cancelAtProvider('job-1');
    expect(provider.cancel).toHaveBeenCalledWith('job-1');
    provider.cancel.mockRejectedValueOnce(new Error('vendor down'));
    await expect(pipeline.cancelAtProvider('job-2')).resolves.toBeUndefined();
    provider.discard.mockRejectedValueOnce(new Error('gone'));
    await expect(pipeline.discardAtProvider('job-2')).resolves.toBeUndefined();
  });

  it('queues no retry when the result file is deleted at once', async () => {
    const { pipeline, queue, storage } = setup();
    await pipeline.deleteResultFile('users/u1/results/r.jpg', ID);
    expect(storage.delete).toHaveBeenCalledWith('users/u1/results/r.jpg');
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('retries a result file that storage could not delete, minutes apart, one job per generation, and never throws', async () => {
    const { pipeline, queue, storage } = setup();
    storage.delete.mockRejectedValue(new Error('S3 down'));
    await pipeline.deleteResultFile('users/u1/results/r.jpg', ID);
    expect(queue.add).toHaveBeenCalledWith(
      JobName.GenerationFileDelete,
      { key: 'users/u1/results/r.jpg' },
      { attempts: 8, backoffMs: 60_000, jobId: `generation-file-${ID}` },
    );
    queue.add.mockRejectedValue(new Error('Redis down'));
    await expect(pipeline.deleteResultFile('users/u1/results/r.jpg', ID)).resolves.toBeUndefined();
  });
});
