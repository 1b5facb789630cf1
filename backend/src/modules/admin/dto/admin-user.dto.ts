import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { TIERS, type Tier } from '../../catalog/tiers';
import { UserRole } from '../../users/user.entity';

/** A row of the console's user list (the product's "User row (admin list)"). */
export class AdminUserRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() full_name: string;
  @ApiProperty({ enum: TIERS }) tier: Tier;
  @ApiProperty({ enum: UserRole, enumName: 'UserRole' }) role: UserRole;
  @ApiProperty({ type: 'integer', description: 'credits available (both buckets minus holds)' }) credits: number;
  @ApiProperty({ type: 'integer' }) subscription_credits: number;
  @ApiProperty({ type: 'integer' }) purchased_credits: number;
  @ApiProperty({ type: 'integer' }) total_generations: number;
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
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) last_24h: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'custom poses paused until then (too many refusals)' })
  paused_until: string | null;
  @ApiProperty({ type: [AdminRefusalDto], description: 'the latest 20' }) recent: AdminRefusalDto[];
}

export class AdminFaceCheckDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['selfie', 'photo'], description: 'the live selfie, or a photo checked against the verified face' }) kind: string;
  @ApiProperty({
    enum: ['verified', 'mismatch', 'still', 'no_face', 'several_faces'],
    description: 'verified, or why it was refused: another person, a still picture, no face, more than one face',
  })
  outcome: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'distance to the nearest of the photos (smaller is closer; 0.45 or less is the same person)',
  })
  distance: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** "Only you": the account's live selfie and face refusals (no picture, no descriptor). */
export class AdminFaceChecksDto {
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'when a live selfie last verified the face; null: never' })
  verified_at: string | null;
  @ApiProperty({ type: 'integer', description: 'refused checks, in all' }) refused: number;
  @ApiProperty({ type: 'integer', description: 'refused checks in the last 24 hours' }) refused_24h: number;
  @ApiProperty({ type: [AdminFaceCheckDto], description: 'the latest 20' }) recent: AdminFaceCheckDto[];
}

/** The product's "User details (admin)". */
export class AdminUserDetailsDto extends AdminUserRowDto {
  @ApiProperty({ type: 'integer' }) successful_generations: number;
  @ApiProperty({ type: 'integer', description: 'cancelled ones are counted apart' }) failed_generations: number;
  @ApiProperty({ type: 'integer', description: 'stopped by the person, a suspension or a removal' }) cancelled_generations: number;
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
  @ApiProperty({ type: AdminFaceChecksDto, description: 'the live selfie and the refused face checks' }) face_checks: AdminFaceChecksDto;
  @ApiProperty({
    description:
      'as staff (support, admin), the account must turn two-factor on before the console opens: AUTH_REQUIRE_STAFF_2FA is on and its two-factor is off',
  })
  staff_two_factor_required: boolean;
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

  @ApiPropertyOptional({
    type: 'integer',
    description:
      'the credits the confirmation said the change gives (GET .../tier-change `credits_added`): when the change would now give ' +
      'another number (the balance moved meanwhile), 409 CONFLICT and nothing changes',
    minimum: 0,
  })
  @IsOptional()
  @IsInt({ message: 'expected_credits_added must be a whole number' })
  @Min(0, { message: 'expected_credits_added must be a whole number' })
  @Max(1_000_000_000, { message: 'expected_credits_added must be a whole number' })
  expected_credits_added?: number;
}

/** GET /api/admin/users/:id/tier-change?tier=. */
export class AdminTierChangeQueryDto {
  @ApiProperty({ enum: TIERS, description: 'the tier to change to' })
  @IsIn(TIERS as unknown as string[], { message: `tier must be one of ${TIERS.join(', ')}` })
  tier: Tier;
}

/** GET /api/admin/users/:id/tier-change?tier=: what a tier change would do now, by the server's own rule; nothing changes. */
export class AdminTierChangePreviewDto {
  @ApiProperty({ enum: TIERS }) from_tier: Tier;
  @ApiProperty({ enum: TIERS }) to_tier: Tier;
  @ApiProperty({ example: 'Starter', description: "the current plan's name" }) from_name: string;
  @ApiProperty({ example: 'Glow Up', description: "the new plan's name" }) to_name: string;
  @ApiProperty({ description: 'the same tier: nothing would change' }) unchanged: boolean;
  @ApiProperty({
    type: 'integer',
    description: 'subscription credits the change adds now (an upgrade tops them up to the new plan; 0 otherwise)',
  })
  credits_added: number;
  @ApiProperty({ type: 'integer', description: 'credits available now' }) credits_before: number;
  @ApiProperty({ type: 'integer', description: 'credits available after the change' }) credits_after: number;
  @ApiProperty({ type: 'integer', description: 'the new plan gives this many subscription credits at each monthly reset' })
  monthly_credits: number;
  @ApiProperty({ description: 'the account pays for a plan at Stripe: its next subscription change sets the tier to that plan again' })
  stripe_subscription: boolean;
  @ApiProperty({ example: 'Change tier from Starter to Glow Up?', description: "the confirmation's question" }) title: string;
  @ApiProperty({
    example: 'This gives 58 subscription credits now (balance 12 -> 70). The person is told by mail.',
    description: 'what the change does, in words, with the figures above',
  })
  summary: string;
}

/** PUT /api/admin/users/:id/role. */
export class AdminRoleUpdateDto {
  @ApiProperty({ enum: UserRole, enumName: 'UserRole', description: "the account's role: user, support or admin" })
  @IsIn(Object.values(UserRole), { message: `role must be one of ${Object.values(UserRole).join(', ')}` })
  role: UserRole;
}
