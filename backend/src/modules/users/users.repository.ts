import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { DEFAULT_USER_SETTINGS, UserSettingsEntity } from './user-settings.entity';
import { UserEntity, UserRole } from './user.entity';
import type { ProfileRow } from '../../common/auth/profile-row';
import type { Tier } from '../catalog/tiers';
import type { SettingsResponseDto } from './dto/settings-response.dto';

/** What a locked account row tells the console's changes (suspension, tier). */
/** An account as its mail needs it, with its mail settings as the API names them (UsersRepository.mailRecipient). */
export type MailRecipient = Pick<UserEntity, 'id' | 'email' | 'fullName' | 'emailVerifiedAt'> & SettingsResponseDto;

export interface LockedUser {
  email: string;
  role: UserRole;
  tier: Tier;
  suspended_at: Date | null;
  suspension_reason: string | null;
}

export type { ProfileRow } from '../../common/auth/profile-row';

/** What a profile reads beyond the facts the session check reads (`u`: users, `a`: its credit_accounts row). */
export type ProfileExtras = Pick<
  ProfileRow,
  'email' | 'full_name' | 'created_at' | 'has_password' | 'subscription_balance' | 'purchased_balance' | 'held'
>;

/**
 * The columns of ProfileExtras, for a query on `users u LEFT JOIN credit_accounts a`: the profile's
 * own query and the session check of GET /api/me (SessionsRepository.findLiveAuthWithProfile) read them.
 */
export const PROFILE_COLUMNS = `u.email, u.full_name, u.created_at, u.password_hash IS NOT NULL AS has_password,
              a.subscription_balance, a.purchased_balance, a.held`;

