import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { containsPattern } from '../../common/simple-rest';
import {
  SupportInquiryEntity,
  SupportMessageEntity,
  type DeliveryState,
  type ImageCandidate,
  type ImageMatch,
  type InquiryKind,
  type InquiryPriority,
  type InquiryStatus,
  type SupportMessageKind,
} from './support.entities';
import type { SupportMessageDto } from './dto/support-inquiry-row.dto';

/** The console's sort fields for tickets, as SQL on support_inquiries (alias i). */
export const INQUIRY_SORTABLE = {
  id: 'i.id',
  number: 'i.number',
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

/** The list's filters, already checked by the service. */
export interface InquiryListFilter {
  status?: InquiryStatus;
  priority?: InquiryPriority;
  kind?: InquiryKind;
  userId?: string;
  q?: string;
}

/** A page of the list: `orderBy` is built from INQUIRY_SORTABLE. */
export interface InquiryPage {
  orderBy: string;
  limit: number;
  offset: number;
}

/** A message as the console shows it, created_at still a date. */
export type SupportMessageRow = Omit<SupportMessageDto, 'created_at'> & { created_at: Date };

/** What the reply job needs: the message and the ticket it answers. */
export interface ReplyToMail {
  delivered: DeliveryState | null;
  kind: string;
  body: string;
  subject: string;
  name: string;
  email: string;
}

/** Every read and write of support_inquiries and support_messages. `manager`: inside the caller's transaction. */
@Injectable()
export class SupportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Stores a new ticket; answers it with its id and dates. */
  createInquiry(values: Partial<SupportInquiryEntity>): Promise<SupportInquiryEntity> {
    return this.db.getRepository(SupportInquiryEntity).save(values) as Promise<SupportInquiryEntity>;
  }

  findInquiry(id: string, manager?: EntityManager): Promise<SupportInquiryEntity | null> {
    return (manager ?? this.db.manager).getRepository(SupportInquiryEntity).findOne({ where: { id } });
  }

  /** The ticket locked for update, inside the caller's transaction. */
  lockInquiry(m: EntityManager, id: string): Promise<SupportInquiryEntity | null> {
    return m.getRepository(SupportInquiryEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async updateInquiry(id: string, changes: Partial<SupportInquiryEntity>, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).getRepository(SupportInquiryEntity).update({ id }, changes);
  }

  /** A page of tickets matching the filter, and how many match in all. */
  async listInquiries(filter: InquiryListFilter, page: InquiryPage): Promise<{ rows: SupportInquiryEntity[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.status) where.push(`i.status = $${args.push(filter.status)}`);
    if (filter.priority) where.push(`i.priority = $${args.push(filter.priority)}`);
    if (filter.kind) where.push(`i.kind = $${args.push(filter.kind)}`);
    if (filter.userId !== undefined) where.push(`i.user_id = $${args.push(filter.userId)}`);
    if (filter.q !== undefined) {
      const n = args.push(containsPattern(filter.q));
      where.push(
        `(i.subject ILIKE $${n} ESCAPE '\\' OR i.message ILIKE $${n} ESCAPE '\\' OR i.name ILIKE $${n} ESCAPE '\\' OR i.email ILIKE $${n} ESCAPE '\\')`,
      );
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM support_inquiries i ${clause}`, args);
    const raw: Record<string, unknown>[] = await this.db.query(
      `SELECT i.* FROM support_inquiries i ${clause} ORDER BY ${page.orderBy} LIMIT ${page.limit} OFFSET ${page.offset}`,
      args,
    );
    return { rows: raw.map(fromRaw), total };
  }

  /** The person's own tickets, newest first (at most `limit`), and how many they have. */
  async inquiriesOf(userId: string, limit: number): Promise<{ rows: SupportInquiryEntity[]; total: number }> {
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM support_inquiries WHERE user_id = $1`, [userId]);
    const raw: Record<string, unknown>[] = await this.db.query(
      `SELECT i.* FROM support_inquiries i WHERE i.user_id = $1 ORDER BY i.created_at DESC, i.number DESC LIMIT ${limit}`,
      [userId],
    );
    return { rows: raw.map(fromRaw), total };
  }

  /** A ticket by its number, when it is the person's own; null otherwise (another's looks the same as none). */
  async findOwnInquiry(userId: string, number: number, manager?: EntityManager): Promise<SupportInquiryEntity | null> {
    return (manager ?? this.db.manager).getRepository(SupportInquiryEntity).findOne({ where: { userId, number } });
  }

  /** What the person sees of their ticket's thread: the replies they were sent and their own messages, oldest first (never notes). */
  threadFor(inquiryId: string): Promise<Array<{ id: string; kind: SupportMessageKind; body: string; created_at: Date }>> {
    return this.db.query(
      `SELECT id, kind, body, created_at FROM support_messages WHERE inquiry_id = $1 AND kind IN ('reply', 'customer') ORDER BY created_at, id`,
      [inquiryId],
    );
  }

  /** A ticket's replies and notes, oldest first, with each author's email (a read model joining users). */
  messagesOf(inquiryId: string): Promise<SupportMessageRow[]> {
    return this.db.query(
      `SELECT m.id, m.kind, m.body, m.author_id, u.email AS author_email, m.delivered, m.delivery_error, m.created_at
         FROM support_messages m LEFT JOIN users u ON u.id = m.author_id
        WHERE m.inquiry_id = $1 ORDER BY m.created_at, m.id`,
      [inquiryId],
    );
  }

  /** One message with its author's email (a read model joining users); undefined when there is none. */
  async findMessage(id: string): Promise<SupportMessageRow | undefined> {
    const [m] = await this.db.query(
      `SELECT m.id, m.kind, m.body, m.author_id, u.email AS author_email, m.delivered, m.delivery_error, m.created_at
         FROM support_messages m LEFT JOIN users u ON u.id = m.author_id WHERE m.id = $1`,
      [id],
    );
    return m;
  }

  /** A message and the ticket it belongs to, for mailing a reply; undefined when the message is gone. */
  async replyToMail(messageId: string): Promise<ReplyToMail | undefined> {
    const [row]: ReplyToMail[] = await this.db.query(
      `SELECT m.delivered, m.kind, m.body, i.subject, i.name, i.email FROM support_messages m JOIN support_inquiries i ON i.id = m.inquiry_id WHERE m.id = $1`,
      [messageId],
    );
    return row;
  }

  /** Records how a reply's mailing went. */
  async setDelivered(messageId: string, delivered: DeliveryState, error: string | null): Promise<void> {
    await this.db.query(`UPDATE support_messages SET delivered = $2, delivery_error = $3 WHERE id = $1`, [messageId, delivered, error]);
  }

  /** Stores a reply or a note and marks its ticket updated, inside the caller's transaction. */
  async insertMessage(
    m: EntityManager,
    values: { inquiryId: string; kind: SupportMessageKind; body: string; authorId: string; delivered: DeliveryState | null },
  ): Promise<SupportMessageEntity> {
    const message = await m.getRepository(SupportMessageEntity).save(values);
    await m.query(`UPDATE support_inquiries SET updated_at = now() WHERE id = $1`, [values.inquiryId]);
    return message;
  }

  /** Records on the ticket that its reported generation was removed, when and by whom (inside the caller's transaction). */
  async markGenerationRemoved(m: EntityManager, id: string, actorId: string): Promise<void> {
    await m.query(
      `UPDATE support_inquiries SET generation_removed_at = now(), generation_removed_by = $2 WHERE id = $1 AND generation_removed_at IS NULL`,
      [id, actorId],
    );
  }

  /** The address of whoever removed the ticket's generation (a read model joining users); null when none or deleted. */
  async generationRemoverEmail(id: string): Promise<string | null> {
    const [row]: { email: string | null }[] = await this.db.query(
      `SELECT u.email FROM support_inquiries i JOIN users u ON u.id = i.generation_removed_by WHERE i.id = $1`,
      [id],
    );
    return row?.email ?? null;
  }

  /** An admin's choice among a report's candidates (`generationId` null: none of them), inside the caller's transaction. */
  async setReportedGeneration(m: EntityManager, id: string, generationId: string | null, imageMatch: ImageMatch): Promise<void> {
    await m.query(`UPDATE support_inquiries SET generation_id = $2, image_match = $3, updated_at = now() WHERE id = $1`, [
      id,
      generationId,
      imageMatch,
    ]);
  }

  /**
   * Kept copies of reports resolved before `cutoff` (resolved or closed since), at most `limit`:
   * the retention sweep's work.
   */
  async reportedImagesResolvedBefore(cutoff: Date, limit: number): Promise<{ id: string; key: string }[]> {
    return this.db.query(
      `SELECT id, reported_image_key AS key FROM support_inquiries
        WHERE reported_image_key IS NOT NULL AND status IN ('resolved', 'closed') AND resolved_at < $1
        ORDER BY resolved_at LIMIT $2`,
      [cutoff, limit],
    );
  }

  /** Kept copies of the reports an account sent (signed in, or from its address): its "Delete All My Data" deletes them. */
  async reportedImagesSentBy(userId: string): Promise<{ id: string; key: string }[]> {
    return this.db.query(
      `SELECT i.id, i.reported_image_key AS key FROM support_inquiries i
        WHERE i.reported_image_key IS NOT NULL
          AND (i.user_id = $1 OR lower(i.email) = (SELECT lower(u.email) FROM users u WHERE u.id = $1))`,
      [userId],
    );
  }

  /** Records that a ticket's kept copy was deleted (its file first, by the caller). */
  async forgetReportedImage(id: string): Promise<void> {
    await this.db.query(
      `UPDATE support_inquiries SET reported_image_key = NULL, reported_image_deleted_at = now() WHERE id = $1 AND reported_image_key IS NOT NULL`,
      [id],
    );
  }

  /** The account's tickets stay, no longer tied to it (an account taken back by the owner of its address). */
  async detachUser(userId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE support_inquiries SET user_id = NULL WHERE user_id = $1`, [userId]);
  }
}

/** A raw support_inquiries row (snake_case) as the entity. */
function fromRaw(r: Record<string, unknown>): SupportInquiryEntity {
  return {
    id: r.id as string,
    number: Number(r.number),
    status: r.status as InquiryStatus,
    priority: r.priority as SupportInquiryEntity['priority'],
    kind: r.kind as SupportInquiryEntity['kind'],
    subject: r.subject as string,
    message: r.message as string,
    name: r.name as string,
    email: r.email as string,
    userId: (r.user_id as string | null) ?? null,
    generationId: (r.generation_id as string | null) ?? null,
    imageMatch: (r.image_match as ImageMatch | null) ?? null,
    imageCandidates: (r.image_candidates as ImageCandidate[] | null) ?? null,
    reportedImageKey: (r.reported_image_key as string | null) ?? null,
    reportedImageDeletedAt: r.reported_image_deleted_at ? new Date(r.reported_image_deleted_at as string) : null,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
    resolvedAt: r.resolved_at ? new Date(r.resolved_at as string) : null,
    generationRemovedAt: r.generation_removed_at ? new Date(r.generation_removed_at as string) : null,
    generationRemovedBy: (r.generation_removed_by as string | null) ?? null,
  };
}
