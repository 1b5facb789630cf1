import { Injectable } from '@nestjs/common';
import { TIERS } from '../catalog/tiers';
import { AdminStatsRepository } from './admin-stats.repository';
import type { AdminStatsDto, TierDistributionDto } from './dto/admin-stats.dto';

/** Days of the charts' series, today included. */
export const STATS_DAYS = 30;

/**
 * The console's dashboard, from the aggregates of its read model (AdminStatsRepository).
 */
@Injectable()
export class AdminStatsService {
  constructor(private readonly repo: AdminStatsRepository) {}

  async stats(now = new Date()): Promise<AdminStatsDto> {
    const users = await this.repo.userCounts(now);
    const tiers = await this.repo.tierCounts();
    const gens = await this.repo.generationCounts();
    const credits = await this.repo.creditTotals();
    const perDay = await this.repo.generationsPerDay(now, STATS_DAYS);
    const spent = await this.repo.creditsSpentPerDay(now, STATS_DAYS);
    const desk = await this.repo.deskCounts();
    // a cancellation is neither a success nor a failure: the rate is completed / (completed + failed)
    const ended = gens.successful + gens.failed;
    const distribution = Object.fromEntries(
      TIERS.map((t) => [t, tiers.find((r) => r.tier === t)?.n ?? 0]),
    ) as unknown as TierDistributionDto;
    return {
      total_users: users.total,
      new_users_today: users.today,
      total_generations: gens.total,
      successful_generations: gens.successful,
      failed_generations: gens.failed,
      cancelled_generations: gens.cancelled,
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
