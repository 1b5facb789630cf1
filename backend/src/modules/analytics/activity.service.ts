import { Injectable, Logger } from '@nestjs/common';
import { AnalyticsEventName } from './analytics-event.entity';
import { AnalyticsRepository } from './analytics.repository';
import { ActivityType } from './user-activity-log.entity';

/** Writes user_activity_logs. Recording is best effort: a failure is logged, never passed to the caller. */
@Injectable()
export class ActivityService {
  private readonly logger = new Logger('Activity');

  constructor(private readonly repo: AnalyticsRepository) {}

  /** With `event`: its analytics event too, written with the row in one statement. */
  async record(
    userId: string,
    activityType: ActivityType,
    metadata: Record<string, unknown> = {},
    event?: { name: AnalyticsEventName; properties: Record<string, unknown> },
  ): Promise<void> {
    try {
      if (event) await this.repo.insertActivityAndEvent(userId, activityType, metadata, event);
      else await this.repo.insertActivity(userId, activityType, metadata);
    } catch (error) {
      this.logger.warn(
        { err: error, userId, activityType },
        'could not record user activity (is the user_activity_logs migration applied?)',
      );
    }
  }

  /** The time of the user's latest recorded activity, or null. */
  async lastActivityAt(userId: string): Promise<Date | null> {
    return this.repo.lastActivityAt(userId);
  }
}
