import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { containsPattern } from '../../common/simple-rest';
import type { Tier } from '../catalog/tiers';
import type { UserRole } from '../users/user.entity';

/** The list's sortable fields and the column each sorts by. */
export const USER_SORTABLE = {
  id: 'u.id',
  email: 'u.email',
  full_name: 'u.full_name',
  tier: 'u.tier',
  role: 'u.role',
  created_at: 'u.created_at',
  email_verified: 'u.email_verified_at IS NOT NULL',
  credits: 'credits',
  total_generations: 'total_generations',
};

/** The list's filters, already checked by the service. */
export interface UserListFilter {
  /** matched literally (case-insensitive) in email or full name */
  q?: string;
  tier?: Tier;
  role?: UserRole;
  ids?: string[];
  /** the address is proven (email_verified_at set), or not */
  verified?: boolean;
}

export interface UserRow {
  id: string;
  email: string;
  full_name: string;
  tier: Tier;
  role: UserRole;
  subscription_credits: number;
  purchased_credits: number;
  credits: number;
  total_generations: number;
  email_verified_at: Date | null;
  totp_enabled_at: Date | null;
  suspended_at: Date | null;
  suspension_reason: string | null;
  created_at: Date;
}

export interface ActivityRow {
  id: string;
  activity_type: string;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

const USER_SELECT = `
  SELECT u.id, u.email, u.full_name, u.tier, u.role, u.created_at,
         u.email_verified_at, u.totp_enabled_at, u.suspended_at, u.suspension_reason,
         coalesce(a.subscription_balance, 0)::int AS subscription_credits,
         coalesce(a.purchased_balance, 0)::int AS purchased_credits,
         (coalesce(a.subscription_balance, 0) + coalesce(a.purchased_balance, 0) - coalesce(a.held, 0))::int AS credits,
         (SELECT count(*) FROM user_generations g WHERE g.user_id = u.id)::int AS total_generations
    FROM users u LEFT JOIN credit_accounts a ON a.user_id = u.id`;

/**
 * The console's read models of accounts: the user list and the user's page, which join the users,
 * credits, generations, activity and audit tables of their modules. Read-only: the console's changes
 * to an account go through the owning modules' repositories, inside `transaction`.
 */
@Injectable()
export class AdminUsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Runs `work` in one transaction (a console change spans several modules' tables and the audit row). */
  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** One page of the user list, with balances and generation counts, and the number of matching accounts. */
  async list(filter: UserListFilter, orderBy: string, limit: number, offset: number): Promise<{ rows: UserRow[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.q !== undefined) {
      args.push(containsPattern(filter.q));
      where.push(`(u.email ILIKE $${args.length} ESCAPE '\\' OR u.full_name ILIKE $${args.length} ESCAPE '\\')`);
    }
    if (filter.tier) {
      args.push(filter.tier);
      where.push(`u.tier = $${args.length}`);
    }
    if (filter.role) {
      args.push(filter.role);
      where.push(`u.role = $${args.length}`);
    }
    if (filter.verified !== undefined) where.push(filter.verified ? 'u.email_verified_at IS NOT NULL' : 'u.email_verified_at IS NULL');
    if (filter.ids !== undefined) {
      args.push(filter.ids);
      where.push(`u.id = ANY($${args.length}::uuid[])`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM users u ${clause}`, args);
    const rows: UserRow[] = await this.db.query(
      `SELECT * FROM (${USER_SELECT} ${clause}) x ORDER BY ${orderBy.replace(/\bu\./g, 'x.')} LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return { rows, total };
  }

  /** One account as the list shows it, or undefined. */
  async findRow(id: string): Promise<UserRow | undefined> {
    const [row]: UserRow[] = await this.db.query(`${USER_SELECT} WHERE u.id = $1`, [id]);
    return row;
  }

  /** The account's completed, failed and cancelled generations (failed with `cancelledReason`), counted. */
  async generationOutcomes(userId: string, cancelledReason: string): Promise<{ successful: number; failed: number; cancelled: number }> {
    const [counts] = await this.db.query(
      `SELECT count(*) FILTER (WHERE status = 'completed')::int AS successful,
              count(*) FILTER (WHERE status = 'failed' AND coalesce(error, '') <> $2)::int AS failed,
              count(*) FILTER (WHERE status = 'failed' AND error = $2)::int AS cancelled
         FROM user_generations WHERE user_id = $1`,
      [userId, cancelledReason],
    );
    return counts;
  }

  /** The account's 20 latest activity rows, newest first. */
  recentActivity(userId: string): Promise<ActivityRow[]> {
    return this.db.query(
      `SELECT id, activity_type, metadata, created_at FROM user_activity_logs WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
      [userId],
    );
  }

  /** The email of whoever last did `action` to the account (from the audit trail), or null. */
  async latestActorEmail(userId: string, action: string): Promise<string | null> {
    const [row]: { actor_email: string | null }[] = await this.db.query(
      `SELECT actor_email FROM audit_log WHERE target_user_id = $1 AND action = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [userId, action],
    );
    return row?.actor_email ?? null;
  }
}
