import { Logger } from '@nestjs/common';
import { newTestService } from '../../../test/helpers/new-test-service';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import { testConfig } from '../../config/test-config';
import { type StoragePort } from '../../storage';
import { AuditAction, AuditService, type AuditEntry } from '../audit/audit.service';
import { generationCost, scenesForCategory, TEMPLATES, type Tier } from '../catalog';
import { CreditsService } from '../credits/credits.service';
import { UploadsService } from '../uploads/uploads.service';
import { GenerationOutcomesService } from './generation-outcomes.service';
import { GenerationPipeline } from './generation-pipeline';
import { GenerationPlanner } from './generation-planner';
import { GenerationPresenter } from './generation-presenter';
import { GENERATION_MESSAGES } from './generation-progress';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import { GenerationsService } from './generations.service';
import type { AuthUser } from '../../common/auth';
import type { EntityManager } from 'typeorm';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

const ID = '6f0c1e9e-8d3b-4a51-9a43-0d1bb1b1a001';
const USER = '0b7c2d1e-1111-4222-8333-444455556666';

// a template and pose anyone may use, and a template only a paid plan opens, from the real catalogue
const freeTemplate = TEMPLATES.find(
  (t) => t.requiredTier === 'free' && scenesForCategory(t.category).some((s) => s.requiredTier === 'free'),
)!;
const freeScene = scenesForCategory(freeTemplate.category).find((s) => s.requiredTier === 'free')!;
const paidTemplate = TEMPLATES.find((t) => t.category === freeTemplate.category && t.requiredTier !== 'free')!;

const user = (tier: Tier = 'free'): AuthUser => ({ id: USER, role: 'user', tier, sessionId: 's' }) as AuthUser;
const body = (overrides: Record<string, unknown> = {}) => ({
  type: 'image' as const,
  category: freeTemplate.category,
  template_id: freeTemplate.id,
  scene_id: freeScene.id,
  upload_ids: ['p1'],
  ...overrides,
});

function row(overrides: Partial<GenerationEntity> = {}): GenerationEntity {
  return {
    id: ID,
    userId: USER,
    type: 'image',
    status: GenerationStatus.Processing,
    cost: 1,
    category: freeTemplate.category,
    prompt: 'p',
    metadata: { outfit_id: freeTemplate.id, scene_id: freeScene.id, upload_path: 'users/u/uploads/p1.jpg', upload_ids: ['p1'] },
    tier: 'free',
    stage: GenerationStage.Creating,
    polls: 0,
    maxPolls: 3,
    pollClaim: null,
    provider: 'preview',
    providerJobId: null,
    submitStartedAt: null,
    deadlineAt: null,
    attempts: 0,
    error: null,
    resultKey: null,
    resultPhash: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    completedAt: null,
    ...overrides,
  };
}

function setup() {
  const storage = { delete: jest.fn(), signedUrl: jest.fn().mockResolvedValue('https://signed') };
  const config = testConfig();
  const { sut, mock } = newTestService(
    GenerationsService,
    // the real rules (the catalogue's checks and the safety screen mocked) and the real answers
    { provide: GenerationPlanner, useValue: newTestService(GenerationPlanner).sut },
    { provide: GenerationPresenter, useValue: new GenerationPresenter(storage as unknown as StoragePort, config) },
    { provide: APP_CONFIG, useValue: config },
  );
  Object.defineProperty(mock(GenerationPipeline), 'providerName', { value: 'preview' });
  const manager = { name: 'the transaction' } as unknown as EntityManager;
  const repo = mock(GenerationsRepository);
  repo.transaction.mockImplementation(((work: (m: EntityManager) => Promise<unknown>) => work(manager)) as never);
  repo.hasRunning.mockResolvedValue(false);
  repo.findById.mockResolvedValue(row());
  repo.insert.mockResolvedValue(row());
  repo.findOwn.mockResolvedValue(row());
  repo.delete.mockResolvedValue(true);
  mock(UploadsService).findOwnedOrdered.mockResolvedValue([{ id: 'p1', storageKey: 'users/u/uploads/p1.jpg' }] as never);
  mock(GenerationOutcomesService).fail.mockResolvedValue(true);
  return { service: sut, mock, repo, manager, storage };
}

