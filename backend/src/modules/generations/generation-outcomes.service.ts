import { Injectable, Logger } from '@nestjs/common';
import { CreditsService } from '../credits/credits.service';
import { GenerationEventBus, GenerationLifecycle } from './generation-lifecycle';
import { GENERATION_MESSAGES, progressOf } from './generation-progress';
import { GenerationsRepository } from './generations.repository';
import type { GenerationEntity } from './generation.entity';

/**
 * How a generation ends, exactly once: under a row lock, a processing generation becomes completed
 * (its hold captured) or failed (its hold released). A second attempt finds it no longer
 * processing and changes nothing, so nothing is charged or released twice. Then the event
 * (generation.completed, generation.failed) for whoever listens: analytics, activity, the admin
 * alerts, the event stream. A listener cannot undo or stop the outcome (GenerationEventBus).
 */
@Injectable()
export class GenerationOutcomesService {
  private readonly logger = new Logger('Generations');

  constructor(
    private readonly repo: GenerationsRepository,
    private readonly credits: CreditsService,
    private readonly bus: GenerationEventBus,
  ) {}

  /** Marks the generation failed with `reason` and releases its hold; false when it was no longer processing. */
  async fail(id: string, reason: string, details: { refused?: boolean; detail?: string } = {}): Promise<boolean> {
    const row = await this.repo.transaction(async (m) => {
      const locked = await this.repo.lockProcessing(m, id);
      if (!locked) return null;
      await this.credits.release(id, m);
      await this.repo.markFailed(m, id, reason);
      return locked;
    });
    if (!row) return false;
    this.logger.log(`Generation ${id} failed: ${reason}${details.detail && details.detail !== reason ? ` (${details.detail})` : ''}`);
    await this.bus.emit(GenerationLifecycle.failed, {
      generationId: id,
      userId: row.user_id,
      type: row.type,
      reason,
      refused: details.refused ?? false,
      cancelled: reason === GENERATION_MESSAGES.cancelled,
    });
    return true;
  }

  /** Captures the hold and marks the generation completed with its stored result; false when it was no longer processing. */
  async complete(row: GenerationEntity, resultKey: string, phash?: bigint): Promise<boolean> {
    const done = await this.repo.transaction(async (m) => {
      if (!(await this.repo.lockProcessing(m, row.id))) return false;
      await this.credits.capture(row.id, row.type === 'video' ? 'Video generation' : 'Image generation', m);
      await this.repo.markCompleted(m, row.id, resultKey, phash);
      return true;
    });
    if (!done) return false;
    await this.bus.emit(GenerationLifecycle.completed, {
      generationId: row.id,
      userId: row.userId,
      type: row.type,
      category: row.category,
      charged: row.cost,
      provider: row.provider,
      durationMs: Date.now() - new Date(row.createdAt).getTime(),
    });
    return true;
  }

  /** A generation was recorded, its cost held and its start queued. */
  async started(row: GenerationEntity): Promise<void> {
    await this.publishProgress(row);
    await this.bus.emit(GenerationLifecycle.started, {
      generationId: row.id,
      userId: row.userId,
      type: row.type,
      category: row.category,
      cost: row.cost,
      templateId: row.metadata.outfit_id,
      sceneId: row.metadata.scene_id,
    });
  }

  /** Where a running generation stands now (the person's event stream shows it). */
  publishProgress(row: Pick<GenerationEntity, 'id' | 'stage' | 'status' | 'polls' | 'maxPolls' | 'error' | 'provider'>): Promise<void> {
    return this.bus.emit(GenerationLifecycle.progress, { generationId: row.id, progress: progressOf(row) });
  }
}
