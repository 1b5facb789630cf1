import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { APP_CONFIG } from '../../config/config.module';
import {
  GenerationLifecycle,
  type GenerationCompletedEvent,
  type GenerationFailedEvent,
  type GenerationStartedEvent,
} from '../generations/generation-lifecycle';
import { ActivityService } from './activity.service';
import { AnalyticsEventName } from './analytics-event.entity';
import { ActivityType } from './user-activity-log.entity';
import type { AppConfig } from '../../config/app-config';

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
 * Records a generation's start and end as an analytics event (unless analytics is turned off) and
 * as a row of the person's activity, in one statement. Both are best effort: they never fail the
 * generation.
 */
@Injectable()
export class GenerationActivityListener {
  constructor(
    private readonly activity: ActivityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnEvent(GenerationLifecycle.started)
  async onStarted(e: GenerationStartedEvent): Promise<void> {
    const properties = {
      generation_id: e.generationId,
      type: e.type,
      category: e.category,
      cost: e.cost,
      template_id: e.templateId,
      scene_id: e.sceneId,
    };
    await this.activity.record(e.userId, GENERATION_ACTIVITY.started, properties, this.event(GENERATION_EVENTS.started, properties));
  }

  @OnEvent(GenerationLifecycle.completed)
  async onCompleted(e: GenerationCompletedEvent): Promise<void> {
    const properties = {
      generation_id: e.generationId,
      type: e.type,
      category: e.category,
      cost: e.charged,
      provider: e.provider,
      duration_ms: e.durationMs,
    };
    await this.activity.record(
      e.userId,
      GENERATION_ACTIVITY.completed,
      { generation_id: e.generationId, type: e.type, category: e.category, cost: e.charged },
      this.event(GENERATION_EVENTS.completed, properties),
    );
  }

  @OnEvent(GenerationLifecycle.failed)
  async onFailed(e: GenerationFailedEvent): Promise<void> {
    const properties = { generation_id: e.generationId, reason: e.reason, refused: e.refused };
    await this.activity.record(e.userId, GENERATION_ACTIVITY.failed, properties, this.event(GENERATION_EVENTS.failed, properties));
  }

  /** The analytics event to record with the activity row, unless analytics is turned off. */
  private event(name: AnalyticsEventName, properties: Record<string, unknown>) {
    if (this.config.features && !this.config.features.analytics) return undefined;
    return { name, properties };
  }
}
