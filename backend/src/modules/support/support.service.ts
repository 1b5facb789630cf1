import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { appLink, APP_PAGES } from '../../common/app-links';
import { canAccess } from '../../common/auth/access-policy';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto } from '../../common/simple-rest';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobContext, type JobPayload } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { AuditAction, AuditService } from '../audit/audit.service';
import { GenerationsRepository } from '../generations/generations.repository';
import { Mailer, MailTemplates, type MailDelivery } from '../mail';
import { NotificationsService } from '../notifications/notifications.service';
import { NotificationType } from '../notifications/system-notification.entity';
import { ReportedImageMatcher, type ReportMatch } from './reported-image.matcher';
import {
  INQUIRY_KINDS,
  INQUIRY_PRIORITIES,
  INQUIRY_STATUSES,
  SupportInquiryEntity,
  SupportMessageEntity,
  type DeliveryState,
  type ImageCandidate,
  type InquiryStatus,
} from './support.entities';
import { INQUIRY_SORTABLE, SupportRepository, type InquiryListFilter } from './support.repository';
import type { MyTicketDto, MyTicketsResponseDto } from './dto/my-ticket.dto';
import type { SupportInquiryCreateDto } from './dto/support-inquiry-create.dto';
import type { SupportInquiryCreatedDto } from './dto/support-inquiry-created.dto';
import type {
  ReportCandidateDto,
  ReviewedResultDto,
  SlaState,
  SupportInquiryDetailsDto,
  SupportInquiryRowDto,
  SupportMessageDto,
} from './dto/support-inquiry-row.dto';
import type { SupportInquiryUpdateDto } from './dto/support-inquiry-update.dto';
import type { SupportMessageCreateDto } from './dto/support-message-create.dto';

/** The workflow: open -> in_progress -> resolved -> closed; resolved -> in_progress reopens. */
export const STATUS_MOVES: Record<InquiryStatus, readonly InquiryStatus[]> = {
  open: ['in_progress'],
  in_progress: ['resolved'],
  resolved: ['closed', 'in_progress'],
  closed: [],
};

/** A ticket's number as people read it: #1042. */
export function ticketNumber(n: number): string {
  return `#${n}`;
}

/** "My tickets" shows at most this many, the newest first. */
export const MY_TICKETS_LIMIT = 100;
export const TICKET_NOT_FOUND = 'Ticket not found';
export const TICKET_CLOSED = 'This ticket is closed. Please send a new message from the contact page.';

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
  hash: ' (found from the copy sent: the same picture, clearly ahead of any other result)',
};

/** Where a report's copy is kept: private, like every stored object, and read through short signed links only. */
export function reportedImageKey(inquiryId: string): string {
  return `support/reported-images/${inquiryId}.jpg`;
}

/** Lifetime of the console's link to a kept copy (and to the results beside it). */
export const REPORTED_IMAGE_LINK_TTL_SECONDS = 300;

/** The audit action of an admin's choice among a report's candidates. */
export const MATCH_CHOICE_AUDIT = 'support.match.choose';

/** A stored candidate's figures, as the API answers them. */
function candidateScores(c: ImageCandidate): Pick<ReportCandidateDto, 'score' | 'agreement' | 'coverage' | 'inliers' | 'hash_distance'> {
  return {
    score: c.score,
    agreement: c.agreement ?? null,
    coverage: c.coverage ?? null,
    inliers: c.inliers ?? null,
    hash_distance: c.hash_distance ?? null,
  };
}

