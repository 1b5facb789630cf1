import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { PROFILE_COLUMNS, type ProfileExtras } from '../users/users.repository';
import { SessionEntity, SessionRevokeReason } from './session.entity';
import type { UserRole, UserTier } from '../users/user.entity';

/** A live session and the account facts the guard checks. */
export interface LiveSessionAuth {
  sessionId: string;
  userId: string;
  role: UserRole;
  tier: UserTier;
  suspended: boolean;
  emailVerified: boolean;
  ageConfirmed: boolean;
  twoFactorEnabled: boolean;
  /** bumped whenever the account's completed generations change (a bigint, as text) */
  generationsVersion: string;
}

/** The columns of LiveSessionAuth, from `sessions s JOIN users u`. */
const LIVE_AUTH_COLUMNS = `s.id AS "sessionId", u.id AS "userId", u.role, u.tier, u.suspended_at IS NOT NULL AS suspended,
       u.email_verified_at IS NOT NULL AS "emailVerified", u.age_confirmed_at IS NOT NULL AS "ageConfirmed",
       u.totp_enabled_at IS NOT NULL AS "twoFactorEnabled", u.generations_version AS "generationsVersion"`;
/** Session $1 of account $2, neither revoked nor expired. */
const LIVE_SESSION = `s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`;

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
  async insert(row: Pick<SessionEntity, 'id' | 'userId' | 'tokenHash' | 'refreshCount' | 'expiresAt' | 'userAgent' | 'ip'>): Promise<void> {
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

  /**
   * What the guard needs of a live session (unrevoked, unexpired) of this account and of its
   * account, or undefined. One hand-written query: it runs on every authenticated request.
   */
  async findLiveAuth(id: string, userId: string): Promise<LiveSessionAuth | undefined> {
    const [row] = await preparedQuery<LiveSessionAuth>(
      this.db,
      'session-live-auth',
      `SELECT ${LIVE_AUTH_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id WHERE ${LIVE_SESSION}`,
      [id, userId],
    );
    return row;
  }

  /**
   * findLiveAuth with the rest of the account's profile and its credit balances, in the same
   * statement: GET /api/me answers from the session check alone (one round trip instead of two).
   */
  async findLiveAuthWithProfile(id: string, userId: string): Promise<(LiveSessionAuth & ProfileExtras) | undefined> {
    const [row] = await preparedQuery<LiveSessionAuth & ProfileExtras>(
      this.db,
      'session-live-auth-profile',
      `SELECT ${LIVE_AUTH_COLUMNS}, ${PROFILE_COLUMNS}
         FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN credit_accounts a ON a.user_id = u.id
        WHERE ${LIVE_SESSION}`,
      [id, userId],
    );
    return row;
  }

  /**
   * How session $1 of account $2 stands, ended or not (a genuine access token's), and whether its
   * account is suspended: the guard says why a session ended. Undefined when there is no such session.
   */
  async findEndState(
    id: string,
    userId: string,
  ): Promise<{ revokeReason: SessionRevokeReason | null; revoked: boolean; expired: boolean; suspended: boolean } | undefined> {
    const [row] = await this.db.query(
      `SELECT s.revoke_reason AS "revokeReason", s.revoked_at IS NOT NULL AS revoked, s.expires_at <= now() AS expired,
              u.suspended_at IS NOT NULL AS suspended
         FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2`,
      [id, userId],
    );
    return row;
  }

  /** When the session began (Google-only accounts prove themselves by a fresh sign-in), or undefined. */
  async createdAt(id: string): Promise<Date | undefined> {
    const row = await this.db.getRepository(SessionEntity).findOne({ where: { id }, select: { id: true, createdAt: true } });
    return row?.createdAt;
  }

  /** A refresh within the grace window of the token it replaced: only its use is recorded. */
  async touch(m: EntityManager, id: string, changes: Pick<SessionEntity, 'lastUsedAt' | 'userAgent' | 'ip'>): Promise<void> {
    await m.update(SessionEntity, { id }, changes);
  }

  /** A refresh: the new token hash, the one it replaces kept to catch a replay (after the grace window). */
  async rotate(
    m: EntityManager,
    id: string,
    changes: Pick<SessionEntity, 'tokenHash' | 'previousTokenHash' | 'refreshCount' | 'rotatedAt' | 'lastUsedAt' | 'userAgent' | 'ip'>,
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
