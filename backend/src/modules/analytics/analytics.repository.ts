import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Reads and writes of user_activity_logs and analytics_events. `manager`: inside the caller's transaction. */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Deletes an account's activity log (an account taken back by the owner of its address starts clean). */
  async deleteActivityOf(userId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).query(`DELETE FROM user_activity_logs WHERE user_id = $1`, [userId]);
  }
}
