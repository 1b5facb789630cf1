import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityService } from './activity.service';
import { AnalyticsEventEntity } from './analytics-event.entity';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsService } from './analytics.service';
import { GenerationActivityListener } from './generation-activity.listener';
import { UserActivityLogEntity } from './user-activity-log.entity';

/** user_activity_logs, analytics_events and the per-user stats; it records each generation's start and end (GenerationActivityListener). */
@Module({
  imports: [TypeOrmModule.forFeature([UserActivityLogEntity, AnalyticsEventEntity])],
  providers: [AnalyticsRepository, ActivityService, AnalyticsService, GenerationActivityListener],
  exports: [AnalyticsRepository, ActivityService, AnalyticsService],
})
export class AnalyticsModule {}
