import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { TIERS, type Tier } from '../../catalog/tiers';
import { UserRole } from '../../users/user.entity';

/** A row of the console's user list (the spec's "User row (admin list)"). */
export class AdminUserRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() full_name: string;
  @ApiProperty({ enum: TIERS }) tier: Tier;
  @ApiProperty({ enum: UserRole, enumName: 'UserRole' }) role: UserRole;
  @ApiProperty({ description: 'credits available (both buckets minus holds)' }) credits: number;
  @ApiProperty() subscription_credits: number;
  @ApiProperty() purchased_credits: number;
  @ApiProperty() total_generations: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AdminActivityDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() activity_type: string;
  @ApiProperty({ description: 'a sentence for people' }) description: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** The spec's "User details (admin)". */
export class AdminUserDetailsDto extends AdminUserRowDto {
  @ApiProperty() successful_generations: number;
  @ApiProperty() failed_generations: number;
  @ApiProperty({ type: [AdminActivityDto] }) recent_activity: AdminActivityDto[];
}

export class AdminUserUpdateDto {
  @ApiPropertyOptional({ enum: TIERS, description: 'the new subscription tier (admin only)' })
  @IsOptional()
  @IsIn(TIERS as unknown as string[], { message: `tier must be one of ${TIERS.join(', ')}` })
  tier?: Tier;
}
