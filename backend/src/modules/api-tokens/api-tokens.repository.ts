import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { ApiTokenEntity, ApiTokenRevokeReason } from './api-token.entity';
import type { UserRole, UserTier } from '../users/user.entity';

/** A live token (unrevoked, unexpired) and the account facts the guard checks, as for a session. */
export interface LiveApiTokenAuth {
  tokenId: string;
  scopes: string[];
  lastUsedAt: Date | null;
  userId: string;
  role: UserRole;
  tier: UserTier;
  suspended: boolean;
  emailVerified: boolean;
  ageConfirmed: boolean;
  twoFactorEnabled: boolean;
  generationsVersion: string;
}

/** A token as its lists show it. */
export type ApiTokenRow = Pick<
  ApiTokenEntity,
  'id' | 'name' | 'shown' | 'scopes' | 'createdAt' | 'expiresAt' | 'lastUsedAt' | 'revokedAt' | 'revokeReason'
>;

const LISTED: (keyof ApiTokenRow)[] = [
  'id',
  'name',
  'shown',
  'scopes',
  'createdAt',
  'expiresAt',
  'lastUsedAt',
  'revokedAt',
  'revokeReason',
];

/** Every read and write of api_tokens. `m`: inside the caller's transaction. */
@Injectable()
export class ApiTokensRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(
    m: EntityManager,
    row: Pick<ApiTokenEntity, 'userId' | 'name' | 'tokenHash' | 'shown' | 'scopes' | 'expiresAt'>,
  ): Promise<ApiTokenRow> {
    const saved = await m.getRepository(ApiTokenEntity).save(m.getRepository(ApiTokenEntity).create(row));
    return pick(saved);
  }

  /**
   * Locks the account's tokens against a concurrent creation (the count below is then exact):
   * the account row itself is the lock, as every write of one person's tokens takes it first.
   */
  async lockOwner(m: EntityManager, userId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);
    return rows.length > 0;
  }

  /** The account's tokens that still work (unrevoked, unexpired). */
  async countLive(m: EntityManager, userId: string): Promise<number> {
    const [row]: { n: string }[] = await m.query(
      `SELECT count(*) AS n FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [userId],
    );
    return Number(row.n);
  }

  /** The account's tokens, newest first; `all` adds revoked and expired ones (the console's list). */
  async listOf(userId: string, options: { all?: boolean } = {}): Promise<ApiTokenRow[]> {
    const q = this.db
      .getRepository(ApiTokenEntity)
      .createQueryBuilder('t')
      .select(LISTED.map((c) => `t.${c}`))
      .where('t.user_id = :userId', { userId });
    if (!options.all) q.andWhere('t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())');
    return q.orderBy('t.created_at', 'DESC').addOrderBy('t.id', 'DESC').getMany();
  }

  /**
   * The live token with this hash and its account, or undefined. One hand-written prepared
   * statement: it runs on every request a token makes.
   */
  async findLiveAuth(tokenHash: string): Promise<LiveApiTokenAuth | undefined> {
    const [row] = await preparedQuery<LiveApiTokenAuth>(
      this.db,
      'api-token-live-auth',
      `SELECT t.id AS "tokenId", t.scopes, t.last_used_at AS "lastUsedAt",
              u.id AS "userId", u.role, u.tier, u.suspended_at IS NOT NULL AS suspended,
              u.email_verified_at IS NOT NULL AS "emailVerified", u.age_confirmed_at IS NOT NULL AS "ageConfirmed",
              u.totp_enabled_at IS NOT NULL AS "twoFactorEnabled", u.generations_version AS "generationsVersion"
         FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
      [tokenHash],
    );
    return row;
  }

  /** Records a use, unless one was recorded within the last minute (so a busy token writes once a minute). */
  async touch(id: string): Promise<void> {
    await this.db.query(
      `UPDATE api_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }

  /** Revokes one live token of the account; answers it, or undefined when there is none (unknown, another's, already revoked). */
  async revoke(m: EntityManager, userId: string, id: string, reason: ApiTokenRevokeReason): Promise<ApiTokenRow | undefined> {
    const [rows]: [Record<string, unknown>[], number] = await m.query(
      `UPDATE api_tokens SET revoked_at = now(), revoke_reason = $3
        WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
        RETURNING id, name, shown, scopes, created_at, expires_at, last_used_at, revoked_at, revoke_reason`,
      [id, userId, reason],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id as string,
      name: row.name as string,
      shown: row.shown as string,
      scopes: row.scopes as string[],
      createdAt: row.created_at as Date,
      expiresAt: row.expires_at as Date | null,
      lastUsedAt: row.last_used_at as Date | null,
      revokedAt: row.revoked_at as Date,
      revokeReason: row.revoke_reason as ApiTokenRevokeReason,
    };
  }

  /** Revokes every token of the account that is not revoked yet; answers how many. */
  async revokeAllOf(m: EntityManager, userId: string, reason: ApiTokenRevokeReason): Promise<number> {
    const [, n]: [unknown, number] = await m.query(
      `UPDATE api_tokens SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, reason],
    );
    return n;
  }
}

function pick(e: ApiTokenEntity): ApiTokenRow {
  return Object.fromEntries(LISTED.map((k) => [k, e[k]])) as ApiTokenRow;
}
