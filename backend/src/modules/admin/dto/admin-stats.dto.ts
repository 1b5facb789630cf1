import { ApiProperty } from '@nestjs/swagger';

export class TierDistributionDto {
  @ApiProperty({ type: 'integer' }) free: number;
  @ApiProperty({ type: 'integer' }) starter: number;
  @ApiProperty({ type: 'integer' }) glow_up: number;
  @ApiProperty({ type: 'integer' }) model_mode: number;
}

export class GenerationsPerDayDto {
  @ApiProperty({ example: '2026-11-21' }) date: string;
  @ApiProperty({ type: 'integer' }) successful: number;
  @ApiProperty({ type: 'integer', description: 'failed, cancellations left out' }) failed: number;
  @ApiProperty({ type: 'integer', description: 'stopped by the person, a suspension or a removal' }) cancelled: number;
}

export class CreditsPerDayDto {
  @ApiProperty({ example: '2026-11-21' }) date: string;
  @ApiProperty({ type: 'integer' }) credits: number;
}

/** The product's "Dashboard stats (admin)", plus the daily series of the last 30 days for charts. */
export class AdminStatsDto {
  @ApiProperty({ type: 'integer' }) total_users: number;
  @ApiProperty({ type: 'integer' }) new_users_today: number;
  @ApiProperty({ type: 'integer' }) total_generations: number;
  @ApiProperty({ type: 'integer' }) successful_generations: number;
  @ApiProperty({ type: 'integer', description: 'generations that failed; cancelled ones are counted apart' }) failed_generations: number;
  @ApiProperty({ type: 'integer', description: 'generations stopped by the person, a suspension or a removal (failed with "Cancelled")' })
  cancelled_generations: number;
  @ApiProperty({
    description: 'successful / (successful + failed), in percent with one decimal, cancellations left out; 0 when none ended',
  })
  success_rate: number;
  @ApiProperty({ type: 'integer', description: 'credits charged for generations, net of refunds' }) total_credits_used: number;
  @ApiProperty({ type: 'integer', description: 'credits on every account (both buckets)' }) total_credits_in_system: number;
  @ApiProperty({ type: 'integer' }) support_tickets_open: number;
  @ApiProperty({ type: 'integer' }) unread_notifications: number;
  @ApiProperty({ type: TierDistributionDto }) tier_distribution: TierDistributionDto;
  @ApiProperty({ type: [GenerationsPerDayDto] }) generations_per_day: GenerationsPerDayDto[];
  @ApiProperty({ type: [CreditsPerDayDto] }) credits_spent_per_day: CreditsPerDayDto[];
}
