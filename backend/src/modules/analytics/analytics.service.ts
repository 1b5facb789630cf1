import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ActivityService } from './activity.service';
import { AnalyticsEventEntity, AnalyticsEventName } from './analytics-event.entity';

export interface UserStats {
  total_generations: number;
  successful_generations: number;
  failed_generations: number;
  total_credits_spent: number;
  last_activity: string | null;
}

/**
 * Product analytics stored server-side (analytics_events) and the per-user stats of the spec.
 * Tracking is best effort: a failure is logged and swallowed (product-spec section 8), so it never
 * fails the user's request.
 */
@Injectable()
export class AnalyticsService {
  private readonly logger = new Logger('Analytics');

  constructor(
    @InjectRepository(AnalyticsEventEntity) private readonly events: Repository<AnalyticsEventEntity>,
    private readonly activity: ActivityService,
  ) {}

  async track(event: AnalyticsEventName, userId: string | null, properties: Record<string, unknown> = {}): Promise<void> {
    try {
      await this.events.insert({ event, userId, properties: properties as AnalyticsEventEntity['properties'] });
    } catch (error) {
      this.logger.warn({ err: error, event, userId }, 'could not record an analytics event');
    }
  }

  /**
   * The spec's get_user_stats. Generations arrive with the generation pipeline (issue 5); until then
   * the counts are zero. last_activity is the latest recorded activity (sign-in, profile change...).
   */
  async userStats(userId: string): Promise<UserStats> {
    const last = await this.activity.lastActivityAt(userId);
    return {
      total_generations: 0,
      successful_generations: 0,
      failed_generations: 0,
      total_credits_spent: 0,
      last_activity: last ? last.toISOString() : null,
    };
  }
}
