import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GENERATION_MESSAGES } from '../generations/generation-progress';

/** The first day (UTC) of a series of `days` days ending today, as SQL over the parameter $1 (now). */
function seriesStart(days: number): string {
  return `(date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') - interval '${days - 1} days')`;
}

/**
 * The console's dashboard read model: aggregate queries over the users, generations, credits,
 * support and notifications tables of their modules (a handful of queries, never a loop over rows).
 * Read-only.
 */
@Injectable()
export class AdminStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** All accounts, and those created today (UTC). */
  async userCounts(now: Date): Promise<{ total: number; today: number }> {
    const [users] = await this.db.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE created_at >= date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS today
         FROM users`,
      [now],
    );
    return users;
  }

  /** Accounts per tier (tiers without accounts are absent). */
  tierCounts(): Promise<{ tier: string; n: number }[]> {
    return this.db.query(`SELECT tier, count(*)::int AS n FROM users GROUP BY tier`);
  }

  /** Every generation, and the completed, failed and cancelled ones (failed with "Cancelled": not a failure of the service). */
  async generationCounts(): Promise<{ total: number; successful: number; failed: number; cancelled: number }> {
    const [gens] = await this.db.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE status = 'completed')::int AS successful,
              count(*) FILTER (WHERE status = 'failed' AND coalesce(error, '') <> $1)::int AS failed,
              count(*) FILTER (WHERE status = 'failed' AND error = $1)::int AS cancelled
         FROM user_generations`,
      [GENERATION_MESSAGES.cancelled],
    );
    return gens;
  }

  /** Credits spent on generations ever, and credits in all accounts now. */
  async creditTotals(): Promise<{ used: number; in_system: number }> {
    const [credits] = await this.db.query(
      `SELECT (SELECT coalesce(-sum(amount), 0) FROM credit_ledger_entries WHERE kind = 'generation_charge')::int AS used,
              (SELECT coalesce(sum(subscription_balance + purchased_balance), 0) FROM credit_accounts)::int AS in_system`,
    );
    return credits;
  }

  /** Completed, failed and cancelled generations per UTC day over the last `days` days, today included. */
  generationsPerDay(now: Date, days: number): Promise<{ date: string; successful: number; failed: number; cancelled: number }[]> {
    const start = seriesStart(days);
    return this.db.query(
      `SELECT to_char(d, 'YYYY-MM-DD') AS date,
              count(g.id) FILTER (WHERE g.status = 'completed')::int AS successful,
              count(g.id) FILTER (WHERE g.status = 'failed' AND coalesce(g.error, '') <> $2)::int AS failed,
              count(g.id) FILTER (WHERE g.status = 'failed' AND g.error = $2)::int AS cancelled
         FROM generate_series(${start}, date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC'), interval '1 day') d
         LEFT JOIN user_generations g ON (g.created_at AT TIME ZONE 'UTC') >= d AND (g.created_at AT TIME ZONE 'UTC') < d + interval '1 day'
        GROUP BY d ORDER BY d`,
      [now, GENERATION_MESSAGES.cancelled],
    );
  }

  /** Credits spent on generations per UTC day over the last `days` days, today included. */
  creditsSpentPerDay(now: Date, days: number): Promise<{ date: string; credits: number }[]> {
    const start = seriesStart(days);
    return this.db.query(
      `SELECT to_char(d, 'YYYY-MM-DD') AS date, coalesce(-sum(e.amount), 0)::int AS credits
         FROM generate_series(${start}, date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC'), interval '1 day') d
         LEFT JOIN credit_ledger_entries e ON e.kind = 'generation_charge'
               AND (e.created_at AT TIME ZONE 'UTC') >= d AND (e.created_at AT TIME ZONE 'UTC') < d + interval '1 day'
        GROUP BY d ORDER BY d`,
      [now],
    );
  }

  /** The support desk's open tickets and unread admin notifications (modules/support, modules/notifications). */
  async deskCounts(): Promise<{ open: number; unread: number }> {
    const [desk] = await this.db.query(
      `SELECT (SELECT count(*) FROM support_inquiries WHERE status = 'open')::int AS open,
              (SELECT count(*) FROM system_notifications WHERE read = false)::int AS unread`,
    );
    return desk;
  }
}
