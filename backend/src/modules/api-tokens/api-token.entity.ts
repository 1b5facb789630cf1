import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** Why a personal API token stopped working before its expiry. */
export enum ApiTokenRevokeReason {
  /** its owner revoked it in Settings */
  Owner = 'owner',
  /** an admin revoked it from the user's page in the console */
  Admin = 'admin',
  /** a new password was set through a mailed reset link: every token ends, as every session does */
  PasswordReset = 'password_reset',
  /** the address's owner took the account over: whatever its maker set up ends */
  AccountClaimed = 'account_claimed',
}

/**
 * A personal API token (docs/api.md): a named, scoped bearer credential for scripts, shown once.
 * Only the SHA-256 of the token is kept (`token_hash`), with its first characters (`shown`) so its
 * owner can tell tokens apart. Revoked rows stay (with why) for the owner's and admins' lists; the
 * account's deletion removes them.
 */
@Entity({ name: 'api_tokens' })
@Index('api_tokens_user_id_idx', ['userId', 'createdAt'])
export class ApiTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'api_tokens_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** hex SHA-256 of the whole token */
  @Index('api_tokens_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** the token's first characters (`frk_` and 4 more), shown in lists */
  @Column({ type: 'varchar', length: 16 })
  shown: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** null: never expires */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** updated at most once a minute */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'revoke_reason', type: 'varchar', length: 32, nullable: true })
  revokeReason: ApiTokenRevokeReason | null;
}