/** How the notification of a report says what it found. */
function reportWords(i: SupportInquiryEntity): string {
  if (i.generationId) return ` about generation ${i.generationId}${MATCH_WORDS[i.imageMatch ?? 'id'] ?? ''}`;
  const n = i.imageCandidates?.length ?? 0;
  if (i.imageMatch === 'candidates')
    return ` (the copy sent looks like ${n === 1 ? 'a stored result, not clearly enough' : `${n} stored results, none clearly ahead`}: choose on the ticket)`;
  if (i.imageMatch === 'none') return ' (the image sent matches no stored result)';
  return '';
}

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
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  /** A message from the contact form. An abuse report starts at priority high and raises a critical notification. */
  async create(input: SupportInquiryCreateDto, userId?: string, image?: Buffer): Promise<SupportInquiryCreatedDto> {
    const kind = input.kind ?? 'question';
    if (input.generation_id && kind !== 'abuse_report')
      throw new ValidationError('A generation id can only be sent with a report of an image (kind abuse_report)');
    if ((input.image_url || image) && kind !== 'abuse_report')
      throw new ValidationError('An image or a link can only be sent with a report of an image (kind abuse_report)');
    let generationId = input.generation_id ?? null;
    let found: ReportMatch | null = null;
    if (kind === 'abuse_report' && (input.image_url || image)) {
      // a copy is kept for the console even when the report names its generation (an admin compares them)
      found = generationId ? await this.matcher.keepable(image) : await this.matcher.match({ link: input.image_url, image });
      if (!generationId) generationId = found.generationId;
    }
    const imageMatch = input.generation_id ? 'id' : (found?.method ?? null);
    // the copy is stored first, under the ticket's id: a report is never kept with a copy that is missing
    const id = randomUUID();
    const key = found?.copy ? reportedImageKey(id) : null;
    if (key) await this.storage.put(key, found!.copy!, { contentType: 'image/jpeg' });
    let inquiry: SupportInquiryEntity;
    try {
      inquiry = await this.repo.createInquiry({
        id,
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
        imageCandidates: found?.candidates.length ? found.candidates : null,
        reportedImageKey: key,
      });
    } catch (error) {
      if (key) await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
    try {
      await this.notifications.notify(
        kind === 'abuse_report'
          ? {
              type: NotificationType.AbuseReport,
              severity: 'critical',
              title: 'An image was reported',
              message: `Abuse report "${inquiry.subject}"${reportWords(inquiry)}. Ticket ${inquiry.id} (priority high): review it and remove the image if it must go.`,
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
    // every message gets a receipt with its number (a report's says what happens to the image)
    await this.queue
      .add(JobName.SupportReceiptMail, { inquiryId: inquiry.id }, { ...REPLY_MAIL_JOB_OPTIONS, jobId: `support-receipt-${inquiry.id}` })
      .catch((err: unknown) =>
        this.logger.error({ event: 'support_receipt_not_queued', inquiry: inquiry.id, err }, 'the receipt of a ticket could not be queued'),
      );
    return {
      id: inquiry.id,
      number: inquiry.number,
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

  /**
   * A ticket with its thread. A report's kept copy comes as a short signed link (admins and
   * support); the generation it names and its candidates come with links to their results for those
   * who may see results (admins), without for the others.
   */
  async details(id: string, viewerRole: string): Promise<SupportInquiryDetailsDto> {
    const inquiry = await this.find(id);
    const messages = await this.repo.messagesOf(id);
    const candidates = inquiry.imageCandidates ?? [];
    const ids = [...new Set([...(inquiry.generationId ? [inquiry.generationId] : []), ...candidates.map((c) => c.generation_id)])];
    const seeResults = canAccess(viewerRole, 'generations', 'show');
    const reviewed = new Map((await this.generations.resultsForReview(ids)).map((r) => [r.id, r]));
    const review = async (generationId: string): Promise<ReviewedResultDto> => {
      const r = reviewed.get(generationId);
      return {
        generation_id: generationId,
        exists: !!r,
        type: r?.type ?? null,
        created_at: r ? new Date(r.createdAt).toISOString() : null,
        result_url: seeResults && r?.status === 'completed' && r.resultKey ? await this.link(r.resultKey) : null,
      };
    };
    return {
      ...this.toRow(inquiry, Date.now()),
      generation_removed_by_email: inquiry.generationRemovedAt ? await this.repo.generationRemoverEmail(id) : null,
      reported_image_url: inquiry.reportedImageKey ? await this.link(inquiry.reportedImageKey) : null,
      reported_image_deleted_at: inquiry.reportedImageDeletedAt ? inquiry.reportedImageDeletedAt.toISOString() : null,
      reported_generation: inquiry.generationId ? await review(inquiry.generationId) : null,
      image_candidates: await Promise.all(
        candidates.map(async (c): Promise<ReportCandidateDto> => ({ ...candidateScores(c), ...(await review(c.generation_id)) })),
      ),
      messages: messages.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() })),
    };
  }

  /**
   * An admin's choice among the results a report's copy looked like: `generationId` one of its
   * candidates (the ticket then names it, `image_match` chosen), or null for none of them
   * (`image_match` none). Audited and noted on the ticket. Not once the named generation was
   * removed (409); not on a report without candidates (400).
   */
  async chooseReportedGeneration(
    actorId: string,
    viewerRole: string,
    id: string,
    generationId: string | null,
  ): Promise<SupportInquiryDetailsDto> {
    assertUuid(id);
    await this.repo.transaction(async (m) => {
      const inquiry = await this.repo.lockInquiry(m, id);
      if (!inquiry) throw new NotFoundError();
      const candidates = inquiry.imageCandidates ?? [];
      if (inquiry.kind !== 'abuse_report' || candidates.length === 0)
        throw new ValidationError('This ticket has no candidates to choose from: only a report whose copy looked like stored results has');
      if (inquiry.generationRemovedAt)
        throw new ConflictError(
          `The reported generation was already removed at ${inquiry.generationRemovedAt.toISOString()}: the choice can no longer change`,
        );
      if (generationId !== null && !candidates.some((c) => c.generation_id === generationId.toLowerCase()))
        throw new ValidationError('Choose one of the candidates listed on the ticket, or none of them');
      const chosen = generationId?.toLowerCase() ?? null;
      await this.repo.setReportedGeneration(m, id, chosen, chosen ? 'chosen' : 'none');
      await this.audit.record(
        {
          actorId,
          action: MATCH_CHOICE_AUDIT,
          targetType: 'support_inquiry',
          targetId: id,
          targetUserId: inquiry.userId,
          before: { generation_id: inquiry.generationId, image_match: inquiry.imageMatch },
          after: { generation_id: chosen, image_match: chosen ? 'chosen' : 'none' },
        },
        m,
      );
      await this.insertMessage(
        m,
        actorId,
        inquiry,
        'note',
        chosen
          ? `Chose generation ${chosen} as the reported image, after comparing it with the copy sent.`
          : candidates.length === 1
            ? 'The candidate is not the reported image.'
            : `None of the ${candidates.length} candidates is the reported image.`,
      );
    });
    return this.details(id, viewerRole);
  }

  /** Status (through the workflow) and priority; each change is audited. Nothing sent: 400. */
  async update(actorId: string, viewerRole: string, id: string, input: SupportInquiryUpdateDto): Promise<SupportInquiryDetailsDto> {
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
    return this.details(id, viewerRole);
  }

  /**
   * A reply or a note. A reply is mailed to the requester by a queue job (delivered 'queued', then
   * 'sent' through SMTP, 'logged' to the outbox without SMTP, or 'failed'). A note is never mailed.
   */
  async addMessage(actorId: string, id: string, input: SupportMessageCreateDto): Promise<SupportMessageDto> {
    assertUuid(id);
    const message = await this.repo.transaction(async (m) => {
      const inquiry = await this.repo.lockInquiry(m, id);
      if (!inquiry) throw new NotFoundError();
      const message = await this.insertMessage(m, actorId, inquiry, input.kind, input.body);
      // a reply answers the person: an open ticket now waits for them (in_progress, "waiting for you")
      if (input.kind === 'reply' && inquiry.status === 'open') {
        await this.repo.updateInquiry(id, { status: 'in_progress' }, m);
        await this.audit.record(
          {
            actorId,
            action: AuditAction.SupportStatusChange,
            targetType: 'support_inquiry',
            targetId: id,
            targetUserId: inquiry.userId,
            before: { status: inquiry.status },
            after: { status: 'in_progress', by: 'reply' },
          },
          m,
        );
      }
      return message;
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
    viewerRole: string,
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
    return this.details(id, viewerRole);
  }

  /** The sender's receipt: the message arrived, its ticket number, what happens next (a report: what happens to the image). */
  @OnJob(JobName.SupportReceiptMail)
  async handleReceiptMail(data: JobPayload<JobName.SupportReceiptMail>): Promise<void> {
    const inquiry = await this.repo.findInquiry(data.inquiryId);
    if (!inquiry?.email) return;
    const ticket = ticketNumber(inquiry.number);
    await this.mailer.deliver({
      to: inquiry.email,
      toName: inquiry.name,
      template: inquiry.kind === 'abuse_report' ? 'report-receipt' : 'support-receipt',
      replyTo: this.config.contact.supportEmail,
      content:
        inquiry.kind === 'abuse_report'
          ? MailTemplates.reportReceipt(this.mailer.brand, { name: inquiry.name, ticket, matched: inquiry.generationId !== null })
          : MailTemplates.supportReceipt(this.mailer.brand, {
              name: inquiry.name,
              ticket,
              subject: inquiry.subject,
              // a signed-in sender follows it in the app
              ticketsUrl: inquiry.userId ? appLink(this.config.appUrl, APP_PAGES.tickets) : undefined,
            }),
    });
  }

  /** "My tickets": the person's own tickets, newest first, each with its thread (replies and their own messages). */
  async listOwn(userId: string): Promise<MyTicketsResponseDto> {
    const { rows, total } = await this.repo.inquiriesOf(userId, MY_TICKETS_LIMIT);
    return { tickets: await Promise.all(rows.map((i) => this.toMine(i))), total };
  }

  /** One of the person's own tickets by its number; another's is answered as missing. */
  async findOwn(userId: string, number: number): Promise<MyTicketDto> {
    const inquiry = await this.repo.findOwnInquiry(userId, number);
    if (!inquiry) throw new NotFoundError(TICKET_NOT_FOUND);
    return this.toMine(inquiry);
  }

  /**
   * The person writes on their own ticket: the message joins the thread, and a ticket waiting for
   * them (in_progress) or resolved opens again for the support team; a closed one takes no more
   * (409: write a new message from the contact form). The support team is notified.
   */
  async replyAsOwner(userId: string, number: number, body: string): Promise<MyTicketDto> {
    const id = await this.repo.transaction(async (m) => {
      const found = await this.repo.findOwnInquiry(userId, number, m);
      if (!found) throw new NotFoundError(TICKET_NOT_FOUND);
      const inquiry = await this.repo.lockInquiry(m, found.id);
      if (!inquiry) throw new NotFoundError(TICKET_NOT_FOUND);
      if (inquiry.status === 'closed') throw new ConflictError(TICKET_CLOSED);
      await this.repo.insertMessage(m, { inquiryId: inquiry.id, kind: 'customer', body, authorId: userId, delivered: null });
      if (inquiry.status !== 'open') await this.repo.updateInquiry(inquiry.id, { status: 'open', resolvedAt: null }, m);
      return inquiry.id;
    });
    const inquiry = (await this.repo.findInquiry(id))!;
    try {
      await this.notifications.notify({
        type: NotificationType.SupportInquiry,
        severity: 'info',
        title: `A reply on ticket ${ticketNumber(inquiry.number)}`,
        message: `The sender of "${inquiry.subject}" (ticket ${ticketNumber(inquiry.number)}) wrote again: it is open again.`,
        dedupeKey: `support-reply:${inquiry.id}:${inquiry.updatedAt.getTime()}`,
      });
    } catch (err) {
      this.logger.error({ event: 'support_notification_failed', inquiry: inquiry.id, err }, 'could not raise the notification of a reply');
    }
    return this.toMine(inquiry);
  }

  private async toMine(i: SupportInquiryEntity): Promise<MyTicketDto> {
    const thread = await this.repo.threadFor(i.id);
    return {
      number: i.number,
      status: i.status,
      kind: i.kind,
      subject: i.subject,
      message: i.message,
      created_at: i.createdAt.toISOString(),
      updated_at: i.updatedAt.toISOString(),
      resolved_at: i.resolvedAt ? i.resolvedAt.toISOString() : null,
      messages: thread.map((m) => ({
        kind: m.kind === 'customer' ? 'customer' : 'reply',
        body: m.body,
        created_at: new Date(m.created_at).toISOString(),
      })),
    };
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

  /** A short signed link for the console (host-relative with the local driver). */
  private link(key: string): Promise<string> {
    return this.storage.signedUrl(key, { ttlSeconds: REPORTED_IMAGE_LINK_TTL_SECONDS, hostRelative: true });
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
      number: i.number,
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
