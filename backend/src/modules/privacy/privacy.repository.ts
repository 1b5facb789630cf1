import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { AnalyticsEventEntity } from '../analytics/analytics-event.entity';
import { UploadEntity } from '../uploads/upload.entity';
import { UserEntity } from '../users/user.entity';

/** A stale upload the retention sweep removes. */
export interface StaleUpload {
  id: string;
  storageKey: string;
}

/** The database side of account deletion and of the uploads retention sweep. */
@Injectable()
export class PrivacyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Deletes an account's personal rows in one transaction; answers whether the account existed.
   *
   * - analytics_events first: its rows are kept for the counts, but their properties (user_signup
   *   stores the email and full name) are emptied and user_id cleared. This must happen before the
   *   users row goes, since the foreign key then sets user_id to NULL and the rows can no longer be
   *   told apart.
   * - then the users row: every table that refers to it is ON DELETE CASCADE (sessions, settings,
   *   activity, credit account and holds, uploads, generations...) or SET NULL (credit ledger
   *   entries, kept so that the books still add up); test/privacy checks that no foreign key to
   *   users is anything else. audit_log rows stay (they have no foreign key) with their emails
   *   cleared.
   */
  async deleteAccountRows(userId: string): Promise<boolean> {
    return this.db.transaction(async (m) => {
      // lock the account first, so that a concurrent request for it waits rather than racing the cascade
      const user = await m.getRepository(UserEntity).createQueryBuilder('u').select('u.id').where('u.id = :userId', { userId }).setLock('pessimistic_write').getOne();
      if (!user) return false;
      await m
        .createQueryBuilder()
        .update(AnalyticsEventEntity)
        .set({ userId: null, properties: () => `'{}'::jsonb` })
        .where('user_id = :userId', { userId })
        .execute();
      // the audit trail outlives the account (it has no foreign key), without the account's email
      await m.query(`UPDATE audit_log SET target_email = NULL WHERE target_user_id = $1`, [userId]);
      await m.query(`UPDATE audit_log SET actor_email = NULL WHERE actor_id = $1`, [userId]);
      await m.getRepository(UserEntity).delete({ id: userId });
      return true;
    });
  }

  /**
   * One batch of the retention sweep, in one transaction: locks up to `limit` uploads neither
   * created nor used since `cutoff` (skipping rows another sweep holds), hands their storage keys to
   * `removeFiles`, then deletes the rows. When `removeFiles` throws, the rows stay and a later run
   * tries again (deleting a missing object is not an error, so a retry is safe). A generation that
   * touches one of these rows meanwhile waits for the lock and then finds it gone.
   */
  async deleteStaleUploadsBatch(cutoff: Date, limit: number, removeFiles: (uploads: StaleUpload[]) => Promise<void>): Promise<number> {
    return this.db.transaction(async (m) => {
      const repo = m.getRepository(UploadEntity);
      const rows = await repo
        .createQueryBuilder('u')
        .select(['u.id', 'u.storageKey'])
        .where('u.lastUsedAt < :cutoff AND u.createdAt < :cutoff', { cutoff })
        .orderBy('u.lastUsedAt', 'ASC')
        .limit(limit)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length === 0) return 0;
      await removeFiles(rows.map((r) => ({ id: r.id, storageKey: r.storageKey })));
      await repo.delete({ id: In(rows.map((r) => r.id)) });
      return rows.length;
    });
  }
}
