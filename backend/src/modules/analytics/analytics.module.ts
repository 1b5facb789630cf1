import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityService } from './activity.service';
import { AnalyticsEventEntity } from './analytics-event.entity';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';
import { UserActivityLogEntity } from './user-activity-log.entity';

/** user_activity_logs, analytics_events and the per-user stats. */
@Module({
  imports: [TypeOrmModule.forFeature([UserActivityLogEntity, AnalyticsEventEntity])],
  providers: [AnalyticsRepository, ActivityService, AnalyticsService],
  exports: [ActivityService, AnalyticsService, AnalyticsRepository],
})
export class AnalyticsModule {}
