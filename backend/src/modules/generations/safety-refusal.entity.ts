import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/**
 * A custom pose the safety check refused: who, why (the categories), when, from where (a check or
 * a start), and the text itself for 30 days, for admins to review (then it is cleared; the row
 * stays for the counts).
 */
@Entity({ name: 'safety_refusals' })
@Check('safety_refusals_source_check', `"source" IN ('check', 'start')`)
@Index('safety_refusals_user_created_idx', ['userId', 'createdAt'])
export class SafetyRefusalEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'safety_refusals_user_id_fkey' })
  user?: UserEntity;

  /** the refusal's categories (SafetyReason values), comma-separated */
  @Column({ type: 'text' })
  reasons: string;

  /** what the person typed; NULL after SAFETY_REFUSAL_TEXT_DAYS */
  @Column({ type: 'text', nullable: true })
  text: string | null;

  /** `check` (POST /api/generations/check) or `start` (POST /api/generations) */
  @Column({ type: 'text' })
  source: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
