import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/** What a notification is about (the console filters on it). */
export enum NotificationType {
  SupportInquiry = 'support_inquiry',
  AbuseReport = 'abuse_report',
  GenerationFailures = 'generation_failures',
  QueueBacklog = 'queue_backlog',
  AccountDeleted = 'account_deleted',
  CustomPosePaused = 'custom_pose_paused',
  /** an account's live selfie (or photos against its verified face) failed again and again */
  FaceChecksFailing = 'face_checks_failing',
  /** a pack's payment was refunded or disputed: its credits were taken back (maybe not all) */
  PaymentReversed = 'payment_reversed',
  /** a deleted account's Stripe subscription could not be cancelled: an admin cancels it by hand */
  SubscriptionNotCancelled = 'subscription_not_cancelled',
  /** a Stripe event failed on every attempt: an admin fixes the cause and replays it from the console */
  StripeEventFailed = 'stripe_event_failed',
}

/**
 * The product's system_notifications: something an admin should know about, raised by the system
 * itself. `dedupe_key` makes a burst of the same event one notification (see NotificationsService.notify).
 * Read once, read for good: `read_by` and `read_at` keep the first reader.
 */
@Entity({ name: 'system_notifications' })
@Check('system_notifications_severity_check', `"severity" IN ('info', 'warning', 'critical')`)
@Index('system_notifications_created_at_idx', ['createdAt'])
@Index('system_notifications_unread_idx', ['createdAt'], { where: '"read" = false' })
@Index('system_notifications_dedupe_idx', ['dedupeKey', 'createdAt'], { where: '"dedupe_key" IS NOT NULL' })
export class SystemNotificationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'text', default: 'info' })
  severity: NotificationSeverity;

  @Column({ type: 'boolean', default: false })
  read: boolean;

  @Column({ name: 'read_by', type: 'uuid', nullable: true })
  readBy: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'read_by', foreignKeyConstraintName: 'system_notifications_read_by_fkey' })
  reader?: UserEntity | null;

  @Column({ name: 'read_at', type: 'timestamptz', nullable: true })
  readAt: Date | null;

  /** one notification per key (per window, when the caller gives one); keys name vendor ids, so `text` */
  @Column({ name: 'dedupe_key', type: 'text', nullable: true })
  dedupeKey: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
