import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { OpsEvents } from '../../common/ops-events';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ActivityService } from '../analytics/activity.service';
import { AnalyticsEventName } from '../analytics/analytics-event.entity';
import { AnalyticsService } from '../analytics/analytics.service';
import { ActivityType } from '../analytics/user-activity-log.entity';
import { CreditsService } from '../credits/credits.service';
import { GenerationEvent, GenerationEventsService } from './generation-events.service';
import { GENERATION_MESSAGES, progressOf } from './generation-progress';
import type { GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';

/** The product's analytics events of a generation (docs/product.md), and the activity rows. */
export const GENERATION_EVENTS = {
  started: AnalyticsEventName.GenerationStarted,
  completed: AnalyticsEventName.GenerationCompleted,
  failed: AnalyticsEventName.GenerationFailed,
};
export const GENERATION_ACTIVITY = {
  started: ActivityType.GenerationStarted,
  completed: ActivityType.GenerationCompleted,
  failed: ActivityType.GenerationFailed,
};

/**
 * How a generation ends, exactly once: under a row lock, a processing generation becomes completed
 * (its hold captured) or failed (its hold released). A second attempt finds it no longer
 * processing and changes nothing, so nothing is charged or released twice. Then the event, the
 * analytics event and the activity row (best effort).
 */
@Injectable()
export class GenerationOutcomesService {
  private readonly logger = new Logger('Generations');

  constructor(
    private readonly repo: GenerationsRepository,
    private readonly credits: CreditsService,
    private readonly events: GenerationEventsService,
    private readonly analytics: AnalyticsService,
    private readonly activity: ActivityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** who else hears that a generation failed (the admin notifications); absent in partial apps */
    @Optional() private readonly ops?: OpsEvents,
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
    await this.publish(id, { type: 'failed', reason });
    const properties = { generation_id: id, reason, refused: details.refused ?? false };
    await this.track(GENERATION_EVENTS.failed, row.user_id, properties);
    await this.activity.record(row.user_id, GENERATION_ACTIVITY.failed, properties);
    const cancelled = reason === GENERATION_MESSAGES.cancelled;
    await this.ops?.emit({ type: 'generation.failed', generationId: id, reason, refused: details.refused ?? false, cancelled });
    await this.ops?.emit({ type: 'generation.finished', generationId: id, userId: row.user_id, outcome: cancelled ? 'cancelled' : 'failed' });
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
    await this.publish(row.id, { type: 'completed' });
    const properties = {
      generation_id: row.id,
      type: row.type,
      category: row.category,
      cost: row.cost,
      provider: row.provider,
      duration_ms: Date.now() - new Date(row.createdAt).getTime(),
    };
    await this.track(GENERATION_EVENTS.completed, row.userId, properties);
    await this.activity.record(row.userId, GENERATION_ACTIVITY.completed, { generation_id: row.id, type: row.type, category: row.category, cost: row.cost });
    await this.ops?.emit({ type: 'generation.finished', generationId: row.id, userId: row.userId, outcome: 'completed' });
    return true;
  }

  async started(row: GenerationEntity): Promise<void> {
    await this.publishProgress(row);
    const properties = { generation_id: row.id, type: row.type, category: row.category, cost: row.cost, template_id: row.metadata.outfit_id, scene_id: row.metadata.scene_id };
    await this.track(GENERATION_EVENTS.started, row.userId, properties);
    await this.activity.record(row.userId, GENERATION_ACTIVITY.started, properties);
  }

  publishProgress(row: Pick<GenerationEntity, 'id' | 'stage' | 'status' | 'polls' | 'maxPolls' | 'error'>): Promise<void> {
    return this.publish(row.id, { type: 'progress', ...progressOf(row) });
  }

  publish(id: string, event: GenerationEvent): Promise<void> {
    return this.events.publish(id, event);
  }

  private async track(event: AnalyticsEventName, userId: string, properties: Record<string, unknown>): Promise<void> {
    if (this.config.features && !this.config.features.analytics) return;
    await this.analytics.track(event, userId, properties);
  }
}
