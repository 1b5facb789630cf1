import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One action of an admin or support agent: who did what to whom, the state before and after, when.
 * No foreign keys on purpose: the trail outlives the accounts it names (an account deletion keeps
 * its audit rows; their emails are snapshotted here so the trail still reads).
 */
@Entity({ name: 'audit_log' })
@Index('audit_log_created_at_idx', ['createdAt'])
@Index('audit_log_target_user_idx', ['targetUserId', 'createdAt'])
@Index('audit_log_actor_idx', ['actorId', 'createdAt'])
export class AuditLogEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'actor_id', type: 'uuid' })
  actorId: string;

  @Column({ name: 'actor_email', type: 'text', nullable: true })
  actorEmail: string | null;

  @Column({ type: 'text' })
  action: string;

  @Column({ name: 'target_type', type: 'text' })
  targetType: string;

  /** our id or a vendor's (a Stripe Checkout Session id is 66 characters, Stripe's ids up to 255): `text` */
  @Column({ name: 'target_id', type: 'text' })
  targetId: string;

  @Column({ name: 'target_user_id', type: 'uuid', nullable: true })
  targetUserId: string | null;

  @Column({ name: 'target_email', type: 'text', nullable: true })
  targetEmail: string | null;

  @Column({ type: 'jsonb', nullable: true })
  before: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  after: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
