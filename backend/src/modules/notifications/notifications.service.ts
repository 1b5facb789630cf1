import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto } from '../../common/simple-rest';
import { AuditAction, AuditService } from '../audit/audit.service';
import {
  NOTIFICATION_SORTABLE,
  NotificationsRepository,
  type NotificationListFilter,
  type NotificationRow,
} from './notifications.repository';
import {
  NOTIFICATION_SEVERITIES,
  NotificationType,
  SystemNotificationEntity,
  type NotificationSeverity,
} from './system-notification.entity';
import type { NotificationRowDto } from './dto/notification-row.dto';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admins' notifications: created by the system (notify), listed and marked read in the console. */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly audit: AuditService,
  ) {}

  /** Creates a notification, or nothing (null) when `dedupeKey` says one already covers this event. */
  async notify(input: NotifyInput): Promise<SystemNotificationEntity | null> {
    const created = await this.repo.createUnlessDuplicate(
      {
        type: input.type,
        title: input.title.slice(0, 200),
        message: input.message,
        severity: input.severity,
        dedupeKey: input.dedupeKey ?? null,
      },
      input.dedupeWindowMs,
    );
    if (created)
      this.logger.log({ event: 'system_notification', type: created.type, severity: created.severity, id: created.id }, created.title);
    return created;
  }

  parse(query: SimpleRestQueryDto): ListParams<NotificationFilter> {
    return parseListQuery(query, {
      sortable: NOTIFICATION_SORTABLE,
      defaultSort: ['created_at', 'DESC'],
      defaultPageSize: 50,
      filters: FILTERS,
    });
  }

  async list(params: ListParams<NotificationFilter>): Promise<{ rows: NotificationRowDto[]; total: number }> {
    const filter: NotificationListFilter = {};
    const read = params.filter.read;
    if (read !== undefined) {
      if (read !== true && read !== false && read !== 'true' && read !== 'false')
        throw new ValidationError('Invalid read: expected true or false');
      filter.read = read === true || read === 'true';
    }
    const severity = oneOf(params.filter.severity, NOTIFICATION_SEVERITIES, 'severity');
    if (severity) filter.severity = severity;
    if (params.filter.type !== undefined) filter.type = String(params.filter.type);
    if (params.filter.q !== undefined) filter.q = String(params.filter.q);
    const { rows, total } = await this.repo.list(filter, params);
    return { rows: rows.map(toDto), total };
  }

  async get(id: string): Promise<NotificationRowDto> {
    assertUuid(id);
    const row = await this.repo.findRow(id);
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
    await this.repo.transaction(async (m) => {
      if (!(await this.repo.markRead(id, actorId, m))) return;
      await this.audit.record(
        {
          actorId,
          action: AuditAction.NotificationRead,
          targetType: 'notification',
          targetId: id,
          before: { read: false },
          after: { read: true },
        },
        m,
      );
    });
    return this.get(id);
  }
}

function assertUuid(id: string): void {
  if (!UUID.test(id)) throw new ValidationError('Invalid id');
}

function toDto(r: NotificationRow): NotificationRowDto {
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
