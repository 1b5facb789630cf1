import { newTestService } from '../../../test/helpers/new-test-service';
import { GenerationPipeline } from './generation-pipeline';
import { GenerationStatus, type GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import { ProviderWebhooksService } from './provider-webhooks.service';
import { AI_PROVIDER, type AiProvider, type ProviderStatus } from './providers/ai-provider';

function setup(status: ProviderStatus) {
  const provider: Partial<AiProvider> = {
    name: 'fal',
    supportsWebhooks: true,
    parseWebhook: jest.fn().mockResolvedValue({ jobId: 'fal-ai/kling/requests/r1', status }),
  };
  const { sut, mock } = newTestService(ProviderWebhooksService, { provide: AI_PROVIDER, useValue: provider });
  return { service: sut, repo: mock(GenerationsRepository), pipeline: mock(GenerationPipeline) };
}

const row = (status: GenerationStatus) => ({ id: 'g1', status, polls: 4 }) as unknown as GenerationEntity;
const done: ProviderStatus = { state: 'completed', result: { url: 'https://v3.fal.media/files/out.jpg' } };

describe('ProviderWebhooksService.accept', () => {
  it('a final status of a running generation makes the worker check it now', async () => {
    const { service, repo, pipeline } = setup(done);
    repo.findByProviderJob.mockResolvedValue(row(GenerationStatus.Processing));
    await service.accept('fal', {}, Buffer.from('{}'), '/api/webhooks/ai/fal');
    expect(pipeline.schedulePoll).toHaveBeenCalledWith('g1', 5, 'webhook');
    expect(pipeline.discardAtProvider).not.toHaveBeenCalled();
  });

  it('a result that comes after the generation ended (cancelled, timed out) is not taken: the vendor is asked to forget it', async () => {
    const { service, repo, pipeline } = setup(done);
    repo.findByProviderJob.mockResolvedValue(row(GenerationStatus.Failed));
    await service.accept('fal', {}, Buffer.from('{}'), '/api/webhooks/ai/fal');
    expect(pipeline.schedulePoll).not.toHaveBeenCalled();
    expect(pipeline.discardAtProvider).toHaveBeenCalledWith('fal-ai/kling/requests/r1');
  });

  it('leaves a completed generation, and a job it cannot find yet (its start may still be recording it), alone', async () => {
    for (const found of [row(GenerationStatus.Completed), null]) {
      const { service, repo, pipeline } = setup(done);
      repo.findByProviderJob.mockResolvedValue(found);
      await service.accept('fal', {}, Buffer.from('{}'), '/api/webhooks/ai/fal');
      expect(pipeline.schedulePoll).not.toHaveBeenCalled();
      expect(pipeline.discardAtProvider).not.toHaveBeenCalled();
    }
  });
});
