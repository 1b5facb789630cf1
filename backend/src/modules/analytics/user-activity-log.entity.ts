import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

export enum ActivityType {
  SignUp = 'sign_up',
  SignIn = 'sign_in',
  SignOut = 'sign_out',
  ProfileUpdate = 'profile_update',
  SettingsUpdate = 'settings_update',
  GenerationStarted = 'generation_started',
  GenerationCompleted = 'generation_completed',
  GenerationFailed = 'generation_failed',
  EmailVerified = 'email_verified',
  PasswordChange = 'password_change',
  TwoFactorEnabled = 'two_factor_enabled',
  TwoFactorDisabled = 'two_factor_disabled',
}

/** What a user did (docs/product.md_activity_logs). Metadata never holds secrets. */
@Entity({ name: 'user_activity_logs' })
@Index('user_activity_logs_user_id_created_at_idx', ['userId', 'createdAt'])
export class UserActivityLogEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_activity_logs_user_id_fkey' })
  user?: UserEntity;

  @Column({ name: 'activity_type', type: 'varchar', length: 64 })
  activityType: string;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeORM's insert types refuse `unknown` in a jsonb column
  metadata: Record<string, any>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