describe('GenerationsService.start', () => {
  it("refuses a template above the caller's plan, and records and holds nothing", async () => {
    const { service, repo, mock } = setup();
    await expect(service.start(user('free'), body({ template_id: paidTemplate.id }))).rejects.toBeInstanceOf(ForbiddenError);
    expect(repo.transaction).not.toHaveBeenCalled();
    expect(mock(CreditsService).hold).not.toHaveBeenCalled();
  });

  it('refuses a video to a plan without video', async () => {
    const { service, repo } = setup();
    await expect(service.start(user('free'), body({ type: 'video' }))).rejects.toThrow(ForbiddenError);
    expect(repo.transaction).not.toHaveBeenCalled();
  });

  it('records the generation and holds its cost in one transaction, then queues its start', async () => {
    const { service, repo, manager, mock } = setup();
    const answer = await service.start(user('free'), body());
    const cost = generationCost({ sceneId: freeScene.id, type: 'image' });
    const [inserted, budgetMs, insertManager] = repo.insert.mock.calls[0];
    expect(inserted).toMatchObject({ userId: USER, cost, status: GenerationStatus.Processing, provider: 'preview' });
    expect(insertManager).toBe(manager);
    // the image budget (AI_IMAGE_DEADLINE_SECONDS, 5 minutes) goes with the row, and the status checks that fit in it
    expect(budgetMs).toBe(300_000);
    expect(inserted.maxPolls).toBe(23);
    expect(mock(CreditsService).hold).toHaveBeenCalledWith(USER, inserted.id, cost, manager);
    expect(mock(GenerationPipeline).submit).toHaveBeenCalledWith(inserted.id);
    expect(answer.status).toBe(GenerationStatus.Processing);
  });

  it('gives a video the video budget (AI_VIDEO_DEADLINE_SECONDS, 15 minutes), as the settings say when it starts', async () => {
    const { service, repo } = setup();
    await service.start(user('model_mode'), body({ type: 'video' }));
    const [inserted, budgetMs] = repo.insert.mock.calls[0];
    expect(budgetMs).toBe(900_000);
    expect(inserted.maxPolls).toBe(63);
  });

  it('allows one running generation at a time: a second start is refused before anything is held', async () => {
    const { service, repo, mock } = setup();
    // the partial unique index refuses the row (the insert comes before the hold)
    repo.insert.mockRejectedValue(
      Object.assign(new Error('duplicate key'), { driverError: { code: '23505', constraint: 'user_generations_one_running_per_user' } }),
    );
    await expect(service.start(user(), body())).rejects.toThrow(new ConflictError(GENERATION_MESSAGES.alreadyRunning));
    expect(mock(CreditsService).hold).not.toHaveBeenCalled();
  });

  it("answers the same conflict when two starts race and the database's unique index refuses the second", async () => {
    const { service, repo } = setup();
    repo.transaction.mockRejectedValue(
      Object.assign(new Error('duplicate key'), { driverError: { code: '23505', constraint: 'user_generations_one_running_per_user' } }),
    );
    await expect(service.start(user(), body())).rejects.toThrow(new ConflictError(GENERATION_MESSAGES.alreadyRunning));
  });

  it('fails the generation (releasing its hold) and answers 503 when its start cannot be queued', async () => {
    const { service, mock } = setup();
    mock(GenerationPipeline).submit.mockRejectedValue(new Error('Redis down'));
    await expect(service.start(user(), body())).rejects.toBeInstanceOf(ServiceUnavailableError);
    const [failedId, reason] = mock(GenerationOutcomesService).fail.mock.calls[0];
    expect(failedId).toBe(mock(GenerationPipeline).submit.mock.calls[0][0]);
    expect(reason).toBe(GENERATION_MESSAGES.startFailed);
  });
});

