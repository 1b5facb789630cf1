import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Reads and writes of the users table for the other modules. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Until when the account's custom poses are paused (null: never paused); may be in the past. */
  async customPosePausedUntil(userId: string): Promise<Date | null> {
    const [row]: { custom_pose_paused_until: Date | null }[] = await this.db.query(`SELECT custom_pose_paused_until FROM users WHERE id = $1`, [userId]);
    return row?.custom_pose_paused_until ? new Date(row.custom_pose_paused_until) : null;
  }

  /** Pauses the account's custom poses until `until`, unless a pause runs already; answers whether it paused them. */
  async pauseCustomPoses(userId: string, until: Date, manager?: EntityManager): Promise<boolean> {
    const [, changed]: [unknown, number] = await (manager ?? this.db.manager).query(
      `UPDATE users SET custom_pose_paused_until = $2 WHERE id = $1 AND (custom_pose_paused_until IS NULL OR custom_pose_paused_until < now())`,
      [userId, until],
    );
    return changed > 0;
  }
}
