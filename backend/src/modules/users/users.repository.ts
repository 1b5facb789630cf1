import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Tier } from '../catalog/tiers';

/** What a locked account row tells the console's changes (suspension, tier). */
export interface LockedUser {
  tier: Tier;
  suspended_at: Date | null;
  suspension_reason: string | null;
}

/** Every read and write of the users table. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Locks the account's row until `manager`'s transaction ends; undefined when there is no such account. */
  async lockForUpdate(manager: EntityManager, id: string): Promise<LockedUser | undefined> {
    const [user]: LockedUser[] = await manager.query(`SELECT tier, suspended_at, suspension_reason FROM users WHERE id = $1 FOR UPDATE`, [id]);
    return user;
  }

  /** Marks the account suspended now, with the reason shown to the console. */
  async suspend(manager: EntityManager | undefined, id: string, reason: string): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE users SET suspended_at = now(), suspension_reason = $2, updated_at = now() WHERE id = $1`, [id, reason]);
  }

  /** Clears the account's suspension and its reason. */
  async liftSuspension(manager: EntityManager | undefined, id: string): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE users SET suspended_at = NULL, suspension_reason = NULL, updated_at = now() WHERE id = $1`, [id]);
  }

  /** The email of each of these users (unknown ids are left out); `manager`: inside the caller's transaction. */
  emailsOf(ids: string[], manager?: EntityManager): Promise<{ id: string; email: string }[]> {
    return (manager ?? this.db.manager).query(`SELECT id, email FROM users WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Sets the account's tier. */
  async setTier(manager: EntityManager | undefined, id: string, tier: Tier): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE users SET tier = $2, updated_at = now() WHERE id = $1`, [id, tier]);
  }
}
