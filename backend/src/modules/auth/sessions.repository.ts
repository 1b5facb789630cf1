import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { UserRole } from '../users/user.entity';
import type { SessionRevokeReason } from './session.entity';

/** Every read and write of the sessions table. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Ends every live session of the account, recording why. */
  async revokeAllOf(manager: EntityManager | undefined, userId: string, reason: SessionRevokeReason): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`, [
      userId,
      reason,
    ]);
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
}
