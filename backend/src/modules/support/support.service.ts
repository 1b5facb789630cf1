import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../../common/errors';
import { containsPattern, ListParams, oneOf, parseListQuery, SimpleRestQueryDto } from '../../common/simple-rest';
import { contactAddresses, type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobContext, type JobPayload } from '../../queue';
import { AuditAction, AuditService } from '../audit/audit.service';
import { NotificationsService } from '../notifications/notifications.service';
import { NotificationType } from '../notifications/system-notification.entity';
import type { SupportInquiryCreateDto } from './dto/support-inquiry-create.dto';
import type { SupportInquiryCreatedDto } from './dto/support-inquiry-created.dto';
import type { SlaState, SupportInquiryDetailsDto, SupportInquiryRowDto, SupportMessageDto } from './dto/support-inquiry-row.dto';
import type { SupportInquiryUpdateDto } from './dto/support-inquiry-update.dto';
import type { SupportMessageCreateDto } from './dto/support-message-create.dto';
import { SupportMailer } from './support-mailer';
import {
  INQUIRY_KINDS,
  INQUIRY_PRIORITIES,
  INQUIRY_STATUSES,
  SupportInquiryEntity,
  SupportMessageEntity,
  type DeliveryState,
  type InquiryStatus,
} from './support.entities';

/** The workflow: open -> in_progress -> resolved -> closed; resolved -> in_progress reopens. */
export const STATUS_MOVES: Record<InquiryStatus, readonly InquiryStatus[]> = {
  open: ['in_progress'],
  in_progress: ['resolved'],
  resolved: ['closed', 'in_progress'],
  closed: [],
};

/** The 24-48 h response promise (legal pages): below 24 h ok, up to 48 h due soon, then overdue. */
export const SLA_HOURS = { dueSoon: 24, overdue: 48 } as const;

/** The mail job's retries: 6 attempts, 30 s, 1, 2, 4, 8 minutes apart. */
export const REPLY_MAIL_JOB_OPTIONS = { attempts: 6, backoffMs: 30_000 } as const;

export function slaOf(status: InquiryStatus, ageHours: number): SlaState | null {
  if (status !== 'open' && status !== 'in_progress') return null;
  if (ageHours < SLA_HOURS.dueSoon) return 'ok';
  if (ageHours <= SLA_HOURS.overdue) return 'due_soon';
  return 'overdue';
}

export function statusMoveError(from: InquiryStatus, to: InquiryStatus): string | null {
  if (from === to || STATUS_MOVES[from].includes(to)) return null;
  const allowed = STATUS_MOVES[from];
  return `Cannot move a ticket from ${from} to ${to}: ${allowed.length ? `from ${from} it can only move to ${allowed.join(' or ')}` : `a ${from} ticket cannot change status`}`;
}

