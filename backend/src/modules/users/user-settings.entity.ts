import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/** Notification preferences (docs/product.md); a user without a row has the defaults. */
@Entity({ name: 'user_settings' })
export class UserSettingsEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_settings_user_id_fkey' })
  user?: UserEntity;

  @Column({ name: 'email_notifications', type: 'boolean', default: true })
  emailNotifications: boolean;

  @Column({ name: 'generation_notifications', type: 'boolean', default: true })
  generationNotifications: boolean;

  @Column({ name: 'marketing_emails', type: 'boolean', default: false })
  marketingEmails: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

export const DEFAULT_USER_SETTINGS = { emailNotifications: true, generationNotifications: true, marketingEmails: false } as const;
