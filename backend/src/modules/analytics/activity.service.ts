import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ActivityType, UserActivityLogEntity } from './user-activity-log.entity';

/** Writes user_activity_logs. Recording is best effort: a failure is logged, never passed to the caller. */
@Injectable()
export class ActivityService {
  private readonly logger = new Logger('Activity');

  constructor(@InjectRepository(UserActivityLogEntity) private readonly logs: Repository<UserActivityLogEntity>) {}

  async record(userId: string, activityType: ActivityType, metadata: Record<string, unknown> = {}): Promise<void> {
    try {
      await this.logs.insert({ userId, activityType, metadata: metadata as UserActivityLogEntity['metadata'] });
    } catch (error) {
      this.logger.warn({ err: error, userId, activityType }, 'could not record user activity (is the user_activity_logs migration applied?)');
    }
  }

  /** The time of the user's latest recorded activity, or null. */
  async lastActivityAt(userId: string): Promise<Date | null> {
    const row = await this.logs.findOne({ where: { userId }, order: { createdAt: 'DESC' }, select: { id: true, createdAt: true } });
    return row?.createdAt ?? null;
  }
}
