import { ApiProperty } from '@nestjs/swagger';

/** The product's user stats (get_user_stats): zeros, and null for last_activity, when there is nothing yet. */
export class StatsResponseDto {
  @ApiProperty({ type: 'integer', example: 0 })
  total_generations: number;

  @ApiProperty({ type: 'integer', example: 0 })
  successful_generations: number;

  @ApiProperty({ type: 'integer', example: 0 })
  failed_generations: number;

  @ApiProperty({ type: 'integer', example: 0 })
  total_credits_spent: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the latest recorded activity' })
  last_activity: string | null;
}
