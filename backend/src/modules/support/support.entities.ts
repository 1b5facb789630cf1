import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Generated,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { UserEntity } from '../users/user.entity';

export const INQUIRY_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];
export const INQUIRY_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type InquiryPriority = (typeof INQUIRY_PRIORITIES)[number];
export const INQUIRY_KINDS = ['question', 'billing', 'abuse_report'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];
/** reply: staff to the person (mailed); note: staff only; customer: the person's own message on their ticket ("My tickets") */
export const MESSAGE_KINDS = ['reply', 'note', 'customer'] as const;
export type SupportMessageKind = (typeof MESSAGE_KINDS)[number];
/** queued: waiting for the mail job; sent: accepted by SMTP; logged: no SMTP configured; failed: every attempt failed */
export const DELIVERY_STATES = ['queued', 'sent', 'logged', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** How a report found its generation (see SupportInquiryEntity.imageMatch). */
export const IMAGE_MATCHES = ['id', 'link', 'metadata', 'hash', 'candidates', 'chosen', 'none'] as const;
export type ImageMatch = (typeof IMAGE_MATCHES)[number];

/**
 * A result an uploaded copy looks like, and how much (reported-image.matcher.ts). A result the
 * signature sweep has not reached yet is found by its older 64-bit hash: then only `hash_distance`.
 */
export interface ImageCandidate {
  generation_id: string;
  /** 0-100: the share of the result's picture inside the copy that agrees with it (or of the 64 hash bits) */
  score: number;
  /** the share (0-1) of the result's grid cells inside the copy that agree with it */
  agreement: number | null;
  /** the share (0-1) of the result the copy shows */
  coverage: number | null;
  /** corners of the result found in the copy, in place */
  inliers: number | null;
  /** bits of the older 64-bit hash that differ (results without a signature yet) */
  hash_distance: number | null;
}

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The product's support_inquiries, with the workflow of docs/product.md (status, priority, kind). The
 * sender may be signed in (user_id) or not; generation_id names the image an abuse report is about
 * (no foreign key: the reporter does not own it, and the report outlives the image).
 */
@Entity({ name: 'support_inquiries' })
@Check('support_inquiries_status_check', `"status" IN (${list(INQUIRY_STATUSES)})`)
@Check('support_inquiries_priority_check', `"priority" IN (${list(INQUIRY_PRIORITIES)})`)
@Check('support_inquiries_kind_check', `"kind" IN (${list(INQUIRY_KINDS)})`)
@Index('support_inquiries_created_at_idx', ['createdAt'])
@Index('support_inquiries_status_created_idx', ['status', 'createdAt'])
@Index('support_inquiries_number_key', ['number'], { unique: true })
export class SupportInquiryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** the ticket's number for people (#1001...), from a sequence: the id stays the key */
  @Column({ type: 'integer' })
  @Generated('increment')
  number: number;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status: InquiryStatus;

  @Column({ type: 'varchar', length: 16, default: 'normal' })
  priority: InquiryPriority;

  @Column({ type: 'varchar', length: 16, default: 'question' })
  kind: InquiryKind;

  @Column({ type: 'varchar', length: 200 })
  subject: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  /**
   * SET NULL: a ticket outlives its sender's account, anonymised ("Delete All My Data" clears the
   * sender's name, address and words first: privacy.repository.ts). A report about someone else's
   * image must stay for the takedown it asks for.
   */
  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'support_inquiries_user_id_fkey' })
  user?: UserEntity | null;

  @Column({ name: 'generation_id', type: 'uuid', nullable: true })
  generationId: string | null;

  /**
   * How a report found the generation it names (IMAGE_MATCHES): `id` (given), `link` (a result
   * link), `metadata` (the id in an uploaded copy's metadata), `hash` (an uploaded copy's picture
   * matched one result, clearly ahead of every other), `candidates` (the copy looks like several
   * results: an admin chooses among `imageCandidates`), `chosen` (an admin chose it), `none` (not
   * found, or an admin said none of these); null for other tickets.
   */
  @Column({ name: 'image_match', type: 'varchar', length: 16, nullable: true })
  imageMatch: ImageMatch | null;

  /**
   * The results an uploaded copy looked most like, best first (at most REPORT_CANDIDATES), with how
   * alike: what the console shows beside the copy, and what an admin may choose from.
   */
  @Column({ name: 'image_candidates', type: 'jsonb', nullable: true })
  imageCandidates: ImageCandidate[] | null;

  /**
   * The uploaded copy, kept privately (storage key `support/reported-images/<id>.jpg`: re-encoded,
   * no metadata) for the console until REPORTED_IMAGE_RETENTION_DAYS after the ticket is resolved,
   * or until the reporter deletes their account; null without a copy or once it was deleted.
   */
  @Column({ name: 'reported_image_key', type: 'varchar', length: 200, nullable: true })
  reportedImageKey: string | null;

  /** when the kept copy was deleted (retention, or the reporter's "Delete All My Data") */
  @Column({ name: 'reported_image_deleted_at', type: 'timestamptz', nullable: true })
  reportedImageDeletedAt: Date | null;

  /**
   * When the generation the report names was removed from this ticket (then it is not offered
   * again), and by whom (null once that account is deleted; the audit trail keeps its address).
   */
  @Column({ name: 'generation_removed_at', type: 'timestamptz', nullable: true })
  generationRemovedAt: Date | null;

  @Column({ name: 'generation_removed_by', type: 'uuid', nullable: true })
  generationRemovedBy: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'generation_removed_by', foreignKeyConstraintName: 'support_inquiries_generation_removed_by_fkey' })
  generationRemover?: UserEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;
}

/** A reply to the requester (mailed), an internal note (never mailed), or the requester's own message, on a ticket. */
@Entity({ name: 'support_messages' })
@Check('support_messages_kind_check', `"kind" IN (${list(MESSAGE_KINDS)})`)
@Check('support_messages_delivered_check', `"delivered" IS NULL OR "delivered" IN (${list(DELIVERY_STATES)})`)
@Index('support_messages_inquiry_idx', ['inquiryId', 'createdAt'])
export class SupportMessageEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'inquiry_id', type: 'uuid' })
  inquiryId: string;

  @ManyToOne(() => SupportInquiryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'inquiry_id', foreignKeyConstraintName: 'support_messages_inquiry_id_fkey' })
  inquiry?: SupportInquiryEntity;

  @Column({ type: 'varchar', length: 8 })
  kind: SupportMessageKind;

  @Column({ type: 'text' })
  body: string;

  /** the admin or support agent who wrote it, or the requester (`customer`); null once that account is deleted */
  @Column({ name: 'author_id', type: 'uuid', nullable: true })
  authorId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'support_messages_author_id_fkey' })
  author?: UserEntity | null;

  /** replies only; null for notes */
  @Column({ type: 'varchar', length: 16, nullable: true })
  delivered: DeliveryState | null;

  /** the last delivery error of a reply (SMTP), for the console */
  @Column({ name: 'delivery_error', type: 'text', nullable: true })
  deliveryError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
