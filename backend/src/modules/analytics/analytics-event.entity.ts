import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

export enum AnalyticsEventName {
  UserSignup = 'user_signup',
  UserSignin = 'user_signin',
  UserSignout = 'user_signout',
  GenerationStarted = 'generation_started',
  GenerationCompleted = 'generation_completed',
  GenerationFailed = 'generation_failed',
}

/** A product analytics event, stored server-side (docs/product.md). Kept when the user is deleted. */
@Entity({ name: 'analytics_events' })
@Index('analytics_events_event_created_at_idx', ['event', 'createdAt'])
export class AnalyticsEventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('analytics_events_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'analytics_events_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 64 })
  event: string;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeORM's insert types refuse `unknown` in a jsonb column
  properties: Record<string, any>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
