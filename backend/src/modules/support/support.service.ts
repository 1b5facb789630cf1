import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto } from '../../common/simple-rest';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobContext, type JobPayload } from '../../queue';
import { AuditAction, AuditService } from '../audit/audit.service';
import { GenerationsRepository } from '../generations/generations.repository';
import { Mailer, MailTemplates, type MailDelivery } from '../mail';
import { NotificationsService } from '../notifications/notifications.service';
import { NotificationType } from '../notifications/system-notification.entity';
import { ReportedImageMatcher } from './reported-image.matcher';
import {
  INQUIRY_KINDS,
  INQUIRY_PRIORITIES,
  INQUIRY_STATUSES,
  SupportInquiryEntity,
  SupportMessageEntity,
  type DeliveryState,
  type InquiryStatus,
} from './support.entities';
import { INQUIRY_SORTABLE, SupportRepository, type InquiryListFilter } from './support.repository';
import type { SupportInquiryCreateDto } from './dto/support-inquiry-create.dto';
import type { SupportInquiryCreatedDto } from './dto/support-inquiry-created.dto';
import type { SlaState, SupportInquiryDetailsDto, SupportInquiryRowDto, SupportMessageDto } from './dto/support-inquiry-row.dto';
import type { SupportInquiryUpdateDto } from './dto/support-inquiry-update.dto';
import type { SupportMessageCreateDto } from './dto/support-message-create.dto';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function assertUuid(id: string): void {
  if (!UUID.test(id)) throw new ValidationError('Invalid id');
}

/** How the notification says a report found its image. */
const MATCH_WORDS: Record<string, string> = {
  link: ' (found from the link sent)',
  metadata: ' (found from the copy sent: the id in its metadata)',
  hash: ' (found from the copy sent: the same picture)',
};

/** The support desk: the public contact form, the console's tickets, replies (mailed) and notes. */
@Injectable()
export class SupportService {
  private readonly logger = new Logger('Support');

  constructor(
    private readonly repo: SupportRepository,
    private readonly generations: GenerationsRepository,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly mailer: Mailer,
    private readonly queue: MessageQueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly matcher: ReportedImageMatcher,
  ) {}

