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

  @Column({ name: 'actor_email', type: 'varchar', length: 320, nullable: true })
  actorEmail: string | null;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ name: 'target_type', type: 'varchar', length: 64 })
  targetType: string;

  @Column({ name: 'target_id', type: 'varchar', length: 64 })
  targetId: string;

  @Column({ name: 'target_user_id', type: 'uuid', nullable: true })
  targetUserId: string | null;

  @Column({ name: 'target_email', type: 'varchar', length: 320, nullable: true })
  targetEmail: string | null;

  @Column({ type: 'jsonb', nullable: true })
  before: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  after: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
