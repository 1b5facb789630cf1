import { Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { newTestService } from '../../../test/helpers/new-test-service';
import { CreditsService } from '../credits/credits.service';
import { GenerationEventBus, GenerationLifecycle, type GenerationEventPayloads } from './generation-lifecycle';
import { GenerationOutcomesService } from './generation-outcomes.service';
import { GENERATION_MESSAGES } from './generation-progress';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import type { EntityManager } from 'typeorm';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

const ID = '6f0c1e9e-8d3b-4a51-9a43-0d1bb1b1a001';

const row = {
  id: ID,
  userId: 'u1',
  type: 'video',
  category: 'bikini',
  cost: 4,
  provider: 'fashn',
  createdAt: new Date(Date.now() - 5000),
} as GenerationEntity;

/** The outcomes over a real event bus, with listeners as given; the repository and credits mocked. */
function setup(listeners: Partial<{ [K in keyof GenerationEventPayloads]: (e: GenerationEventPayloads[K]) => unknown }> = {}) {
  const emitter = new EventEmitter2();
  const heard = { events: [] as Array<[string, unknown]> };
  for (const name of Object.values(GenerationLifecycle)) emitter.on(name, (e: unknown) => void heard.events.push([name, e]));
  for (const [name, listener] of Object.entries(listeners)) emitter.on(name, listener as (e: unknown) => unknown);
  const { sut, mock } = newTestService(GenerationOutcomesService, {
    provide: GenerationEventBus,
    useValue: new GenerationEventBus(emitter),
  });
  const manager = {} as EntityManager;
  const repo = mock(GenerationsRepository);
  repo.transaction.mockImplementation(((work: (m: EntityManager) => Promise<unknown>) => work(manager)) as never);
  repo.lockProcessing.mockResolvedValue({ id: ID, user_id: 'u1', type: 'image' });
  return { outcomes: sut, repo, credits: mock(CreditsService), manager, heard };
}

describe('GenerationOutcomesService', () => {
  it('completes: captures the hold and marks the row in one transaction, then tells that the cost was charged', async () => {
    const { outcomes, repo, credits, manager, heard } = setup();
    expect(await outcomes.complete(row, 'users/u1/results/x.mp4')).toBe(true);
    expect(credits.capture).toHaveBeenCalledWith(ID, 'Video generation', manager);
    expect(repo.markCompleted).toHaveBeenCalledWith(manager, ID, 'users/u1/results/x.mp4', undefined);
    expect(heard.events).toEqual([
      [
        GenerationLifecycle.completed,
        expect.objectContaining({ generationId: ID, userId: 'u1', type: 'video', charged: 4, provider: 'fashn' }),
      ],
    ]);
  });

  it('charges and tells nothing when the generation had ended already (a cancel won the race)', async () => {
    const { outcomes, repo, credits, heard } = setup();
    repo.lockProcessing.mockResolvedValue(null);
    expect(await outcomes.complete(row, 'k')).toBe(false);
    expect(credits.capture).not.toHaveBeenCalled();
    expect(heard.events).toEqual([]);
  });

  it('fails: releases the hold and marks the row, then tells the reason and whether the content was refused', async () => {
    const { outcomes, repo, credits, manager, heard } = setup();
    expect(await outcomes.fail(ID, 'Nudity is not allowed', { refused: true })).toBe(true);
    expect(credits.release).toHaveBeenCalledWith(ID, manager);
    expect(repo.markFailed).toHaveBeenCalledWith(manager, ID, 'Nudity is not allowed');
    expect(heard.events).toEqual([
      [
        GenerationLifecycle.failed,
        { generationId: ID, userId: 'u1', type: 'image', reason: 'Nudity is not allowed', refused: true, cancelled: false },
      ],
    ]);
  });

  it('tells a cancellation apart from a failure (the admin alerts do not count it)', async () => {
    const { outcomes, heard } = setup();
    await outcomes.fail(ID, GENERATION_MESSAGES.cancelled);
    expect(heard.events[0][1]).toMatchObject({ cancelled: true, refused: false });
  });

  it('releases nothing twice: a second failure of the same generation changes and tells nothing', async () => {
    const { outcomes, repo, credits, heard } = setup();
    repo.lockProcessing.mockResolvedValue(null);
    expect(await outcomes.fail(ID, 'Generation failed')).toBe(false);
    expect(credits.release).not.toHaveBeenCalled();
    expect(heard.events).toEqual([]);
  });

  it('settles even when a listener throws: the others still hear it and the caller gets its answer', async () => {
    const { outcomes, repo, credits, heard } = setup({
      [GenerationLifecycle.failed]: () => {
        throw new Error('analytics is down');
      },
      [GenerationLifecycle.completed]: async () => Promise.reject(new Error('mail is down')),
    });
    expect(await outcomes.fail(ID, 'Generation failed')).toBe(true);
    expect(credits.release).toHaveBeenCalled();
    expect(repo.markFailed).toHaveBeenCalled();
    expect(await outcomes.complete(row, 'k')).toBe(true);
    expect(heard.events.map(([name]) => name)).toEqual([GenerationLifecycle.failed, GenerationLifecycle.completed]);
  });

  it('announces a start with its progress first, then the held cost', async () => {
    const { outcomes, heard } = setup();
    const started = {
      ...row,
      status: GenerationStatus.Processing,
      stage: GenerationStage.Creating,
      polls: 0,
      maxPolls: 60,
      error: null,
      metadata: { outfit_id: 't1', scene_id: 's1', upload_path: 'p', upload_ids: ['p'] },
    } as GenerationEntity;
    await outcomes.started(started);
    expect(heard.events).toEqual([
      [
        GenerationLifecycle.progress,
        { generationId: ID, progress: expect.objectContaining({ stage: GenerationStage.Creating, poll: 0, max_polls: 60 }) },
      ],
      [
        GenerationLifecycle.started,
        { generationId: ID, userId: 'u1', type: 'video', category: 'bikini', cost: 4, templateId: 't1', sceneId: 's1' },
      ],
    ]);
  });
});
