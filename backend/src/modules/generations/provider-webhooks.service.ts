import { Inject, Injectable } from '@nestjs/common';
import { AuthError, NotFoundError } from '../../common/errors';
import { linkActiveSpanTo } from '../../common/observability/tracing';
import { GenerationPipeline } from './generation-pipeline';
import { GenerationStatus } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import { AI_PROVIDER, type AiProvider } from './providers/ai-provider';

/** The AI provider's callbacks: a verified final status makes the worker look at the generation now. */
@Injectable()
export class ProviderWebhooksService {
  constructor(
    @Inject(AI_PROVIDER) private readonly provider: AiProvider,
    private readonly repo: GenerationsRepository,
    private readonly pipeline: GenerationPipeline,
  ) {}

  /**
   * 404 unless it is the active provider and it has webhooks, 401 unless the provider says the call
   * is authentic. A final status adds an immediate poll step (which asks the provider, so the
   * webhook's body is never trusted beyond its job id). A final status for a generation that has
   * already ended (cancelled, timed out at its deadline, deleted) is never taken: the vendor is
   * asked to forget the job, so its late result does not wait on the vendor's side.
   */
  async accept(
    providerName: string,
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
    requestUrl: string,
  ): Promise<void> {
    if (providerName !== this.provider.name || !this.provider.supportsWebhooks || !this.provider.parseWebhook) {
      throw new NotFoundError('No such webhook.');
    }
    const parsed = await this.provider.parseWebhook(headers, rawBody, requestUrl);
    if (!parsed) throw new AuthError('Invalid webhook signature.');
    if (parsed.status.state === 'processing') return;
    const row = await this.repo.findByProviderJob(this.provider.name, parsed.jobId);
    if (!row) return; // unknown (not recorded yet: its start's answer may still be on its way; or deleted, which discarded it)
    // the webhook is a trace of the vendor's making: linked to the trace of the request that started the generation
    linkActiveSpanTo(row.metadata?.trace, { 'fitting_room.link': 'generation start' });
    if (row.status !== GenerationStatus.Processing) {
      // completed: our copy is stored and its discard ran; failed (cancelled, timed out): abandoned, forget its result
      if (row.status === GenerationStatus.Failed) await this.pipeline.discardAtProvider(parsed.jobId);
      return;
    }
    await this.pipeline.schedulePoll(row.id, row.polls + 1, 'webhook');
  }
}