describe('GenerationsService.cancel', () => {
  it('cancels a running generation and asks the provider to stop its job and forget it (no file left behind)', async () => {
    const { service, repo, mock } = setup();
    repo.findOwn
      .mockResolvedValueOnce(row({ providerJobId: 'job-1' }))
      .mockResolvedValue(row({ status: GenerationStatus.Failed, error: 'Cancelled' }));
    const answer = await service.cancel(USER, ID);
    expect(mock(GenerationOutcomesService).fail).toHaveBeenCalledWith(ID, GENERATION_MESSAGES.cancelled);
    expect(mock(GenerationPipeline).abandonAtProvider).toHaveBeenCalledWith('job-1');
    expect(answer.error).toBe('Cancelled');
  });

  it('refuses to cancel a generation that has ended, and leaves the provider alone', async () => {
    const { service, repo, mock } = setup();
    repo.findOwn.mockResolvedValue(row({ status: GenerationStatus.Completed, providerJobId: 'job-1' }));
    await expect(service.cancel(USER, ID)).rejects.toThrow(new ConflictError(GENERATION_MESSAGES.notRunning));
    expect(mock(GenerationPipeline).abandonAtProvider).not.toHaveBeenCalled();
  });
});

describe('GenerationsService.remove', () => {
  const audit: AuditEntry = {
    actorId: 'admin',
    action: AuditAction.GenerationRemove,
    targetType: 'generation',
    targetId: ID,
    after: { removed: true },
  };

  it("writes the admin's audit row in the transaction that deletes the row, then deletes the file", async () => {
    const { service, repo, manager, mock } = setup();
    repo.findOwn.mockResolvedValue(row({ status: GenerationStatus.Completed, resultKey: 'users/u/results/r.jpg' }));
    await service.remove(USER, ID, { audit });
    expect(repo.delete).toHaveBeenCalledWith(USER, ID, manager);
    expect(mock(AuditService).record).toHaveBeenCalledWith(audit, manager);
    expect(mock(GenerationPipeline).deleteResultFile).toHaveBeenCalledWith('users/u/results/r.jpg', ID);
  });

  it('writes no audit row and keeps the file when the row was gone already', async () => {
    const { service, repo, mock } = setup();
    repo.findOwn.mockResolvedValue(row({ status: GenerationStatus.Completed, resultKey: 'users/u/results/r.jpg' }));
    repo.delete.mockResolvedValue(false);
    await expect(service.remove(USER, ID, { audit })).rejects.toBeInstanceOf(NotFoundError);
    expect(mock(AuditService).record).not.toHaveBeenCalled();
    expect(mock(GenerationPipeline).deleteResultFile).not.toHaveBeenCalled();
  });

  it('keeps the file when the audit row cannot be written (the transaction fails as a whole)', async () => {
    const { service, repo, mock } = setup();
    repo.findOwn.mockResolvedValue(row({ status: GenerationStatus.Completed, resultKey: 'users/u/results/r.jpg' }));
    mock(AuditService).record.mockRejectedValue(new Error('audit table locked'));
    await expect(service.remove(USER, ID, { audit })).rejects.toThrow('audit table locked');
    expect(mock(GenerationPipeline).deleteResultFile).not.toHaveBeenCalled();
  });

  it('cancels a running generation first, so its hold is released rather than left open', async () => {
    const { service, repo, mock } = setup();
    repo.findOwn.mockResolvedValue(row({ providerJobId: 'job-1' }));
    await service.remove(USER, ID);
    expect(mock(GenerationOutcomesService).fail).toHaveBeenCalledWith(ID, GENERATION_MESSAGES.cancelled);
    expect(mock(GenerationPipeline).cancelAtProvider).toHaveBeenCalledWith('job-1');
    expect(mock(AuditService).record).not.toHaveBeenCalled();
  });
});
