import { Injectable, Logger } from '@nestjs/common';
import { ActivityService } from './activity.service';
import { AnalyticsEventName } from './analytics-event.entity';
import { AnalyticsRepository } from './analytics.repository';

export interface UserStats {
  total_generations: number;
  successful_generations: number;
  failed_generations: number;
  total_credits_spent: number;
  last_activity: string | null;
}

/**
 * Product analytics stored server-side (analytics_events) and the per-user stats of the product.
 * Tracking is best effort: a failure is logged and swallowed (docs/product.md), so it never
 * fails the user's request.
 */
@Injectable()
export class AnalyticsService {
  private readonly logger = new Logger('Analytics');

  constructor(
    private readonly repo: AnalyticsRepository,
    private readonly activity: ActivityService,
  ) {}

  async track(event: AnalyticsEventName, userId: string | null, properties: Record<string, unknown> = {}): Promise<void> {
    try {
      await this.repo.insertEvent(event, userId, properties);
    } catch (error) {
      this.logger.warn({ err: error, event, userId }, 'could not record an analytics event');
    }
  }

  /**
   * The product's get_user_stats, counted from user_generations in one query: every generation
   * started, the completed and failed ones, and the credits spent (the cost of completed
   * generations: only those are charged; a failed one releases its hold). last_activity is the
   * latest recorded activity (sign-in, profile change, generation...). A failed read answers zeros
   * and null (docs/product.md).
   */
  async userStats(userId: string): Promise<UserStats> {
    try {
      const row = await this.repo.generationCounts(userId);
      const last = await this.activity.lastActivityAt(userId);
      return {
        total_generations: row?.total ?? 0,
        successful_generations: row?.completed ?? 0,
        failed_generations: row?.failed ?? 0,
        total_credits_spent: row?.spent ?? 0,
        last_activity: last ? last.toISOString() : null,
      };
    } catch (error) {
      this.logger.warn({ err: error, userId }, 'could not read the user stats');
      return { total_generations: 0, successful_generations: 0, failed_generations: 0, total_credits_spent: 0, last_activity: null };
    }
  }
}
