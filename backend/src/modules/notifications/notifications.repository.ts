import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SystemNotificationEntity, type NotificationSeverity } from './system-notification.entity';

/** The console's sort fields for notifications, as SQL on system_notifications (alias n). */
export const NOTIFICATION_SORTABLE = {
  id: 'n.id',
  created_at: 'n.created_at',
  severity: `CASE n.severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END`,
  type: 'n.type',
  read: 'n.read',
  read_at: 'n.read_at',
  title: 'n.title',
};

/** A notification as the console shows it, with the email of whoever read it. */
export interface NotificationRow {
  id: string;
  type: string;
  title: string;
  message: string;
  severity: NotificationSeverity;
  read: boolean;
  read_by: string | null;
  read_by_email: string | null;
  read_at: Date | null;
  created_at: Date;
}

/** The list's filters, already checked by the service. */
export interface NotificationListFilter {
  read?: boolean;
  severity?: NotificationSeverity;
  type?: string;
  q?: string;
}

/** A page of the list: `orderBy` is built from NOTIFICATION_SORTABLE. */
export interface NotificationPage {
  orderBy: string;
  limit: number;
  offset: number;
}

const SELECT = `SELECT n.id, n.type, n.title, n.message, n.severity, n.read, n.read_by, u.email AS read_by_email, n.read_at, n.created_at
                  FROM system_notifications n LEFT JOIN users u ON u.id = n.read_by`;

/** Every read and write of system_notifications (reads join users for the reader's email). */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Stores a notification, or nothing (null) while one with the same `dedupeKey` exists (created
   * within `dedupeWindowMs`, when given). Safe across processes: a transaction-scoped advisory lock
   * on the key.
   */
  async createUnlessDuplicate(
    values: Pick<SystemNotificationEntity, 'type' | 'title' | 'message' | 'severity' | 'dedupeKey'>,
    dedupeWindowMs?: number,
  ): Promise<SystemNotificationEntity | null> {
    return this.db.transaction(async (m) => {
      if (values.dedupeKey) {
        await m.query(`SELECT pg_advisory_xact_lock(hashtext('system_notifications'), hashtext($1))`, [values.dedupeKey]);
        const [existing] = await m.query(
          `SELECT id FROM system_notifications WHERE dedupe_key = $1 AND ($2::bigint IS NULL OR created_at > now() - make_interval(secs => $2::bigint / 1000.0)) LIMIT 1`,
          [values.dedupeKey, dedupeWindowMs ?? null],
        );
        if (existing) return null;
      }
      return m.save(m.create(SystemNotificationEntity, values));
    });
  }

  /** A page of notifications matching the filter, and how many match in all. */
  async list(filter: NotificationListFilter, page: NotificationPage): Promise<{ rows: NotificationRow[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.read !== undefined) where.push(`n.read = $${args.push(filter.read)}`);
    if (filter.severity) where.push(`n.severity = $${args.push(filter.severity)}`);
    if (filter.type !== undefined) where.push(`n.type = $${args.push(filter.type)}`);
    if (filter.q !== undefined) {
      const q = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(n.title ILIKE $${args.push(q)} ESCAPE '\\' OR n.message ILIKE $${args.length} ESCAPE '\\')`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM system_notifications n ${clause}`, args);
    const rows: NotificationRow[] = await this.db.query(
      `${SELECT} ${clause} ORDER BY ${page.orderBy} LIMIT ${page.limit} OFFSET ${page.offset}`,
      args,
    );
    return { rows, total };
  }

  async findRow(id: string): Promise<NotificationRow | undefined> {
    const [row]: NotificationRow[] = await this.db.query(`${SELECT} WHERE n.id = $1`, [id]);
    return row;
  }

  /** Marks an unread notification read by `actorId`; answers false when it was read already (or is not there). */
  async markRead(id: string, actorId: string, manager?: EntityManager): Promise<boolean> {
    const [, count] = (await (manager ?? this.db.manager).query(
      `UPDATE system_notifications SET read = true, read_by = $2, read_at = now() WHERE id = $1 AND read = false RETURNING id`,
      [id, actorId],
    )) as [unknown[], number];
    return count > 0;
  }
}