  /** A message from the contact form. An abuse report starts at priority high and raises a critical notification. */
  async create(input: SupportInquiryCreateDto, userId?: string, image?: Buffer): Promise<SupportInquiryCreatedDto> {
    const kind = input.kind ?? 'question';
    if (input.generation_id && kind !== 'abuse_report')
      throw new ValidationError('A generation id can only be sent with a report of an image (kind abuse_report)');
    if ((input.image_url || image) && kind !== 'abuse_report')
      throw new ValidationError('An image or a link can only be sent with a report of an image (kind abuse_report)');
    let generationId = input.generation_id ?? null;
    let imageMatch: string | null = generationId ? 'id' : null;
    if (kind === 'abuse_report' && !generationId && (input.image_url || image)) {
      const found = await this.matcher.match({ link: input.image_url, image });
      generationId = found.generationId;
      imageMatch = found.method;
    }
    const inquiry = await this.repo.createInquiry({
      kind,
      priority: kind === 'abuse_report' ? 'high' : 'normal',
      status: 'open',
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      userId: userId ?? null,
      generationId,
      imageMatch,
    });
    try {
      await this.notifications.notify(
        kind === 'abuse_report'
          ? {
              type: NotificationType.AbuseReport,
              severity: 'critical',
              title: 'An image was reported',
              message: `Abuse report "${inquiry.subject}"${inquiry.generationId ? ` about generation ${inquiry.generationId}${MATCH_WORDS[inquiry.imageMatch ?? 'id'] ?? ''}` : imageMatch === 'none' ? ' (the image sent matches no stored result)' : ''}. Ticket ${inquiry.id} (priority high): review it and remove the image if it must go.`,
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
      this.logger.error(
        { event: 'support_notification_failed', inquiry: inquiry.id, err },
        'could not raise the notification of a new inquiry',
      );
    }
    this.logger.log(
      { event: 'support_inquiry', inquiry: inquiry.id, kind, signed_in: !!userId, image_match: imageMatch },
      'support inquiry received',
    );
    if (kind === 'abuse_report') {
      await this.queue
        .add(JobName.SupportReceiptMail, { inquiryId: inquiry.id }, { ...REPLY_MAIL_JOB_OPTIONS, jobId: `support-receipt-${inquiry.id}` })
        .catch((err: unknown) =>
          this.logger.error(
            { event: 'support_receipt_not_queued', inquiry: inquiry.id, err },
            'the receipt of a report could not be queued',
          ),
        );
    }
    return {
      id: inquiry.id,
      status: inquiry.status,
      kind: inquiry.kind,
      priority: inquiry.priority,
      created_at: inquiry.createdAt.toISOString(),
    };
  }

  parse(query: SimpleRestQueryDto): ListParams<InquiryFilter> {
    return parseListQuery(query, {
      sortable: INQUIRY_SORTABLE,
      defaultSort: ['created_at', 'DESC'],
      defaultPageSize: 50,
      filters: FILTERS,
    });
  }

  async list(params: ListParams<InquiryFilter>): Promise<{ rows: SupportInquiryRowDto[]; total: number }> {
    const filter: InquiryListFilter = {};
    const status = oneOf(params.filter.status, INQUIRY_STATUSES, 'status');
    if (status) filter.status = status;
    const priority = oneOf(params.filter.priority, INQUIRY_PRIORITIES, 'priority');
    if (priority) filter.priority = priority;
    const kind = oneOf(params.filter.kind, INQUIRY_KINDS, 'kind');
    if (kind) filter.kind = kind;
    if (params.filter.user_id !== undefined) {
      assertUuid(String(params.filter.user_id));
      filter.userId = String(params.filter.user_id);
    }
    if (params.filter.q !== undefined) filter.q = String(params.filter.q);
    const { rows, total } = await this.repo.listInquiries(filter, params);
    const now = Date.now();
    return { rows: rows.map((r) => this.toRow(r, now)), total };
  }

  async details(id: string): Promise<SupportInquiryDetailsDto> {
    const inquiry = await this.find(id);
    const messages = await this.repo.messagesOf(id);
    return {
      ...this.toRow(inquiry, Date.now()),
      generation_removed_by_email: inquiry.generationRemovedAt ? await this.repo.generationRemoverEmail(id) : null,
      messages: messages.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() })),
    };
  }

  /** Status (through the workflow) and priority; each change is audited. Nothing sent: 400. */
  async update(actorId: string, id: string, input: SupportInquiryUpdateDto): Promise<SupportInquiryDetailsDto> {
    if (input.status === undefined && input.priority === undefined)
      throw new ValidationError('Nothing to change: send status and/or priority');
    assertUuid(id);
    await this.repo.transaction(async (m) => {
      const inquiry = await this.repo.lockInquiry(m, id);
      if (!inquiry) throw new NotFoundError();
      const changes: Partial<SupportInquiryEntity> = {};
      if (input.status !== undefined && input.status !== inquiry.status) {
        const problem = statusMoveError(inquiry.status, input.status);
        if (problem) throw new ValidationError(problem);
        changes.status = input.status;
        if (input.status === 'resolved') changes.resolvedAt = new Date();
        if (input.status === 'in_progress' && inquiry.status === 'resolved') changes.resolvedAt = null;
        await this.audit.record(
          {
            actorId,
            action: AuditAction.SupportStatusChange,
            targetType: 'support_inquiry',
            targetId: id,
            targetUserId: inquiry.userId,
            before: { status: inquiry.status },
            after: { status: input.status },
          },
          m,
        );
      }
      if (input.priority !== undefined && input.priority !== inquiry.priority) {
        changes.priority = input.priority;
        await this.audit.record(
          {
            actorId,
            action: AuditAction.SupportPriorityChange,
            targetType: 'support_inquiry',
            targetId: id,
            targetUserId: inquiry.userId,
            before: { priority: inquiry.priority },
            after: { priority: input.priority },
          },
          m,
        );
      }
      if (Object.keys(changes).length) await this.repo.updateInquiry(id, changes, m);
    });
    return this.details(id);
  }

  /**
   * A reply or a note. A reply is mailed to the requester by a queue job (delivered 'queued', then
   * 'sent' through SMTP, 'logged' to the outbox without SMTP, or 'failed'). A note is never mailed.
   */
  async addMessage(actorId: string, id: string, input: SupportMessageCreateDto): Promise<SupportMessageDto> {
    assertUuid(id);
    const message = await this.repo.transaction(async (m) => {
      const inquiry = await this.repo.findInquiry(id, m);
      if (!inquiry) throw new NotFoundError();
      return this.insertMessage(m, actorId, inquiry, input.kind, input.body);
    });
    if (message.kind === 'reply') await this.dispatchReply(message);
    return this.message(message.id);
  }

  /**
   * Removes the generation an abuse report names (files included, through the admin's removal,
   * audited there), records on the ticket when and by whom, and a note. A second removal is a 409.
   */
  async removeReportedGeneration(
    actorId: string,
    id: string,
    remove: (actorId: string, generationId: string, reason: string) => Promise<{ generations: string[]; photos: string[] }>,
  ): Promise<SupportInquiryDetailsDto> {
    const inquiry = await this.find(id);
    if (inquiry.kind !== 'abuse_report') throw new ValidationError('Only a report of an image can remove a generation');
    if (!inquiry.generationId)
      throw new ValidationError('This report names no generation: find the image in Generations and remove it there');
    if (inquiry.generationRemovedAt) {
      const by = await this.repo.generationRemoverEmail(id);
      throw new ConflictError(
        `The reported generation was already removed${by ? ` by ${by}` : ''} at ${inquiry.generationRemovedAt.toISOString()}`,
      );
    }
    const exists = await this.generations.existsById(inquiry.generationId);
    if (!exists) throw new NotFoundError('The reported generation was not found: it may already have been removed');
    const removed = await remove(actorId, inquiry.generationId, `abuse report ${inquiry.id}`);
    const more = removed.generations.length - 1;
    const note =
      removed.photos.length > 0
        ? `Removed the reported generation ${inquiry.generationId}, the ${removed.photos.length === 1 ? 'photo' : `${removed.photos.length} photos`} it was made from` +
          `${more > 0 ? ` and ${more} other generation${more === 1 ? '' : 's'} made from ${removed.photos.length === 1 ? 'it' : 'them'}` : ''}, with their files.`
        : `Removed the reported generation ${inquiry.generationId} and its files.`;
    // the ticket remembers the removal (when, by whom) with its note: the button is not offered again
    await this.repo.transaction(async (m) => {
      await this.repo.markGenerationRemoved(m, inquiry.id, actorId);
      await this.insertMessage(m, actorId, inquiry, 'note', note);
    });
    return this.details(id);
  }

  /** The reporter's receipt: the report arrived, what happens next, the ticket number. */
  @OnJob(JobName.SupportReceiptMail)
  async handleReceiptMail(data: JobPayload<JobName.SupportReceiptMail>): Promise<void> {
    const inquiry = await this.repo.findInquiry(data.inquiryId);
    if (!inquiry?.email) return;
    await this.mailer.deliver({
      to: inquiry.email,
      toName: inquiry.name,
      template: 'report-receipt',
      replyTo: this.config.contact.supportEmail,
      content: MailTemplates.reportReceipt(this.mailer.brand, {
        name: inquiry.name,
        ticket: inquiry.id,
        matched: inquiry.generationId !== null,
      }),
    });
  }

  /**
   * Mails a reply through the one mailer: to the SMTP server (delivered 'sent'), or without SMTP to
   * the outbox folder (delivered 'logged'). Retried with backoff; the last failure is recorded.
   */
  @OnJob(JobName.SupportReplyMail)
  async handleReplyMail(data: JobPayload<JobName.SupportReplyMail>, ctx: JobContext): Promise<void> {
    const row = await this.repo.replyToMail(data.messageId);
    if (!row || row.kind !== 'reply' || row.delivered === 'sent' || row.delivered === 'logged') return; // gone, a note, or done already
    if (!row.email) {
      // the requester deleted their account: the ticket is anonymised and has no address left
      await this.setDelivered(data.messageId, 'failed', 'the requester deleted their account');
      return;
    }
    let delivery: MailDelivery;
    try {
      delivery = await this.mailer.deliver({
        to: row.email,
        toName: row.name,
        template: 'support-reply',
        replyTo: this.config.contact.supportEmail,
        content: MailTemplates.supportReply(this.mailer.brand, { name: row.name, subject: row.subject, body: row.body }),
      });
    } catch (err) {
      const final = ctx.attempt >= ctx.maxAttempts;
      await this.setDelivered(data.messageId, final ? 'failed' : 'queued', err instanceof Error ? err.message.slice(0, 1000) : String(err));
      throw err;
    }
    await this.setDelivered(data.messageId, delivery.via === 'smtp' ? 'sent' : 'logged', null);
    this.logger.log({ event: 'support_reply_sent', message: data.messageId, via: delivery.via }, 'support reply mailed');
  }

  private async dispatchReply(message: SupportMessageEntity): Promise<void> {
    try {
      await this.queue.add(
        JobName.SupportReplyMail,
        { messageId: message.id },
        { ...REPLY_MAIL_JOB_OPTIONS, jobId: `support-reply-${message.id}` },
      );
    } catch (err) {
      this.logger.error({ event: 'support_reply_not_queued', message: message.id, err }, 'a support reply could not be queued for mailing');
      await this.setDelivered(message.id, 'failed', 'could not be queued for mailing');
    }
  }

  private async setDelivered(messageId: string, delivered: DeliveryState, error: string | null): Promise<void> {
    await this.repo.setDelivered(messageId, delivered, error);
  }

  private async insertMessage(
    m: EntityManager,
    actorId: string,
    inquiry: SupportInquiryEntity,
    kind: 'reply' | 'note',
    body: string,
  ): Promise<SupportMessageEntity> {
    const message = await this.repo.insertMessage(m, {
      inquiryId: inquiry.id,
      kind,
      body,
      authorId: actorId,
      delivered: kind === 'reply' ? 'queued' : null,
    });
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
    const m = (await this.repo.findMessage(id))!;
    return { ...m, created_at: new Date(m.created_at).toISOString() };
  }

  private async find(id: string): Promise<SupportInquiryEntity> {
    assertUuid(id);
    const inquiry = await this.repo.findInquiry(id);
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
      image_match: i.imageMatch,
      created_at: i.createdAt.toISOString(),
      updated_at: i.updatedAt.toISOString(),
      resolved_at: i.resolvedAt ? i.resolvedAt.toISOString() : null,
      generation_removed_at: i.generationRemovedAt ? i.generationRemovedAt.toISOString() : null,
      age_hours: ageHours,
      sla: slaOf(i.status, (now - i.createdAt.getTime()) / 3_600_000),
    };
  }
}
