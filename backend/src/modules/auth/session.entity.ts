import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

export enum SessionRevokeReason {
  SignOut = 'sign_out',
  RefreshTokenReuse = 'refresh_token_reuse',
  /** a new password was set through a mailed reset link: every session ends */
  PasswordReset = 'password_reset',
  /** the person changed their password in Settings: their other sessions end */
  PasswordChange = 'password_change',
  /** the address's owner took the account back (Google sign-in over an unverified account) */
  AccountClaimed = 'account_claimed',
  /** an admin suspended the account */
  AccountSuspended = 'account_suspended',
}

/**
 * A signed-in device. The refresh token is `<id>.<secret>`; only the SHA-256 of the secret is kept,
 * and it changes on every refresh. The secret carries the token's number (`refresh_count` when it
 * was issued) and a MAC of the session and that number, so a token the session replaced is
 * recognised however long ago. `expires_at` is the absolute end: refreshing never extends it.
 */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Index('sessions_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'sessions_user_id_fkey' })
  user?: UserEntity;

  /** hex SHA-256 of the current refresh token's secret part */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /**
   * hex SHA-256 of the refresh token this one replaced: presenting it again is a replay (a stolen
   * token used after its owner refreshed), which ends the session. Any other wrong secret is only
   * refused, so a session id read from an access token cannot be used to end someone's session.
   */
  @Column({ name: 'previous_token_hash', type: 'varchar', length: 64, nullable: true })
  previousTokenHash: string | null;

  /** the number of the current refresh token: 0 at sign-in, one more at every refresh */
  @Column({ name: 'refresh_count', type: 'integer', default: 0 })
  refreshCount: number;

  /**
   * when the refresh token was last replaced: the one it replaced (previous_token_hash) still works
   * for AUTH_REFRESH_REUSE_GRACE_SECONDS after that, answering the current one (a refresh whose
   * answer was lost); later it is a replay
   */
  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'revoke_reason', type: 'varchar', length: 32, nullable: true })
  revokeReason: SessionRevokeReason | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;
}
