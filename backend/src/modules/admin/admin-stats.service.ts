import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TIERS } from '../catalog/tiers';
import type { AdminStatsDto, TierDistributionDto } from './dto/admin-stats.dto';

/** Days of the charts' series, today included. */
export const STATS_DAYS = 30;

/**
 * The console's dashboard: a handful of aggregate queries (never a loop over rows).
 */
@Injectable()
export class AdminStatsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async stats(now = new Date()): Promise<AdminStatsDto> {
    const [users] = await this.db.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE created_at >= date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS today
         FROM users`,
      [now],
    );
    const tiers: { tier: string; n: number }[] = await this.db.query(`SELECT tier, count(*)::int AS n FROM users GROUP BY tier`);
    const [gens] = await this.db.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE status = 'completed')::int AS successful,
              count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM user_generations`,
    );
    const [credits] = await this.db.query(
      `SELECT (SELECT coalesce(-sum(amount), 0) FROM credit_ledger_entries WHERE kind = 'generation_charge')::int AS used,
              (SELECT coalesce(sum(subscription_balance + purchased_balance), 0) FROM credit_accounts)::int AS in_system`,
    );
    const start = `(date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') - interval '${STATS_DAYS - 1} days')`;
    const perDay: { date: string; successful: number; failed: number }[] = await this.db.query(
      `SELECT to_char(d, 'YYYY-MM-DD') AS date,
              count(g.id) FILTER (WHERE g.status = 'completed')::int AS successful,
              count(g.id) FILTER (WHERE g.status = 'failed')::int AS failed
         FROM generate_series(${start}, date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC'), interval '1 day') d
         LEFT JOIN user_generations g ON (g.created_at AT TIME ZONE 'UTC') >= d AND (g.created_at AT TIME ZONE 'UTC') < d + interval '1 day'
        GROUP BY d ORDER BY d`,
      [now],
    );
    const spent: { date: string; credits: number }[] = await this.db.query(
      `SELECT to_char(d, 'YYYY-MM-DD') AS date, coalesce(-sum(e.amount), 0)::int AS credits
         FROM generate_series(${start}, date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC'), interval '1 day') d
         LEFT JOIN credit_ledger_entries e ON e.kind = 'generation_charge'
               AND (e.created_at AT TIME ZONE 'UTC') >= d AND (e.created_at AT TIME ZONE 'UTC') < d + interval '1 day'
        GROUP BY d ORDER BY d`,
      [now],
    );
    // the support desk's tables (modules/support, modules/notifications)
    const [desk] = await this.db.query(
      `SELECT (SELECT count(*) FROM support_inquiries WHERE status = 'open')::int AS open,
              (SELECT count(*) FROM system_notifications WHERE read = false)::int AS unread`,
    );
    const ended = gens.successful + gens.failed;
    const distribution = Object.fromEntries(TIERS.map((t) => [t, tiers.find((r) => r.tier === t)?.n ?? 0])) as unknown as TierDistributionDto;
    return {
      total_users: users.total,
      new_users_today: users.today,
      total_generations: gens.total,
      successful_generations: gens.successful,
      failed_generations: gens.failed,
      success_rate: ended ? Math.round((gens.successful / ended) * 1000) / 10 : 0,
      total_credits_used: credits.used,
      total_credits_in_system: credits.in_system,
      support_tickets_open: desk.open,
      unread_notifications: desk.unread,
      tier_distribution: distribution,
      generations_per_day: perDay,
      credits_spent_per_day: spent,
    };
  }
}
