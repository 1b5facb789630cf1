import { ApiProperty } from '@nestjs/swagger';

export class TierDistributionDto {
  @ApiProperty() free: number;
  @ApiProperty() starter: number;
  @ApiProperty() glow_up: number;
  @ApiProperty() model_mode: number;
}

export class GenerationsPerDayDto {
  @ApiProperty({ example: '2026-11-21' }) date: string;
  @ApiProperty() successful: number;
  @ApiProperty({ description: 'failed, cancellations left out' }) failed: number;
  @ApiProperty({ description: 'stopped by the person, a suspension or a removal' }) cancelled: number;
}

export class CreditsPerDayDto {
  @ApiProperty({ example: '2026-11-21' }) date: string;
  @ApiProperty() credits: number;
}

/** The product's "Dashboard stats (admin)", plus the daily series of the last 30 days for charts. */
export class AdminStatsDto {
  @ApiProperty() total_users: number;
  @ApiProperty() new_users_today: number;
  @ApiProperty() total_generations: number;
  @ApiProperty() successful_generations: number;
  @ApiProperty({ description: 'generations that failed; cancelled ones are counted apart' }) failed_generations: number;
  @ApiProperty({ description: 'generations stopped by the person, a suspension or a removal (failed with "Cancelled")' })
  cancelled_generations: number;
  @ApiProperty({
    description: 'successful / (successful + failed), in percent with one decimal, cancellations left out; 0 when none ended',
  })
  success_rate: number;
  @ApiProperty({ description: 'credits charged for generations, net of refunds' }) total_credits_used: number;
  @ApiProperty({ description: 'credits on every account (both buckets)' }) total_credits_in_system: number;
  @ApiProperty() support_tickets_open: number;
  @ApiProperty() unread_notifications: number;
  @ApiProperty({ type: TierDistributionDto }) tier_distribution: TierDistributionDto;
  @ApiProperty({ type: [GenerationsPerDayDto] }) generations_per_day: GenerationsPerDayDto[];
  @ApiProperty({ type: [CreditsPerDayDto] }) credits_spent_per_day: CreditsPerDayDto[];
}
