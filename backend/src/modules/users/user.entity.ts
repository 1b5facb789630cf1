import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ACCESS_ROLES, type AccessRole } from '../../common/auth/access-policy';
import { TIERS, type Tier } from '../catalog/tiers';

/** Roles: named values of the access policy's role list (@fitting-room/shared, the one source). */
export const UserRole = { User: 'user', Support: 'support', Admin: 'admin' } as const satisfies Record<string, AccessRole>;
export type UserRole = AccessRole;

/** Subscription tiers: named values of the catalogue's tier list (modules/catalog/tiers.ts, the one source). */
export const UserTier = { Free: 'free', Starter: 'starter', GlowUp: 'glow_up', ModelMode: 'model_mode' } as const satisfies Record<
  string,
  Tier
>;
export type UserTier = Tier;

/**
 * An account. Emails are stored lower-cased; a Google-only account has no password hash.
 *
 * An email belongs to at most one *verified* account (`users_email_verified_key`). Unverified
 * accounts may share an address: a sign-up never tells whether an address is taken, and a
 * stranger who registers someone else's address holds nothing the owner cannot take back (see
 * docs/accounts.md). The first account to prove the mailbox keeps the address; the others with
 * it are removed then.
 */
@Entity({ name: 'users' })
@Index('users_email_verified_key', ['email'], { unique: true, where: '"email_verified_at" IS NOT NULL' })
@Check('users_role_check', `"role" IN (${ACCESS_ROLES.map((r) => `'${r}'`).join(', ')})`)
@Check('users_tier_check', `"tier" IN (${TIERS.map((t) => `'${t}'`).join(', ')})`)
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('users_email_idx')
  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** When the person proved they own the mailbox (a mailed link, Google, a password reset); null until then. */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

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

  /**
   * The TOTP secret (RFC 6238), encrypted (AES-256-GCM, see two-factor/totp-secret-box.ts). Set by
   * POST /api/me/2fa/setup; two-factor is on only once `totp_enabled_at` is set by a valid code.
   */
  @Column({ name: 'totp_secret', type: 'varchar', length: 255, nullable: true })
  totpSecret: string | null;

  @Column({ name: 'totp_enabled_at', type: 'timestamptz', nullable: true })
  totpEnabledAt: Date | null;

  /** The last TOTP time step accepted: a code is good once (RFC 6238 section 5.2). */
  @Column({
    name: 'totp_last_step',
    type: 'bigint',
    nullable: true,
    transformer: { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) },
  })
  totpLastStep: number | null;

  /** An admin suspended the account: no sign-in, no session, until lifted. */
  @Column({ name: 'suspended_at', type: 'timestamptz', nullable: true })
  suspendedAt: Date | null;

  /** Why (the admin's words; shown to staff only). */
  @Column({ name: 'suspension_reason', type: 'varchar', length: 500, nullable: true })
  suspensionReason: string | null;

  /** Too many refused custom poses: custom poses are paused until then (the listed poses still work). */
  @Column({ name: 'custom_pose_paused_until', type: 'timestamptz', nullable: true })
  customPosePausedUntil: Date | null;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;

  /**
   * Bumped by a trigger whenever the account's completed generations change (never written by the
   * app): the session check reads it, and a cached page of the gallery holds while it is unchanged.
   */
  @Column({ name: 'generations_version', type: 'bigint', default: 0, select: false, insert: false, update: false })
  generationsVersion: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
