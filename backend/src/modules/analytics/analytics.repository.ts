import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AnalyticsEventEntity, AnalyticsEventName } from './analytics-event.entity';
import { ActivityType, UserActivityLogEntity } from './user-activity-log.entity';

/** A user's generations counted for the product's stats. */
export interface GenerationCounts {
  total: number;
  completed: number;
  failed: number;
  spent: number;
}

/**
 * Every read and write of analytics_events and user_activity_logs, and the read model of the
 * per-user stats. `manager`: inside the caller's transaction.
 */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Deletes an account's activity log (an account taken back by the owner of its address starts clean). */
  async deleteActivityOf(userId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).query(`DELETE FROM user_activity_logs WHERE user_id = $1`, [userId]);
  }

  async insertEvent(event: AnalyticsEventName, userId: string | null, properties: Record<string, unknown>): Promise<void> {
    await this.db
      .getRepository(AnalyticsEventEntity)
      .insert({ event, userId, properties: properties as AnalyticsEventEntity['properties'] });
  }

  async insertActivity(userId: string, activityType: ActivityType, metadata: Record<string, unknown>): Promise<void> {
    await this.db
      .getRepository(UserActivityLogEntity)
      .insert({ userId, activityType, metadata: metadata as UserActivityLogEntity['metadata'] });
  }

  /**
   * An activity row and its analytics event in one statement (one round trip instead of two: a
   * generation records both when it starts and when it ends, `npm run bench:generations`).
   */
  async insertActivityAndEvent(
    userId: string,
    activityType: ActivityType,
    metadata: Record<string, unknown>,
    event: { name: AnalyticsEventName; properties: Record<string, unknown> },
  ): Promise<void> {
    await this.db.query(
      `WITH event AS (INSERT INTO analytics_events (user_id, event, properties) VALUES ($1, $4, $5))
       INSERT INTO user_activity_logs (user_id, activity_type, metadata) VALUES ($1, $2, $3)`,
      [userId, activityType, JSON.stringify(metadata), event.name, JSON.stringify(event.properties)],
    );
  }

  /** The time of the user's latest recorded activity, or null. */
  async lastActivityAt(userId: string): Promise<Date | null> {
    const row = await this.db
      .getRepository(UserActivityLogEntity)
      .findOne({ where: { userId }, order: { createdAt: 'DESC' }, select: { id: true, createdAt: true } });
    return row?.createdAt ?? null;
  }

  /**
   * A read model over user_generations (the generations module's table) for the stats report: every
   * generation started, the completed and failed ones, and the cost of the completed ones, in one
   * query. It stays here, read-only, because the generations module depends on this one (it tracks
   * events), so this one cannot depend on the generations module's repository.
   */
  async generationCounts(userId: string): Promise<GenerationCounts | undefined> {
    const [row] = (await this.db.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE status = 'completed')::int AS completed,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              coalesce(sum(cost) FILTER (WHERE status = 'completed'), 0)::int AS spent
         FROM user_generations WHERE user_id = $1`,
      [userId],
    )) as GenerationCounts[];
    return row;
  }
}
