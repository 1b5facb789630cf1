import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { TIERS, type Tier } from '../catalog/tiers';

export enum UserRole {
  User = 'user',
  Support = 'support',
  Admin = 'admin',
}

/** Subscription tiers: named values of the catalogue's tier list (modules/catalog/tiers.ts, the one source). */
export const UserTier = { Free: 'free', Starter: 'starter', GlowUp: 'glow_up', ModelMode: 'model_mode' } as const satisfies Record<string, Tier>;
export type UserTier = Tier;

/** An account. Emails are stored lower-cased; a Google-only account has no password hash. */
@Entity({ name: 'users' })
@Check('users_role_check', `"role" IN ('user', 'support', 'admin')`)
@Check('users_tier_check', `"tier" IN (${TIERS.map((t) => `'${t}'`).join(', ')})`)
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('users_email_key', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ name: 'full_name', type: 'varchar', length: 200, default: '' })
  fullName: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 16, default: UserRole.User })
  role: UserRole;

  /**
   * The admin role came from ADMIN_EMAILS (not from `npm run admin:create`): taking the email off
   * the list demotes the account at the next start.
   */
  @Column({ name: 'admin_from_list', type: 'boolean', default: false })
  adminFromList: boolean;

  @Column({ type: 'varchar', length: 16, default: UserTier.Free })
  tier: UserTier;

  /** When the person confirmed being 18 or older; null for a Google account that has not confirmed yet. */
  @Column({ name: 'age_confirmed_at', type: 'timestamptz', nullable: true })
  ageConfirmedAt: Date | null;

  /** Google's stable account id (`sub`), once the account has signed in with Google. */
  @Index('users_google_sub_key', { unique: true })
  @Column({ name: 'google_sub', type: 'varchar', length: 255, nullable: true })
  googleSub: string | null;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
