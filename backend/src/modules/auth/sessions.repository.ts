import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import { SessionEntity, SessionRevokeReason } from './session.entity';
import type { UserRole } from '../users/user.entity';

/** Every read and write of sessions. `manager`: inside the caller's transaction. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Ends every live session of the account, recording why. */
  async revokeAllOf(manager: EntityManager | undefined, userId: string, reason: SessionRevokeReason): Promise<void> {
    await (manager ?? this.db.manager).query(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, reason],
    );
  }

  /** The role of the account behind a live session (neither revoked nor over), or undefined. */
  async roleOfLiveSession(sessionId: string, userId: string): Promise<UserRole | undefined> {
    const [row]: { role: UserRole }[] = await this.db.query(
      `SELECT u.role FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [sessionId, userId],
    );
    return row?.role;
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Stores a new session. */
  async insert(row: Pick<SessionEntity, 'id' | 'userId' | 'tokenHash' | 'expiresAt' | 'userAgent' | 'ip'>): Promise<void> {
    await this.db.getRepository(SessionEntity).insert(row);
  }

  /** The session locked for the caller's transaction (a refresh), or null. */
  lockById(m: EntityManager, id: string): Promise<SessionEntity | null> {
    return m.findOne(SessionEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The session, unless it was revoked. */
  findUnrevoked(id: string): Promise<SessionEntity | null> {
    return this.db.getRepository(SessionEntity).findOne({ where: { id, revokedAt: IsNull() } });
  }

  /** A live session (unrevoked, unexpired) of this account, with its account (for the guard). */
  findLiveWithUser(id: string, userId: string): Promise<SessionEntity | null> {
    return this.db.getRepository(SessionEntity).findOne({
      where: { id, userId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      relations: { user: true },
    });
  }

  /** A refresh: the new token hash, the one it replaces kept to catch a replay. */
  async rotate(
    m: EntityManager,
    id: string,
    changes: Pick<SessionEntity, 'tokenHash' | 'previousTokenHash' | 'lastUsedAt' | 'userAgent' | 'ip'>,
  ): Promise<void> {
    await m.update(SessionEntity, { id }, changes);
  }

  /** Ends a session inside the caller's transaction, whatever its state. */
  async end(m: EntityManager, id: string, revokedAt: Date, reason: SessionRevokeReason): Promise<void> {
    await m.update(SessionEntity, { id }, { revokedAt, revokeReason: reason });
  }

  /** Ends a session unless it has already ended. */
  async revoke(id: string, reason: SessionRevokeReason): Promise<void> {
    await this.db.getRepository(SessionEntity).update({ id, revokedAt: IsNull() }, { revokedAt: new Date(), revokeReason: reason });
  }

  /** Ends every live session of an account, but `except`. */
  async revokeAllForUser(
    userId: string,
    reason: SessionRevokeReason,
    options: { except?: string; manager?: EntityManager } = {},
  ): Promise<void> {
    const m = options.manager ?? this.db.manager;
    await m
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ revokedAt: () => 'now()', revokeReason: reason })
      .where('user_id = :userId AND revoked_at IS NULL', { userId })
      .andWhere(options.except ? 'id <> :except' : '1=1', { except: options.except })
      .execute();
  }

  /** Deletes up to `limit` sessions that expired or were revoked before `cutoff`; answers how many. */
  async deleteEndedBefore(cutoff: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.db.query(
      `DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions WHERE expires_at < $1 OR revoked_at < $1 LIMIT $2
       )`,
      [cutoff, limit],
    );
    return deleted;
  }
}
