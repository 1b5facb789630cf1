import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../../users/user.entity';

/** What a one-time token proves or allows. */
export enum AuthTokenPurpose {
  /** the mailed link of POST /api/auth/verify-email (24 h) */
  EmailVerification = 'email_verification',
  /** the mailed link of POST /api/auth/password/reset (1 h) */
  PasswordReset = 'password_reset',
  /** the second step of a sign-in with two-factor on (POST /api/auth/sign-in/2fa, 5 minutes, 5 tries) */
  MfaChallenge = 'mfa_challenge',
}

export const AUTH_TOKEN_PURPOSES = Object.values(AuthTokenPurpose);

/**
 * A single-use token handed to a person (in a mailed link, or to the client between the two steps
 * of a sign-in). Only the SHA-256 of its secret is stored; it ends when used, when it expires, when
 * a newer token of the same purpose replaces it, or with the account.
 */
@Entity({ name: 'auth_tokens' })
@Check('auth_tokens_purpose_check', `"purpose" IN (${AUTH_TOKEN_PURPOSES.map((p) => `'${p}'`).join(', ')})`)
@Index('auth_tokens_user_purpose_idx', ['userId', 'purpose'])
export class AuthTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'auth_tokens_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 32 })
  purpose: AuthTokenPurpose;

  /** hex SHA-256 of the secret */
  @Index('auth_tokens_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** the address a verification link was sent to: it verifies that address only */
  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  /** wrong codes tried against an MFA challenge */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