const FILTERS = ['status', 'priority', 'kind', 'q', 'user_id'] as const;
type InquiryFilter = (typeof FILTERS)[number];
const SORTABLE = {
  id: 'i.id',
  created_at: 'i.created_at',
  updated_at: 'i.updated_at',
  status: `CASE i.status WHEN 'open' THEN 1 WHEN 'in_progress' THEN 2 WHEN 'resolved' THEN 3 ELSE 4 END`,
  priority: `CASE i.priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'normal' THEN 2 ELSE 1 END`,
  kind: 'i.kind',
  subject: 'i.subject',
  email: 'i.email',
  name: 'i.name',
  age_hours: 'i.created_at',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function assertUuid(id: string): void {
  if (!UUID.test(id)) throw new ValidationError('Invalid id');
}

/** The support desk: the public contact form, the console's tickets, replies (mailed) and notes. */
@Injectable()
export class SupportService {
  private readonly logger = new Logger('Support');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly mailer: SupportMailer,
    private readonly queue: MessageQueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A message from the contact form. An abuse report starts at priority high and raises a critical notification. */
  async create(input: SupportInquiryCreateDto, userId?: string): Promise<SupportInquiryCreatedDto> {
    const kind = input.kind ?? 'question';
    if (input.generation_id && kind !== 'abuse_report') throw new ValidationError('A generation id can only be sent with a report of an image (kind abuse_report)');
    const inquiry = await this.db.getRepository(SupportInquiryEntity).save({
      kind,
      priority: kind === 'abuse_report' ? 'high' : 'normal',
      status: 'open',
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      userId: userId ?? null,
      generationId: input.generation_id ?? null,
    });
    try {
      await this.notifications.notify(
        kind === 'abuse_report'
          ? {
              type: NotificationType.AbuseReport,
              severity: 'critical',
              title: 'An image was reported',
              message: `Abuse report "${inquiry.subject}"${inquiry.generationId ? ` about generation ${inquiry.generationId}` : ''}. Ticket ${inquiry.id} (priority high): review it and remove the image if it must go.`,
              dedupeKey: `support:${inquiry.id}`,
            }
          : {
              type: NotificationType.SupportInquiry,
              severity: 'info',
              title: kind === 'billing' ? 'New billing inquiry' : 'New support inquiry',
              message: `"${inquiry.subject}" (ticket ${inquiry.id}). Answer within 24-48 hours.`,
              dedupeKey: `support:${inquiry.id}`,
            },
      );
    } catch (err) {
      // the inquiry is stored; a missing notification must not lose the person's message
      this.logger.error({ event: 'support_notification_failed', inquiry: inquiry.id, err }, 'could not raise the notification of a new inquiry');
    }
    this.logger.log({ event: 'support_inquiry', inquiry: inquiry.id, kind, signed_in: !!userId }, 'support inquiry received');
    return { id: inquiry.id, status: inquiry.status, kind: inquiry.kind, priority: inquiry.priority, created_at: inquiry.createdAt.toISOString() };
  }

  parse(query: SimpleRestQueryDto): ListParams<InquiryFilter> {
    return parseListQuery(query, { sortable: SORTABLE, defaultSort: ['created_at', 'DESC'], defaultPageSize: 50, filters: FILTERS });
  }

  async list(params: ListParams<InquiryFilter>): Promise<{ rows: SupportInquiryRowDto[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    const status = oneOf(params.filter.status, INQUIRY_STATUSES, 'status');
    if (status) where.push(`i.status = $${args.push(status)}`);
    const priority = oneOf(params.filter.priority, INQUIRY_PRIORITIES, 'priority');
    if (priority) where.push(`i.priority = $${args.push(priority)}`);
    const kind = oneOf(params.filter.kind, INQUIRY_KINDS, 'kind');
    if (kind) where.push(`i.kind = $${args.push(kind)}`);
    if (params.filter.user_id !== undefined) {
      assertUuid(String(params.filter.user_id));
      where.push(`i.user_id = $${args.push(String(params.filter.user_id))}`);
    }
    if (params.filter.q !== undefined) {
      const n = args.push(containsPattern(String(params.filter.q)));
      where.push(`(i.subject ILIKE $${n} ESCAPE '\\' OR i.message ILIKE $${n} ESCAPE '\\' OR i.name ILIKE $${n} ESCAPE '\\' OR i.email ILIKE $${n} ESCAPE '\\')`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM support_inquiries i ${clause}`, args);
    const raw: Record<string, unknown>[] = await this.db.query(
      `SELECT i.* FROM support_inquiries i ${clause} ORDER BY ${params.orderBy} LIMIT ${params.limit} OFFSET ${params.offset}`,
      args,
    );
    const rows = raw.map(fromRaw);
    const now = Date.now();
    return { rows: rows.map((r) => this.toRow(r, now)), total };
  }

  async details(id: string): Promise<SupportInquiryDetailsDto> {
    const inquiry = await this.find(id);
    const messages: (SupportMessageDto & { created_at: Date })[] = await this.db.query(
      `SELECT m.id, m.kind, m.body, m.author_id, u.email AS author_email, m.delivered, m.delivery_error, m.created_at
         FROM support_messages m LEFT JOIN users u ON u.id = m.author_id
        WHERE m.inquiry_id = $1 ORDER BY m.created_at, m.id`,
      [id],
    );
    return { ...this.toRow(inquiry, Date.now()), messages: messages.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() })) };
  }

  /** Status (through the workflow) and priority; each change is audited. Nothing sent: 400. */
  async update(actorId: string, id: string, input: SupportInquiryUpdateDto): Promise<SupportInquiryDetailsDto> {
    if (input.status === undefined && input.priority === undefined) throw new ValidationError('Nothing to change: send status and/or priority');
    assertUuid(id);
    await this.db.transaction(async (m) => {
      const inquiry = await m.getRepository(SupportInquiryEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!inquiry) throw new NotFoundError();
      const changes: Partial<SupportInquiryEntity> = {};
      if (input.status !== undefined && input.status !== inquiry.status) {
        const problem = statusMoveError(inquiry.status, input.status);
        if (problem) throw new ValidationError(problem);
        changes.status = input.status;
        if (input.status === 'resolved') changes.resolvedAt = new Date();
        if (input.status === 'in_progress' && inquiry.status === 'resolved') changes.resolvedAt = null;
        await this.audit.record(
          { actorId, action: AuditAction.SupportStatusChange, targetType: 'support_inquiry', targetId: id, targetUserId: inquiry.userId, before: { status: inquiry.status }, after: { status: input.status } },
          m,
        );
      }
      if (input.priority !== undefined && input.priority !== inquiry.priority) {
        changes.priority = input.priority;
        await this.audit.record(
          { actorId, action: AuditAction.SupportPriorityChange, targetType: 'support_inquiry', targetId: id, targetUserId: inquiry.userId, before: { priority: inquiry.priority }, after: { priority: input.priority } },
          m,
        );
      }
      if (Object.keys(changes).length) await m.getRepository(SupportInquiryEntity).update({ id }, changes);
    });
    return this.details(id);
  }

  /**
   * A reply or a note. A reply is mailed to the requester by a queue job when SMTP is configured
   * (delivered 'queued', then 'sent' or 'failed'), else logged (delivered 'logged'). A note is never mailed.
   */
  async addMessage(actorId: string, id: string, input: SupportMessageCreateDto): Promise<SupportMessageDto> {
    assertUuid(id);
    const message = await this.db.transaction(async (m) => {
      const inquiry = await m.getRepository(SupportInquiryEntity).findOne({ where: { id } });
      if (!inquiry) throw new NotFoundError();
      return this.insertMessage(m, actorId, inquiry, input.kind, input.body);
    });
    if (message.kind === 'reply') await this.dispatchReply(message);
    return this.message(message.id);
  }

  /**
   * Removes the generation an abuse report names (files included, through the admin's removal,
   * audited there) and records a note on the ticket.
   */
  async removeReportedGeneration(actorId: string, id: string, remove: (actorId: string, generationId: string, reason: string) => Promise<void>): Promise<SupportInquiryDetailsDto> {
    const inquiry = await this.find(id);
    if (inquiry.kind !== 'abuse_report') throw new ValidationError('Only a report of an image can remove a generation');
    if (!inquiry.generationId) throw new ValidationError('This report names no generation: find the image in Generations and remove it there');
    const [exists] = await this.db.query(`SELECT 1 FROM user_generations WHERE id = $1`, [inquiry.generationId]);
    if (!exists) throw new NotFoundError('The reported generation was not found: it may already have been removed');
    await remove(actorId, inquiry.generationId, `abuse report ${inquiry.id}`);
    await this.db.transaction((m) => this.insertMessage(m, actorId, inquiry, 'note', `Removed the reported generation ${inquiry.generationId} and its files.`));
    return this.details(id);
  }

  @OnJob(JobName.SupportReplyMail)
  async handleReplyMail(data: JobPayload<JobName.SupportReplyMail>, ctx: JobContext): Promise<void> {
    const [row]: { delivered: DeliveryState | null; kind: string; body: string; subject: string; name: string; email: string }[] = await this.db.query(
      `SELECT m.delivered, m.kind, m.body, i.subject, i.name, i.email FROM support_messages m JOIN support_inquiries i ON i.id = m.inquiry_id WHERE m.id = $1`,
      [data.messageId],
    );
    if (!row || row.kind !== 'reply' || row.delivered === 'sent' || row.delivered === 'logged') return; // gone, a note, or done already
    if (!this.mailer.configured) {
      this.logReply(data.messageId, row);
      await this.setDelivered(data.messageId, 'logged', null);
      return;
    }
    try {
      await this.mailer.send(this.replyMail(row));
    } catch (err) {
      const final = ctx.attempt >= ctx.maxAttempts;
      await this.setDelivered(data.messageId, final ? 'failed' : 'queued', err instanceof Error ? err.message.slice(0, 1000) : String(err));
      throw err;
    }
    await this.setDelivered(data.messageId, 'sent', null);
    this.logger.log({ event: 'support_reply_sent', message: data.messageId }, 'support reply mailed');
  }

  private async dispatchReply(message: SupportMessageEntity): Promise<void> {
    if (!this.mailer.configured) {
      const [row] = await this.db.query(`SELECT i.subject, i.name, i.email FROM support_inquiries i WHERE i.id = $1`, [message.inquiryId]);
      this.logReply(message.id, { ...row, body: message.body });
      await this.setDelivered(message.id, 'logged', null);
      return;
    }
    try {
      await this.queue.add(JobName.SupportReplyMail, { messageId: message.id }, { ...REPLY_MAIL_JOB_OPTIONS, jobId: `support-reply-${message.id}` });
    } catch (err) {
      this.logger.error({ event: 'support_reply_not_queued', message: message.id, err }, 'a support reply could not be queued for mailing');
      await this.setDelivered(message.id, 'failed', 'could not be queued for mailing');
    }
  }

  private replyMail(row: { subject: string; name: string; email: string; body: string }) {
    const { supportEmail } = contactAddresses(this.config);
    return {
      to: row.email,
      replyTo: supportEmail,
      subject: `Re: ${row.subject}`,
      text: `Hi ${row.name},\n\n${row.body}\n\n${this.config.appName} support\n${supportEmail}\n`,
    };
  }

  /** Without SMTP the reply goes to the log (pino), so an operator can still see what was answered. */
  private logReply(messageId: string, row: { subject: string; name: string; email: string; body: string }): void {
    const mail = this.replyMail(row);
    this.logger.log({ event: 'support_reply_logged', message: messageId, to: mail.to, subject: mail.subject, text: mail.text }, 'support reply logged (SMTP is not configured)');
  }

  private async setDelivered(messageId: string, delivered: DeliveryState, error: string | null): Promise<void> {
    await this.db.query(`UPDATE support_messages SET delivered = $2, delivery_error = $3 WHERE id = $1`, [messageId, delivered, error]);
  }

  private async insertMessage(m: EntityManager, actorId: string, inquiry: SupportInquiryEntity, kind: 'reply' | 'note', body: string): Promise<SupportMessageEntity> {
    const message = await m.getRepository(SupportMessageEntity).save({
      inquiryId: inquiry.id,
      kind,
      body,
      authorId: actorId,
      delivered: kind === 'reply' ? 'queued' : null,
    });
    await m.query(`UPDATE support_inquiries SET updated_at = now() WHERE id = $1`, [inquiry.id]);
    await this.audit.record(
      {
        actorId,
        action: kind === 'reply' ? AuditAction.SupportReply : AuditAction.SupportNote,
        targetType: 'support_inquiry',
        targetId: inquiry.id,
        targetUserId: inquiry.userId,
        after: { message_id: message.id, kind, length: body.length },
      },
      m,
    );
    return message;
  }

  private async message(id: string): Promise<SupportMessageDto> {
    const [m] = await this.db.query(
      `SELECT m.id, m.kind, m.body, m.author_id, u.email AS author_email, m.delivered, m.delivery_error, m.created_at
         FROM support_messages m LEFT JOIN users u ON u.id = m.author_id WHERE m.id = $1`,
      [id],
    );
    return { ...m, created_at: new Date(m.created_at).toISOString() };
  }

  private async find(id: string): Promise<SupportInquiryEntity> {
    assertUuid(id);
    const inquiry = await this.db.getRepository(SupportInquiryEntity).findOne({ where: { id } });
    if (!inquiry) throw new NotFoundError();
    return inquiry;
  }

  private toRow(i: SupportInquiryEntity, now: number): SupportInquiryRowDto {
    const ageHours = Math.max(0, Math.floor((now - i.createdAt.getTime()) / 3_600_000));
    return {
      id: i.id,
      status: i.status,
      priority: i.priority,
      kind: i.kind,
      subject: i.subject,
      message: i.message,
      name: i.name,
      email: i.email,
      user_id: i.userId,
      generation_id: i.generationId,
      created_at: i.createdAt.toISOString(),
      updated_at: i.updatedAt.toISOString(),
      resolved_at: i.resolvedAt ? i.resolvedAt.toISOString() : null,
      age_hours: ageHours,
      sla: slaOf(i.status, (now - i.createdAt.getTime()) / 3_600_000),
    };
  }
}

/** A raw support_inquiries row (snake_case) as the entity. */
function fromRaw(r: Record<string, unknown>): SupportInquiryEntity {
  return {
    id: r.id as string,
    status: r.status as InquiryStatus,
    priority: r.priority as SupportInquiryEntity['priority'],
    kind: r.kind as SupportInquiryEntity['kind'],
    subject: r.subject as string,
    message: r.message as string,
    name: r.name as string,
    email: r.email as string,
    userId: (r.user_id as string | null) ?? null,
    generationId: (r.generation_id as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
    resolvedAt: r.resolved_at ? new Date(r.resolved_at as string) : null,
  };
}