/**
 * Every read and write of users and user_settings. Emails arrive normalized (the services
 * normalize them). `manager`: inside the caller's transaction.
 */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Locks the account's row until `manager`'s transaction ends; undefined when there is no such account. */
  async lockForUpdate(manager: EntityManager, id: string): Promise<LockedUser | undefined> {
    const [user]: LockedUser[] = await manager.query(
      `SELECT email, role, tier, suspended_at, suspension_reason FROM users WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return user;
  }

  /**
   * Locks the rows of the admins who are not suspended, in id order, until `manager`'s transaction
   * ends, and answers their ids: role changes take this lock first, so they never leave no admin.
   */
  async lockActiveAdmins(manager: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM users WHERE role = $1 AND suspended_at IS NULL ORDER BY id FOR UPDATE`,
      [UserRole.Admin],
    );
    return rows.map((r) => r.id);
  }

  /** Sets the account's role; a console-made admin is not the list's (ADMIN_EMAILS never demotes it). */
  async setRole(manager: EntityManager, id: string, role: UserRole): Promise<void> {
    await manager.query(`UPDATE users SET role = $2, admin_from_list = false, updated_at = now() WHERE id = $1`, [id, role]);
  }

  /** Marks the account suspended now, with the reason shown to the console. */
  async suspend(manager: EntityManager | undefined, id: string, reason: string): Promise<void> {
    await (manager ?? this.db.manager).query(
      `UPDATE users SET suspended_at = now(), suspension_reason = $2, updated_at = now() WHERE id = $1`,
      [id, reason],
    );
  }

  /** Clears the account's suspension and its reason. */
  async liftSuspension(manager: EntityManager | undefined, id: string): Promise<void> {
    await (manager ?? this.db.manager).query(
      `UPDATE users SET suspended_at = NULL, suspension_reason = NULL, updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** The email of each of these users (unknown ids are left out); `manager`: inside the caller's transaction. */
  emailsOf(ids: string[], manager?: EntityManager): Promise<{ id: string; email: string }[]> {
    return (manager ?? this.db.manager).query(`SELECT id, email FROM users WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Sets the account's tier. */
  async setTier(manager: EntityManager | undefined, id: string, tier: Tier): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE users SET tier = $2, updated_at = now() WHERE id = $1`, [id, tier]);
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Sign-ups of one address wait for each other until the caller's transaction ends. */
  async lockSignUps(m: EntityManager, email: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`signup:${email}`]);
  }

  /** A new account row, not saved yet. */
  build(fields: Partial<UserEntity>): UserEntity {
    return this.db.getRepository(UserEntity).create(fields);
  }

  /** Inserts a new account or saves the changes of a loaded one. */
  save(user: UserEntity, manager?: EntityManager): Promise<UserEntity> {
    return (manager ?? this.db.manager).save(user);
  }

  /** Changes some columns of an account. */
  async update(id: string, patch: Partial<UserEntity>, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).update(UserEntity, { id }, patch);
  }

  /** The account, or null. */
  findById(id: string, manager?: EntityManager): Promise<UserEntity | null> {
    return (manager ?? this.db.manager).findOne(UserEntity, { where: { id } });
  }

  /** The account, or EntityNotFoundError (answered 404 "No rows found."). */
  getById(id: string): Promise<UserEntity> {
    return this.db.getRepository(UserEntity).findOneOrFail({ where: { id } });
  }

  /**
   * The profile's read model in one round trip: the account with its credit account beside it
   * (GET /api/me is the most frequent authenticated read). Undefined: no such account.
   */
  async profileRow(id: string): Promise<ProfileRow | undefined> {
    const rows = await preparedQuery<ProfileRow>(
      this.db,
      'user-profile',
      `SELECT u.id, u.tier, u.role,
              u.age_confirmed_at IS NOT NULL AS age_confirmed, u.email_verified_at IS NOT NULL AS email_verified,
              u.totp_enabled_at IS NOT NULL AS two_factor_enabled, ${PROFILE_COLUMNS}
         FROM users u LEFT JOIN credit_accounts a ON a.user_id = u.id
        WHERE u.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** The account locked for the caller's transaction, or null. */
  lockById(m: EntityManager, id: string): Promise<UserEntity | null> {
    return m.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Whether the account exists. */
  exists(id: string): Promise<boolean> {
    return this.db.getRepository(UserEntity).exists({ where: { id } });
  }

  /** Whether the account exists and an admin suspended it. */
  isSuspended(id: string, manager?: EntityManager): Promise<boolean> {
    return (manager ?? this.db.manager).exists(UserEntity, { where: { id, suspendedAt: Not(IsNull()) } });
  }

  /** What a session refresh needs of its account: id, role and suspension. */
  findForRefresh(m: EntityManager, id: string): Promise<UserEntity | null> {
    return m.findOne(UserEntity, { where: { id }, select: { id: true, role: true, suspendedAt: true } });
  }

  /** The account that verified this address (at most one). */
  findVerifiedByEmail(email: string, manager?: EntityManager): Promise<UserEntity | null> {
    return (manager ?? this.db.manager).findOne(UserEntity, { where: { email, emailVerifiedAt: Not(IsNull()) } });
  }

  /** Accounts of this address still waiting to prove it, newest first. */
  findUnverifiedByEmail(email: string, manager?: EntityManager): Promise<UserEntity[]> {
    return (manager ?? this.db.manager).find(UserEntity, { where: { email, emailVerifiedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  /** The ids of the unverified accounts of an address, but `exceptId`. */
  async unverifiedIdsOf(m: EntityManager, email: string, exceptId?: string): Promise<string[]> {
    const rows = await m.find(UserEntity, {
      where: { email, emailVerifiedAt: IsNull(), ...(exceptId ? { id: Not(exceptId) } : {}) },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /** The newest `take` accounts of an address that have a password. */
  findWithPasswordByEmail(email: string, take: number): Promise<UserEntity[]> {
    return this.db.getRepository(UserEntity).find({
      where: { email, passwordHash: Not(IsNull()) },
      order: { createdAt: 'DESC' },
      take,
    });
  }

  /** The account linked to this Google id, or null. */
  findByGoogleSub(sub: string): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { googleSub: sub } });
  }

  /** How many accounts have the admin role. */
  countAdmins(): Promise<number> {
    return this.db.getRepository(UserEntity).count({ where: { role: UserRole.Admin } });
  }

  /** Makes admins of the verified accounts of these emails; answers how many changed. */
  async promoteListed(emails: string[]): Promise<number> {
    const result = await this.db
      .getRepository(UserEntity)
      .update(
        { email: In(emails), role: Not(UserRole.Admin), emailVerifiedAt: Not(IsNull()) },
        { role: UserRole.Admin, adminFromList: true },
      );
    return result.affected ?? 0;
  }

  /** Admins that the list made and `emails` no longer holds become plain users; answers their emails. */
  async demoteUnlisted(emails: string[]): Promise<string[]> {
    // an UPDATE ... RETURNING answers [rows, affected count] on PostgreSQL
    const [rows]: [{ email: string }[], number] = await this.db.query(
      `UPDATE users SET role = $1, admin_from_list = false, updated_at = now()
        WHERE admin_from_list AND role = $2 AND NOT (email = ANY($3::text[])) RETURNING email`,
      [UserRole.User, UserRole.Admin, emails],
    );
    return rows.map((r) => r.email);
  }

  /** Verified accounts that opted in to marketing mail. */
  async countMarketingAudience(): Promise<number> {
    const [{ n }]: { n: number }[] = await this.db.query(
      `SELECT count(*)::int AS n FROM users u JOIN user_settings s ON s.user_id = u.id WHERE s.marketing_emails AND u.email_verified_at IS NOT NULL`,
    );
    return n;
  }

  /** The next `limit` ids of that audience after `afterId` (from the start without one), in id order. */
  async marketingAudienceAfter(afterId: string | null, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT u.id FROM users u JOIN user_settings s ON s.user_id = u.id
        WHERE s.marketing_emails AND u.email_verified_at IS NOT NULL AND ($1::uuid IS NULL OR u.id > $1::uuid)
        ORDER BY u.id LIMIT $2`,
      [afterId, limit],
    );
    return rows.map((r) => r.id);
  }

  /** The saved notification preferences, or null when the person never saved any. */
  /**
   * What a mail to the account needs, in one round trip: its address, name, whether the address is
   * confirmed, and its mail preferences (the defaults where it never saved any). Null: no account.
   */
  async mailRecipient(userId: string): Promise<MailRecipient | null> {
    const [row] = await preparedQuery<MailRecipient>(
      this.db,
      'user-mail-recipient',
      `SELECT u.id, u.email, u.full_name AS "fullName", u.email_verified_at AS "emailVerifiedAt",
              coalesce(s.email_notifications, $2) AS email_notifications,
              coalesce(s.generation_notifications, $3) AS generation_notifications,
              coalesce(s.marketing_emails, $4) AS marketing_emails
         FROM users u LEFT JOIN user_settings s ON s.user_id = u.id WHERE u.id = $1`,
      [
        userId,
        DEFAULT_USER_SETTINGS.emailNotifications,
        DEFAULT_USER_SETTINGS.generationNotifications,
        DEFAULT_USER_SETTINGS.marketingEmails,
      ],
    );
    return row ?? null;
  }

  findSettings(userId: string): Promise<UserSettingsEntity | null> {
    return this.db.getRepository(UserSettingsEntity).findOne({ where: { userId } });
  }

  /** Saves the preferences, creating the row the first time. */
  async upsertSettings(row: Omit<UserSettingsEntity, 'user'>): Promise<void> {
    await this.db.getRepository(UserSettingsEntity).upsert(row, { conflictPaths: ['userId'] });
  }

  /** Forgets the preferences (the defaults apply again). */
  async deleteSettings(m: EntityManager, userId: string): Promise<void> {
    await m.query(`DELETE FROM user_settings WHERE user_id = $1`, [userId]);
  }

  /** Until when the account's custom poses are paused (null: never paused); may be in the past. */
  async customPosePausedUntil(userId: string): Promise<Date | null> {
    const [row]: { custom_pose_paused_until: Date | null }[] = await this.db.query(
      `SELECT custom_pose_paused_until FROM users WHERE id = $1`,
      [userId],
    );
    return row?.custom_pose_paused_until ? new Date(row.custom_pose_paused_until) : null;
  }

  /** Pauses the account's custom poses until `until`, unless a pause runs already; answers whether it paused them. */
  async pauseCustomPoses(userId: string, until: Date, manager?: EntityManager): Promise<boolean> {
    const [, changed]: [unknown, number] = await (manager ?? this.db.manager).query(
      `UPDATE users SET custom_pose_paused_until = $2 WHERE id = $1 AND (custom_pose_paused_until IS NULL OR custom_pose_paused_until < now())`,
      [userId, until],
    );
    return changed > 0;
  }
}
