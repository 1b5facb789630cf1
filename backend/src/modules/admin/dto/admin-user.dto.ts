import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { TIERS, type Tier } from '../../catalog/tiers';
import { UserRole } from '../../users/user.entity';

/** A row of the console's user list (the product's "User row (admin list)"). */
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
  @ApiProperty({ description: 'the address is proven (mailed link, Google or a reset)' }) email_verified: boolean;
  @ApiProperty() two_factor_enabled: boolean;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'when an admin suspended the account; null when it is not',
  })
  suspended_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AdminActivityDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() activity_type: string;
  @ApiProperty({ description: 'a sentence for people' }) description: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AdminRefusalDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: [String], description: 'the safety categories that refused it' }) reasons: string[];
  @ApiProperty({ type: String, nullable: true, description: 'what the person typed: admins only, kept 30 days' }) text: string | null;
  @ApiProperty({ enum: ['check', 'start'] }) source: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AdminRefusalsDto {
  @ApiProperty() total: number;
  @ApiProperty() last_24h: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'custom poses paused until then (too many refusals)' })
  paused_until: string | null;
  @ApiProperty({ type: [AdminRefusalDto], description: 'the latest 20' }) recent: AdminRefusalDto[];
}

/** The product's "User details (admin)". */
export class AdminUserDetailsDto extends AdminUserRowDto {
  @ApiProperty() successful_generations: number;
  @ApiProperty({ description: 'cancelled ones are counted apart' }) failed_generations: number;
  @ApiProperty({ description: 'stopped by the person, a suspension or a removal' }) cancelled_generations: number;
  @ApiProperty({ type: [AdminActivityDto] }) recent_activity: AdminActivityDto[];
  @ApiProperty({ type: String, nullable: true, description: "the admin's reason for the suspension (staff only)" }) suspension_reason:
    string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the email of the admin who suspended the account (from the audit trail); null when it is not suspended',
  })
  suspended_by: string | null;
  @ApiProperty({ type: AdminRefusalsDto, description: 'refused custom poses (the texts for admins only)' }) refusals: AdminRefusalsDto;
}

/** POST /api/admin/users/:id/suspension. */
export class AdminSuspensionDto {
  @ApiProperty({ example: 'Repeated attempts at explicit custom poses', maxLength: 500 })
  @MaxLength(500, { message: 'The reason must be at most 500 characters' })
  @IsNotEmpty({ message: 'Please fill in all fields' })
  @IsString({ message: 'Please fill in all fields' })
  reason: string;
}

export class AdminUserUpdateDto {
  @ApiPropertyOptional({ enum: TIERS, description: 'the new subscription tier (admin only)' })
  @IsOptional()
  @IsIn(TIERS as unknown as string[], { message: `tier must be one of ${TIERS.join(', ')}` })
  tier?: Tier;
}
