import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundError, ValidationError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto } from '../../common/simple-rest';
import { AuditAction, AuditService } from '../audit/audit.service';
import type { NotificationRowDto } from './dto/notification-row.dto';
import { NOTIFICATION_SEVERITIES, NotificationType, SystemNotificationEntity, type NotificationSeverity } from './system-notification.entity';

export const NOTIFICATION_MESSAGES = {
  noUnread: 'A notification cannot be marked unread',
} as const;

export interface NotifyInput {
  type: NotificationType | string;
  title: string;
  message: string;
  severity: NotificationSeverity;
  /**
   * One notification per key: while a notification with this key exists (created within
   * `dedupeWindowMs`, when given), notify() creates nothing and answers null. Safe across processes
   * (a transaction-scoped advisory lock on the key).
   */
  dedupeKey?: string;
  dedupeWindowMs?: number;
}

const FILTERS = ['read', 'severity', 'type', 'q'] as const;
type NotificationFilter = (typeof FILTERS)[number];
const SORTABLE = {
  id: 'n.id',
  created_at: 'n.created_at',
  severity: `CASE n.severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END`,
  type: 'n.type',
  read: 'n.read',
  read_at: 'n.read_at',
  title: 'n.title',
};

interface Row {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admins' notifications: created by the system (notify), listed and marked read in the console. */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger('Notifications');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
  ) {}

  /** Creates a notification, or nothing (null) when `dedupeKey` says one already covers this event. */
  async notify(input: NotifyInput): Promise<SystemNotificationEntity | null> {
    const created = await this.db.transaction(async (m) => {
      if (input.dedupeKey) {
        await m.query(`SELECT pg_advisory_xact_lock(hashtext('system_notifications'), hashtext($1))`, [input.dedupeKey]);
        const [existing] = await m.query(
          `SELECT id FROM system_notifications WHERE dedupe_key = $1 AND ($2::bigint IS NULL OR created_at > now() - make_interval(secs => $2::bigint / 1000.0)) LIMIT 1`,
          [input.dedupeKey, input.dedupeWindowMs ?? null],
        );
        if (existing) return null;
      }
      return m.save(
        m.create(SystemNotificationEntity, {
          type: input.type,
          title: input.title.slice(0, 200),
          message: input.message,
          severity: input.severity,
          dedupeKey: input.dedupeKey ?? null,
        }),
      );
    });
    if (created) this.logger.log({ event: 'system_notification', type: created.type, severity: created.severity, id: created.id }, created.title);
    return created;
  }

  parse(query: SimpleRestQueryDto): ListParams<NotificationFilter> {
    return parseListQuery(query, { sortable: SORTABLE, defaultSort: ['created_at', 'DESC'], defaultPageSize: 50, filters: FILTERS });
  }

  async list(params: ListParams<NotificationFilter>): Promise<{ rows: NotificationRowDto[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    const read = params.filter.read;
    if (read !== undefined) {
      if (read !== true && read !== false && read !== 'true' && read !== 'false') throw new ValidationError('Invalid read: expected true or false');
      where.push(`n.read = $${args.push(read === true || read === 'true')}`);
    }
    const severity = oneOf(params.filter.severity, NOTIFICATION_SEVERITIES, 'severity');
    if (severity) where.push(`n.severity = $${args.push(severity)}`);
    if (params.filter.type !== undefined) where.push(`n.type = $${args.push(String(params.filter.type))}`);
    if (params.filter.q !== undefined) {
      const q = `%${String(params.filter.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(n.title ILIKE $${args.push(q)} ESCAPE '\\' OR n.message ILIKE $${args.length} ESCAPE '\\')`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM system_notifications n ${clause}`, args);
    const rows: Row[] = await this.db.query(
      `${SELECT} ${clause} ORDER BY ${params.orderBy} LIMIT ${params.limit} OFFSET ${params.offset}`,
      args,
    );
    return { rows: rows.map(toDto), total };
  }

  async get(id: string): Promise<NotificationRowDto> {
    assertUuid(id);
    const [row]: Row[] = await this.db.query(`${SELECT} WHERE n.id = $1`, [id]);
    if (!row) throw new NotFoundError();
    return toDto(row);
  }

  /**
   * Marks a notification read by `actorId`: read, read_by, read_at set once (marking it again keeps
   * the first reader and time); `read: false` is refused. The first marking writes an audit row.
   */
  async markRead(actorId: string, id: string, read: boolean): Promise<NotificationRowDto> {
    assertUuid(id);
    if (read !== true) throw new ValidationError(NOTIFICATION_MESSAGES.noUnread);
    await this.db.transaction(async (m) => {
      const [, count] = (await m.query(
        `UPDATE system_notifications SET read = true, read_by = $2, read_at = now() WHERE id = $1 AND read = false RETURNING id`,
        [id, actorId],
      )) as [unknown[], number];
      if (count === 0) return;
      await this.audit.record(
        { actorId, action: AuditAction.NotificationRead, targetType: 'notification', targetId: id, before: { read: false }, after: { read: true } },
        m,
      );
    });
    return this.get(id);
  }
}

const SELECT = `SELECT n.id, n.type, n.title, n.message, n.severity, n.read, n.read_by, u.email AS read_by_email, n.read_at, n.created_at
                  FROM system_notifications n LEFT JOIN users u ON u.id = n.read_by`;

function assertUuid(id: string): void {
  if (!UUID.test(id)) throw new ValidationError('Invalid id');
}

function toDto(r: Row): NotificationRowDto {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    message: r.message,
    severity: r.severity,
    read: r.read,
    read_by: r.read_by,
    read_by_email: r.read_by_email,
    read_at: r.read_at ? new Date(r.read_at).toISOString() : null,
    created_at: new Date(r.created_at).toISOString(),
  };
}
