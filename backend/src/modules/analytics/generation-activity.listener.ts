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
import { AnalyticsService } from './analytics.service';
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
 * as a row of the person's activity. Both are best effort: they never fail the generation.
 */
@Injectable()
export class GenerationActivityListener {
  constructor(
    private readonly analytics: AnalyticsService,
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
    await this.track(GENERATION_EVENTS.started, e.userId, properties);
    await this.activity.record(e.userId, GENERATION_ACTIVITY.started, properties);
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
    await this.track(GENERATION_EVENTS.completed, e.userId, properties);
    await this.activity.record(e.userId, GENERATION_ACTIVITY.completed, {
      generation_id: e.generationId,
      type: e.type,
      category: e.category,
      cost: e.charged,
    });
  }

  @OnEvent(GenerationLifecycle.failed)
  async onFailed(e: GenerationFailedEvent): Promise<void> {
    const properties = { generation_id: e.generationId, reason: e.reason, refused: e.refused };
    await this.track(GENERATION_EVENTS.failed, e.userId, properties);
    await this.activity.record(e.userId, GENERATION_ACTIVITY.failed, properties);
  }

  private async track(event: AnalyticsEventName, userId: string, properties: Record<string, unknown>): Promise<void> {
    if (this.config.features && !this.config.features.analytics) return;
    await this.analytics.track(event, userId, properties);
  }
}
