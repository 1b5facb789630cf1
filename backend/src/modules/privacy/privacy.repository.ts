import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AnalyticsEventEntity } from '../analytics/analytics-event.entity';
import { UploadEntity } from '../uploads/upload.entity';
import { UserEntity } from '../users/user.entity';
import { personalTextScrubber, REMOVED, scrubSnapshot, userIdHash } from './personal-text';

/** A stale upload the retention sweep removes. */
export interface StaleUpload {
  id: string;
  storageKey: string;
}

/** Who a deleted account was, for what lives outside the database (the outbox's mail files). */
export interface DeletedAccount {
  email: string;
  /** whether the account had verified its address */
  verified: boolean;
  /** whether another account still uses the address */
  addressInUse: boolean;
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
   * - text that outlives the account loses the person's words (forgetPersonalText): the audit trail,
   *   admin notifications, ledger reasons and support tickets.
   * - then the users row: every table that refers to it is ON DELETE CASCADE (sessions, settings,
   *   activity, credit account and holds, uploads, generations...) or SET NULL (credit ledger
   *   entries, kept so that the books still add up; support tickets, kept anonymised);
   *   test/privacy checks that no foreign key to users is anything else.
   *
   * Answers who the account was, or null when there was no such account.
   */
  async deleteAccountRows(userId: string): Promise<DeletedAccount | null> {
    return this.db.transaction(async (m) => {
      // the account's generations first, then the account: the order a generation's completion
      // takes them in (its row, then the account's through the gallery's version trigger), so a
      // completion under way finishes first instead of meeting the cascade in a deadlock
      await m.query(`SELECT id FROM user_generations WHERE user_id = $1 ORDER BY id FOR UPDATE`, [userId]);
      // then the account, so that a concurrent request for it waits rather than racing the cascade
      const user = await m
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .select(['u.id', 'u.email', 'u.fullName', 'u.emailVerifiedAt'])
        .where('u.id = :userId', { userId })
        .setLock('pessimistic_write')
        .getOne();
      if (!user) return null;
      // another account of the same address (its verified owner, when this one was removed because the owner
      // proved the address): what that person sent with the address is theirs, and stays
      const [others]: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM users WHERE email = $1 AND id <> $2`, [
        user.email,
        userId,
      ]);
      const addressInUse = others.n > 0;
      await m
        .createQueryBuilder()
        .update(AnalyticsEventEntity)
        .set({ userId: null, properties: () => `'{}'::jsonb` })
        .where('user_id = :userId', { userId })
        .execute();
      await this.forgetPersonalText(m, user, { byAddress: !addressInUse });
      await m.getRepository(UserEntity).delete({ id: userId });
      return { email: user.email, verified: user.emailVerifiedAt !== null, addressInUse };
    });
  }

  /**
   * In the caller's transaction, for an account taken over by the owner of its address: deletes
   * its uploads and generations (rows only; the caller deletes the files), the generations locked
   * first as deleteAccountRows takes them, and empties the properties of its analytics events (the
   * sign-up's event holds the name its maker typed; the events stay for the counts). Answers the
   * ids of the generations, whose credit holds the caller releases.
   */
  async deleteContentRows(m: EntityManager, userId: string): Promise<string[]> {
    const generations: { id: string }[] = await m.query(`SELECT id FROM user_generations WHERE user_id = $1 ORDER BY id FOR UPDATE`, [
      userId,
    ]);
    await m.query(`DELETE FROM user_generations WHERE user_id = $1`, [userId]);
    await m.query(`DELETE FROM uploads WHERE user_id = $1`, [userId]);
    await m
      .createQueryBuilder()
      .update(AnalyticsEventEntity)
      .set({ properties: () => `'{}'::jsonb` })
      .where('user_id = :userId', { userId })
      .execute();
    return generations.map((g) => g.id);
  }

  /**
   * What outlives a deleted account keeps no email, name or words of the person:
   * - audit_log rows about or by the account: emails cleared, free-text fields of the snapshots
   *   removed and the name and address scrubbed from the rest (the rows have no foreign key);
   * - support tickets the person sent (signed in, or with their address unless `byAddress` is false:
   *   another account still uses it, and what was sent with it is that account's): kept anonymised, since a
   *   report about someone else's image must stay for its takedown. A report keeps its words
   *   without the name and address; another ticket loses subject and message. Replies on them are
   *   scrubbed too;
   * - admin notifications: the tickets' subjects, the name and the address scrubbed;
   * - credit ledger entries: the reasons someone typed are cleared (the amounts stay).
   */
  private async forgetPersonalText(
    m: EntityManager,
    user: Pick<UserEntity, 'id' | 'email' | 'fullName'>,
    options: { byAddress: boolean },
  ): Promise<void> {
    const scrub = personalTextScrubber(user);
    const audits: { id: string; before: unknown; after: unknown }[] = await m.query(
      `SELECT id, before, after FROM audit_log WHERE target_user_id = $1 OR actor_id = $1`,
      [user.id],
    );
    for (const row of audits) {
      await m.query(`UPDATE audit_log SET before = $2, after = $3 WHERE id = $1`, [
        row.id,
        row.before === null ? null : JSON.stringify(scrubSnapshot(row.before, scrub)),
        row.after === null ? null : JSON.stringify(scrubSnapshot(row.after, scrub)),
      ]);
    }
    // the trail still reads "an admin adjusted the credits of a deleted account", by a pseudonym only
    await m.query(`UPDATE audit_log SET target_id = $2 WHERE target_user_id = $1 AND target_id = $1::text`, [
      user.id,
      `deleted:${userIdHash(user.id)}`,
    ]);
    await m.query(`UPDATE audit_log SET target_email = NULL, target_user_id = NULL WHERE target_user_id = $1`, [user.id]);
    await m.query(`UPDATE audit_log SET actor_email = NULL WHERE actor_id = $1`, [user.id]);

    const tickets: { id: string; kind: string; subject: string; message: string }[] = await m.query(
      `SELECT id, kind, subject, message FROM support_inquiries WHERE user_id = $1 OR ($3 AND lower(email) = $2)`,
      [user.id, user.email.toLowerCase(), options.byAddress],
    );
    const subjects = tickets.map((t) => t.subject).filter((subject) => subject.trim().length >= 3);
    for (const t of tickets) {
      const report = t.kind === 'abuse_report';
      await m.query(`UPDATE support_inquiries SET user_id = NULL, name = '', email = '', subject = $2, message = $3 WHERE id = $1`, [
        t.id,
        report ? scrub(t.subject).slice(0, 200) : REMOVED,
        report ? scrub(t.message) : `${REMOVED} (the sender deleted their account)`,
      ]);
      const replies: { id: string; body: string }[] = await m.query(`SELECT id, body FROM support_messages WHERE inquiry_id = $1`, [t.id]);
      for (const reply of replies) await m.query(`UPDATE support_messages SET body = $2 WHERE id = $1`, [reply.id, scrub(reply.body)]);
    }
    const notifications: { id: string; title: string; message: string; dedupe_key: string | null }[] = await m.query(
      `SELECT id, title, message, dedupe_key FROM system_notifications
        WHERE dedupe_key = ANY($1::text[]) OR ($4 AND (message ILIKE $2 OR title ILIKE $2)) OR message LIKE $3`,
      [tickets.map((t) => `support:${t.id}`), `%${user.email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, `%${user.id}%`, options.byAddress],
    );
    const pseudonym = `deleted:${userIdHash(user.id)}`;
    for (const n of notifications) {
      const clean = (text: string) =>
        subjects
          .reduce((out, subject) => out.split(subject).join(REMOVED), scrub(text))
          .split(user.id)
          .join(pseudonym);
      await m.query(`UPDATE system_notifications SET title = $2, message = $3, dedupe_key = $4 WHERE id = $1`, [
        n.id,
        clean(n.title).slice(0, 200),
        clean(n.message),
        n.dedupe_key?.split(user.id).join(pseudonym) ?? null,
      ]);
    }
    await m.query(`UPDATE credit_ledger_entries SET reason = NULL WHERE user_id = $1 AND reason IS NOT NULL`, [user.id]);
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
