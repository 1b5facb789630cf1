import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

export const INQUIRY_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];
export const INQUIRY_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type InquiryPriority = (typeof INQUIRY_PRIORITIES)[number];
export const INQUIRY_KINDS = ['question', 'billing', 'abuse_report'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];
export const MESSAGE_KINDS = ['reply', 'note'] as const;
export type SupportMessageKind = (typeof MESSAGE_KINDS)[number];
/** queued: waiting for the mail job; sent: accepted by SMTP; logged: no SMTP configured; failed: every attempt failed */
export const DELIVERY_STATES = ['queued', 'sent', 'logged', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

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
export class SupportInquiryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

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
   * How a report found the generation it names: `id` (given), `link` (a result link), `metadata`
   * (the id in an uploaded copy's metadata), `hash` (an uploaded copy's picture, by perceptual
   * hash), `none` (not found); null for other tickets. The uploaded copy itself is never kept.
   */
  @Column({ name: 'image_match', type: 'varchar', length: 16, nullable: true })
  imageMatch: string | null;

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

/** A reply to the requester (mailed) or an internal note (never mailed) on a ticket. */
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

  /** the admin or support agent who wrote it (null once that account is deleted) */
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
